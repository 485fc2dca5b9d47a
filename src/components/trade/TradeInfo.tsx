import type { ReactNode } from 'react';
import { tIsolated } from '../../lib/isolated.tsx';
import { formatFiat, formatPercent } from '../../lib/shared/format.ts';
import { formatCryptoAmount } from '../../lib/shared/format-crypto.ts';
import type { TradeView } from './trade-logic.ts';
import { StatusBadge, type T } from './ui.tsx';

// Trade info (spec section 2): who trades what with whom, at which price and fee, by which
// payment method, and where the trade stands.

interface InfoProps {
  trade: TradeView;
  t: T;
  lang: string;
  prefix: string;
}

const cryptoOf = (trade: TradeView, lang: string) => (amount: string) =>
  formatCryptoAmount(amount, trade.cryptoCurrency, lang);
const partnerOf = (trade: TradeView) => (trade.role === 'buyer' ? trade.seller : trade.buyer);

/** The heading: what the reader buys or sells from whom, or, for a moderator, who trades (names and amounts isolated). */
function infoTitle(trade: TradeView, t: T, lang: string): ReactNode {
  if (trade.role === 'moderator') {
    return tIsolated(t, 'trade.info.titleModerator', { buyer: trade.buyer.username, seller: trade.seller.username });
  }
  return tIsolated(t, trade.role === 'buyer' ? 'trade.info.titleBuying' : 'trade.info.titleSelling', {
    amount: cryptoOf(trade, lang)(trade.cryptoAmount),
    username: partnerOf(trade).username,
  });
}

export function TradeInfo({ trade, t, lang, prefix }: InfoProps) {
  return (
    <section className="trade-info card" aria-labelledby="trade-info-title">
      <div className="trade-info-head">
        <h1 id="trade-info-title" className="h3">
          {infoTitle(trade, t, lang)}
        </h1>
        <StatusBadge status={trade.status} t={t} />
      </div>
      <TradeFacts trade={trade} t={t} lang={lang} prefix={prefix} />
      {trade.isOpponentsSameIp && (
        <p className="alert alert-error" role="note">
          {t('trade.info.sameIp')}
        </p>
      )}
    </section>
  );
}

function TradeFacts({ trade, t, lang, prefix }: InfoProps) {
  const money = (amount: number) => formatFiat(amount, trade.currency, lang, trade.fiatDecimals);
  const crypto = cryptoOf(trade, lang);
  return (
    <dl className="trade-facts">
      <div>
        <dt>{t('trade.info.fiat')}</dt>
        <dd data-fact="fiat">
          <bdi>{money(trade.fiatAmount)}</bdi>
        </dd>
      </div>
      <div>
        <dt>
          {t(trade.role === 'seller' ? 'trade.info.cryptoSeller' : 'trade.info.crypto', {
            crypto: trade.cryptoCurrency,
          })}
        </dt>
        <dd data-fact="crypto">
          <bdi>{crypto(trade.cryptoAmount)}</bdi>
        </dd>
      </div>
      <div>
        <dt>{t('trade.info.price', { crypto: trade.cryptoCurrency })}</dt>
        <dd>
          <bdi>{money(trade.fiatPricePerBtc)}</bdi>
        </dd>
      </div>
      <div>
        <dt>{t('trade.info.fee')}</dt>
        <dd>
          {tIsolated(t, 'trade.info.feeValue', {
            amount: crypto(trade.fee.amount),
            percent: formatPercent(trade.fee.percentage, lang),
          })}
        </dd>
      </div>
      <div>
        <dt>{t('trade.info.method')}</dt>
        <dd>
          <bdi>{trade.paymentMethodName}</bdi>
        </dd>
      </div>
      <PeopleFacts trade={trade} t={t} prefix={prefix} />
      <div>
        <dt>{t('trade.info.id')}</dt>
        <dd className="trade-mono" dir="ltr">
          {trade.hash}
        </dd>
      </div>
    </dl>
  );
}

/** Both parties for a moderator, otherwise the partner. */
function PeopleFacts({ trade, t, prefix }: { trade: TradeView; t: T; prefix: string }) {
  if (trade.role === 'moderator') {
    return (
      <>
        <div>
          <dt>{t('trade.info.buyer')}</dt>
          <dd>
            <Person user={trade.buyer} prefix={prefix} />
          </dd>
        </div>
        <div>
          <dt>{t('trade.info.seller')}</dt>
          <dd>
            <Person user={trade.seller} prefix={prefix} />
          </dd>
        </div>
      </>
    );
  }
  return (
    <div>
      <dt>{t(trade.role === 'buyer' ? 'trade.info.seller' : 'trade.info.buyer')}</dt>
      <dd data-fact="partner">
        <Person user={partnerOf(trade)} prefix={prefix} />
      </dd>
    </div>
  );
}

function Person({ user, prefix }: { user: { username: string }; prefix: string }) {
  return (
    <a className="text-link" href={`${prefix}/profile/${encodeURIComponent(user.username)}`}>
      <bdi>{user.username}</bdi>
    </a>
  );
}
