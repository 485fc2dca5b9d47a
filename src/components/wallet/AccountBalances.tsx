import { useState } from 'react';
import { apiGet, apiPost } from '../../lib/api-client.ts';
import { formatCryptoAmount } from '../../lib/shared/format-crypto.ts';
import type { BalancePair, MerchantSettlement, MerchantView } from '../../lib/shared/views/kiosks.ts';
import type { CryptoCode } from './types.ts';

// The balances a merchant or a kiosk keeps beside its wallet (issue 21; docs/kiosks-and-
// merchants.md): a merchant's trades as buyer collect in its merchant balance, which "Settle to
// wallet" moves into the wallet all at once (a fresh idempotency key per click); a kiosk's float
// is its kiosk balance, managed on the /kiosk screen.

type T = (key: string, params?: Record<string, string | number>) => string;

const CODES: CryptoCode[] = ['BTC', 'USDT'];
const isEmpty = (pair: BalancePair) => CODES.every((code) => Number(pair[code]) === 0);

function Amounts({ pair, lang }: { pair: BalancePair; lang: string }) {
  return (
    <div className="wallet-other-amounts">
      {CODES.map((code) => (
        <p className="wallet-other-amount" key={code} data-currency={code}>
          {formatCryptoAmount(pair[code], code, lang)}
        </p>
      ))}
    </div>
  );
}

export function AccountBalances({
  t,
  lang,
  locale,
  merchant,
  kiosk,
  kioskLink,
  onSettled,
}: {
  t: T;
  lang: string;
  locale: string;
  merchant: BalancePair | null;
  kiosk: BalancePair | null;
  kioskLink: string;
  onSettled(): void;
}) {
  if (!merchant && !kiosk) return null;
  return (
    <section className="wallet-others" aria-label={t('wallet.others')}>
      {merchant && <MerchantCard t={t} lang={lang} locale={locale} initial={merchant} onSettled={onSettled} />}
      {kiosk && (
        <article className="card wallet-other" aria-labelledby="wallet-kiosk-title" data-testid="wallet-kiosk">
          <h2 className="wallet-card-title" id="wallet-kiosk-title">
            {t('wallet.kiosk.title')}
          </h2>
          <Amounts pair={kiosk} lang={lang} />
          <p className="muted wallet-other-hint">{t('wallet.kiosk.hint')}</p>
          <a className="btn btn-secondary" href={kioskLink}>
            {t('wallet.kiosk.open')}
          </a>
        </article>
      )}
    </section>
  );
}

type Outcome = { kind: 'done'; text: string } | { kind: 'error'; text: string } | null;

function MerchantCard({
  t,
  lang,
  locale,
  initial,
  onSettled,
}: {
  t: T;
  lang: string;
  locale: string;
  initial: BalancePair;
  onSettled(): void;
}) {
  const [balance, setBalance] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const api = (path: string) => `${path}?locale=${encodeURIComponent(locale)}`;

  const settle = async () => {
    setBusy(true);
    setOutcome(null);
    const answer = await apiPost<MerchantSettlement>(api('/rest/v1/merchants/settle'), {
      idempotency_key: crypto.randomUUID().replaceAll('-', ''),
    });
    if (answer.ok && answer.data) {
      const moved = CODES.filter((code) => Number(answer.data?.moved[code]) > 0).map((code) =>
        formatCryptoAmount(answer.data?.moved[code] ?? '0', code, lang),
      );
      setOutcome({ kind: 'done', text: t('wallet.merchant.done', { amounts: moved.join(' + ') }) });
      onSettled();
    } else {
      setOutcome({ kind: 'error', text: answer.errors[0]?.message || t('wallet.merchant.failed') });
    }
    const read = await apiGet<MerchantView>(api('/rest/v1/merchants/balance'));
    if (read.ok && read.data) setBalance(read.data.balance);
    setBusy(false);
  };

  return (
    <article className="card wallet-other" aria-labelledby="wallet-merchant-title" data-testid="wallet-merchant">
      <h2 className="wallet-card-title" id="wallet-merchant-title">
        {t('wallet.merchant.title')}
      </h2>
      <Amounts pair={balance} lang={lang} />
      <p className="muted wallet-other-hint" id="wallet-merchant-hint">
        {t('wallet.merchant.hint')}
      </p>
      <button
        type="button"
        className="btn btn-primary"
        disabled={busy || isEmpty(balance)}
        aria-busy={busy || undefined}
        aria-describedby="wallet-merchant-hint"
        onClick={() => void settle()}
      >
        {t(busy ? 'wallet.merchant.busy' : 'wallet.merchant.settle')}
      </button>
      <div aria-live="polite">
        {outcome?.kind === 'done' && (
          <p className="alert alert-success" data-testid="merchant-settled">
            {outcome.text}
          </p>
        )}
        {outcome?.kind === 'error' && (
          <p className="alert alert-error" data-testid="merchant-settle-error">
            {outcome.text}
          </p>
        )}
      </div>
    </article>
  );
}
