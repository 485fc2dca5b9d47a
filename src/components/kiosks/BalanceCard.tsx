import { type SubmitEvent, useState } from 'react';
import { formatCryptoAmount } from '../../lib/shared/format-crypto.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import type { BalancePair, KioskCurrency } from '../../lib/shared/views/kiosks.ts';
import { Field, fieldAria } from '../form-field.tsx';
import { formErrors, kioskApi } from './api.ts';
import type { Announce, T } from './types.ts';
import { type Outcome, OutcomeLine } from './ui.tsx';

// The kiosk balance, the float its sales are paid from, in both currencies, and the form that
// moves crypto into it from the wallet or back out (one fresh idempotency key per click).

const CURRENCIES: KioskCurrency[] = ['BTC', 'USDT'];

interface Props {
  t: T;
  locale: Locale;
  lang: string;
  balance: BalancePair;
  walletLink: string;
  onBalance(balance: BalancePair): void;
  announce: Announce;
}

export function BalanceCard({ t, locale, lang, balance, walletLink, onBalance, announce }: Props) {
  const form = useTransferForm({ t, locale, lang, onBalance, announce });
  return (
    <section
      className="card kiosk-card kiosk-balance"
      aria-labelledby="kiosk-balance-title"
      data-testid="kiosk-balance"
    >
      <h2 className="h3" id="kiosk-balance-title">
        {t('kiosk.balance.title')}
      </h2>
      <div className="kiosk-amounts">
        {CURRENCIES.map((code) => (
          <p className="kiosk-amount" key={code} data-currency={code}>
            {formatCryptoAmount(balance[code], code, lang)}
          </p>
        ))}
      </div>
      <p className="muted kiosk-hint">
        {t('kiosk.balance.lead')}{' '}
        <a className="text-link" href={walletLink}>
          {t('kiosk.balance.wallet')}
        </a>
      </p>
      <form className="kiosk-form" noValidate onSubmit={form.submit} data-testid="kiosk-transfer">
        <fieldset className="kiosk-direction">
          <legend className="field-label">{t('kiosk.transfer.direction')}</legend>
          {(['in', 'out'] as const).map((direction) => (
            <label className="checkbox" key={direction}>
              <input
                type="radio"
                name="kiosk-direction"
                value={direction}
                checked={form.direction === direction}
                onChange={() => form.setDirection(direction)}
              />
              {t(`kiosk.transfer.${direction}`)}
            </label>
          ))}
        </fieldset>
        <div className="kiosk-row">
          <Field id="kiosk-transfer-currency" label={t('kiosk.transfer.currency')} error={undefined}>
            <select
              className="input"
              {...fieldAria('kiosk-transfer-currency', undefined)}
              value={form.currency}
              onChange={(event) => form.setCurrency(event.target.value as KioskCurrency)}
            >
              {CURRENCIES.map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </select>
          </Field>
          <Field id="kiosk-transfer-amount" label={t('kiosk.transfer.amount')} error={form.errors.amount}>
            <input
              className="input"
              {...fieldAria('kiosk-transfer-amount', form.errors.amount)}
              inputMode="decimal"
              autoComplete="off"
              value={form.amount}
              onChange={(event) => form.setAmount(event.target.value)}
            />
          </Field>
        </div>
        <button type="submit" className="btn btn-primary" disabled={form.busy} aria-busy={form.busy || undefined}>
          {t(form.busy ? 'kiosk.transfer.busy' : `kiosk.transfer.action.${form.direction}`)}
        </button>
        <OutcomeLine outcome={form.outcome} testId="kiosk-transfer" />
      </form>
    </section>
  );
}

function useTransferForm({ t, locale, lang, onBalance, announce }: Omit<Props, 'balance' | 'walletLink'>) {
  const [direction, setDirection] = useState<'in' | 'out'>('in');
  const [currency, setCurrency] = useState<KioskCurrency>('BTC');
  const [amount, setAmount] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<Outcome>(null);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    setOutcome(null);
    const typed = amount.trim().replace(',', '.');
    if (!/^\d+(\.\d+)?$/.test(typed) || Number(typed) <= 0) {
      setErrors({ amount: t('kiosk.transfer.amountInvalid') });
      return;
    }
    setErrors({});
    setBusy(true);
    const answer = await kioskApi.transfer(locale, { direction, currency, amount: typed });
    setBusy(false);
    if (answer.ok && answer.data) {
      onBalance(answer.data.balance);
      const text = t(`kiosk.transfer.done.${direction}`, { amount: formatCryptoAmount(typed, currency, lang) });
      setOutcome({ kind: 'done', text });
      announce(text);
      setAmount('');
      return;
    }
    if (answer.errors[0]?.code === 'INSUFFICIENT_FUNDS') {
      setErrors({ amount: t(`kiosk.transfer.insufficient.${direction}`) });
      return;
    }
    const found = formErrors(answer, ['amount'], t('kiosk.transfer.failed'));
    setErrors(found.fields);
    if (found.summary) setOutcome({ kind: 'error', text: found.summary });
  };

  return { direction, setDirection, currency, setCurrency, amount, setAmount, busy, errors, outcome, submit };
}
