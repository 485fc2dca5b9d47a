import { formatCrypto, formatFiat, formatPercent } from '../../lib/shared/format.ts';
import type { TradeView } from './trade-logic.ts';
import { StatusBadge, type T } from './ui.tsx';

// Trade info (spec section 2): who trades what with whom, at which price and fee, by which
// payment method, and where the trade stands.

export function TradeInfo({ trade, t, lang, prefix }: { trade: TradeView; t: T; lang: string; prefix: string }) {
  const money = (amount: number) => formatFiat(amount, trade.currency, lang, trade.fiatDecimals);
  const crypto = (amount: string) => formatCrypto(Number(amount), trade.cryptoCurrency, lang);
  const moderator = trade.role === 'moderator';
  const partner = trade.role === 'buyer' ? trade.seller : trade.buyer;
  const title = moderator
    ? t('trade.info.titleModerator', { buyer: trade.buyer.username, seller: trade.seller.username })
    : t(trade.role === 'buyer' ? 'trade.info.titleBuying' : 'trade.info.titleSelling', {
        amount: crypto(trade.cryptoAmount),
        username: partner.username,
      });
  const person = (user: { username: string }) => (
    <a className="text-link" href={`${prefix}/profile/${encodeURIComponent(user.username)}`} dir="ltr">
      {user.username}
    </a>
  );
  return (
    <section className="trade-info card" aria-labelledby="trade-info-title">
      <div className="trade-info-head">
        <h1 id="trade-info-title" className="h3">
          {title}
        </h1>
        <StatusBadge status={trade.status} t={t} />
      </div>
      <dl className="trade-facts">
        <div>
          <dt>{t('trade.info.fiat')}</dt>
          <dd data-fact="fiat">{money(trade.fiatAmount)}</dd>
        </div>
        <div>
          <dt>
            {t(trade.role === 'seller' ? 'trade.info.cryptoSeller' : 'trade.info.crypto', {
              crypto: trade.cryptoCurrency,
            })}
          </dt>
          <dd data-fact="crypto">{crypto(trade.cryptoAmount)}</dd>
        </div>
        <div>
          <dt>{t('trade.info.price', { crypto: trade.cryptoCurrency })}</dt>
          <dd>{money(trade.fiatPricePerBtc)}</dd>
        </div>
        <div>
          <dt>{t('trade.info.fee')}</dt>
          <dd>
            {t('trade.info.feeValue', {
              amount: crypto(trade.fee.amount),
              percent: formatPercent(trade.fee.percentage, lang),
            })}
          </dd>
        </div>
        <div>
          <dt>{t('trade.info.method')}</dt>
          <dd>{trade.paymentMethodName}</dd>
        </div>
        {moderator ? (
          <>
            <div>
              <dt>{t('trade.info.buyer')}</dt>
              <dd>{person(trade.buyer)}</dd>
            </div>
            <div>
              <dt>{t('trade.info.seller')}</dt>
              <dd>{person(trade.seller)}</dd>
            </div>
          </>
        ) : (
          <div>
            <dt>{t(trade.role === 'buyer' ? 'trade.info.seller' : 'trade.info.buyer')}</dt>
            <dd data-fact="partner">{person(partner)}</dd>
          </div>
        )}
        <div>
          <dt>{t('trade.info.id')}</dt>
          <dd className="trade-mono" dir="ltr">
            {trade.hash}
          </dd>
        </div>
      </dl>
      {trade.isOpponentsSameIp && (
        <p className="alert alert-error" role="note">
          {t('trade.info.sameIp')}
        </p>
      )}
    </section>
  );
}
