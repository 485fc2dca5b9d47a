import type { Locale } from '../../lib/shared/i18n/locales.ts';
import type { BalancePair, KioskCurrency, KioskSaleView } from '../../lib/shared/views/kiosks.ts';
import { Field, fieldAria } from '../form-field.tsx';
import { QuoteCard, ReceiptCard } from './SaleParts.tsx';
import type { Announce, FiatChoice, T } from './types.ts';
import { CRYPTO_CHOICES, type SaleState, useSale } from './use-sale.ts';

// The sale at the counter, one step at a time: the form, the quote to read to the customer, the
// receipt. The steps replace each other in one card, so the operator's eyes stay in one place.

interface Props {
  t: T;
  locale: Locale;
  lang: string;
  currencies: FiatChoice[];
  defaultFiat: string;
  onSold(sale: KioskSaleView, balance: BalancePair): void;
  announce: Announce;
}

export function SaleCard({ t, locale, lang, currencies, defaultFiat, onSold, announce }: Props) {
  const sale = useSale({ t, locale, lang, defaultFiat, onSold, announce });
  const { stage } = sale;
  return (
    <section className="card kiosk-card kiosk-sale" aria-labelledby="kiosk-sale-title" data-testid="kiosk-sale">
      <h2 className="h3" id="kiosk-sale-title">
        {t('kiosk.sale.title')}
      </h2>
      {stage.step === 'form' && <SaleForm t={t} sale={sale} currencies={currencies} />}
      {stage.step === 'quote' && (
        <QuoteCard
          t={t}
          lang={lang}
          quote={stage.quote}
          moved={stage.moved}
          busy={sale.busy}
          summary={sale.summary}
          onConfirm={() => void sale.confirm()}
          onEdit={sale.edit}
        />
      )}
      {stage.step === 'receipt' && (
        <ReceiptCard t={t} lang={lang} sale={stage.sale} quote={stage.quote} onNext={sale.next} />
      )}
    </section>
  );
}

function SaleForm({ t, sale, currencies }: { t: T; sale: SaleState; currencies: FiatChoice[] }) {
  const { fields, errors, busy } = sale;
  return (
    <form className="kiosk-form" noValidate onSubmit={(event) => void sale.quote(event)} data-testid="kiosk-sale-form">
      <p className="muted kiosk-hint">{t('kiosk.sale.lead')}</p>
      <Field
        id="kiosk-sale-customer"
        label={t('kiosk.sale.customer')}
        hint={t('kiosk.sale.customerHint')}
        error={errors.customer}
      >
        <input
          className="input"
          {...fieldAria('kiosk-sale-customer', errors.customer, true)}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={fields.customer}
          onChange={(event) => sale.set('customer', event.target.value)}
        />
      </Field>
      <div className="kiosk-row">
        <Field id="kiosk-sale-currency" label={t('kiosk.sale.currency')} error={errors.currency}>
          <select
            className="input"
            {...fieldAria('kiosk-sale-currency', errors.currency)}
            value={fields.currency}
            onChange={(event) => sale.set('currency', event.target.value as KioskCurrency)}
          >
            {CRYPTO_CHOICES.map((code) => (
              <option key={code} value={code}>
                {t(`kiosk.crypto.${code}`)}
              </option>
            ))}
          </select>
        </Field>
        <Field id="kiosk-sale-fiat" label={t('kiosk.sale.fiatCurrency')} error={errors.fiatCurrency}>
          <select
            className="input"
            {...fieldAria('kiosk-sale-fiat', errors.fiatCurrency)}
            value={fields.fiatCurrency}
            onChange={(event) => sale.set('fiatCurrency', event.target.value)}
          >
            {currencies.map((currency) => (
              <option key={currency.code} value={currency.code}>
                {currency.code} · {currency.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id="kiosk-sale-cash" label={t('kiosk.sale.fiatAmount')} error={errors.fiatAmount}>
          <input
            className="input"
            {...fieldAria('kiosk-sale-cash', errors.fiatAmount)}
            inputMode="decimal"
            autoComplete="off"
            value={fields.fiatAmount}
            onChange={(event) => sale.set('fiatAmount', event.target.value)}
          />
        </Field>
      </div>
      {sale.summary && (
        <p className="alert alert-error" role="alert" data-testid="kiosk-sale-error">
          {sale.summary}
        </p>
      )}
      <button type="submit" className="btn btn-primary kiosk-submit" disabled={busy} aria-busy={busy || undefined}>
        {t(busy ? 'kiosk.sale.quoting' : 'kiosk.sale.quote')}
      </button>
    </form>
  );
}
