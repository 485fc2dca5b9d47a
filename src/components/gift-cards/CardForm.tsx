import { useEffect, useId } from 'react';
import type { GiftCardView } from '../../lib/shared/views/gift-cards.ts';
import { Field, fieldAria } from '../form-field.tsx';
import { CardImages } from './CardImages.tsx';
import type { CardFormChoices } from './types.ts';
import { type CardFormState, useCardForm } from './use-card-form.ts';

// The "add a card" form of both gift-card pages (spec section 3, "Gift card"): code, value,
// currency, brand (sold in that currency; fixed on the gift-code trade page), kind, receipt and up
// to four pictures. Codes are typed without autocomplete or spellcheck and are never echoed back.

type T = (key: string, params?: Record<string, string | number>) => string;

export function CardForm({
  t,
  choices,
  onSaved,
  onBusy,
  submitLabel,
}: {
  t: T;
  choices: CardFormChoices;
  onSaved: (card: GiftCardView) => void;
  /** Told while a save or an upload runs (the gift-code trade page waits for it). */
  onBusy?: (busy: boolean) => void;
  submitLabel: string;
}) {
  const form = useCardForm(choices, t, onSaved);
  const id = useId();
  const busy = form.saving || form.images.uploading;
  useEffect(() => onBusy?.(busy), [busy, onBusy]);
  return (
    <form className="gc-form" onSubmit={form.save} noValidate data-testid="gift-card-form">
      <p className="alert alert-error" role="alert">
        {form.summary}
      </p>
      <p className="alert alert-success" role="status">
        {form.saved ? t('giftCards.form.saved') : ''}
      </p>
      <Field
        id={`${id}-code`}
        label={t('giftCards.field.code')}
        error={form.errors.code}
        hint={t('giftCards.field.codeHint')}
      >
        <input
          {...fieldAria(`${id}-code`, form.errors.code, true)}
          className="input gc-code"
          name="code"
          value={form.code}
          onChange={(e) => form.onCode(e.target.value)}
          autoComplete="off"
          autoCorrect="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={200}
          required
        />
      </Field>
      <div className="gc-form-row">
        <Field id={`${id}-value`} label={t('giftCards.field.value')} error={form.errors.value}>
          <input
            {...fieldAria(`${id}-value`, form.errors.value)}
            className="input"
            name="value"
            inputMode="decimal"
            value={form.value}
            onChange={(e) => form.onValue(e.target.value)}
            autoComplete="off"
            required
          />
        </Field>
        <CurrencyField t={t} id={`${id}-currency`} choices={choices} form={form} />
      </div>
      <BrandField t={t} id={`${id}-brand`} choices={choices} form={form} />
      <KindField t={t} id={`${id}-kind`} form={form} />
      <label className="checkbox">
        <input type="checkbox" checked={form.receipt} onChange={(e) => form.setReceipt(e.target.checked)} />
        {t('giftCards.field.receipt')}
      </label>
      <CardImages t={t} id={`${id}-images`} state={form.images} error={form.errors.images} />
      <div className="gc-form-actions">
        <button type="submit" className="btn btn-primary" aria-busy={busy || undefined} disabled={busy}>
          {form.saving ? t('giftCards.form.saving') : submitLabel}
        </button>
        {form.images.uploading && <span className="muted">{t('giftCards.images.wait')}</span>}
      </div>
    </form>
  );
}

type FieldProps = { t: T; id: string; choices: CardFormChoices; form: CardFormState };

function CurrencyField({ t, id, choices, form }: FieldProps) {
  const error = form.errors.fiat_currency_id;
  if (choices.kind === 'fixed') {
    return <FixedValue id={id} label={t('giftCards.field.currency')} value={choices.currency.code} error={error} />;
  }
  return (
    <Field id={id} label={t('giftCards.field.currency')} error={error}>
      <select
        {...fieldAria(id, error)}
        className="input"
        value={form.currency?.id ?? ''}
        onChange={(e) => form.setCurrency(Number(e.target.value))}
      >
        {choices.currencies.map((currency) => (
          <option key={currency.id} value={currency.id}>
            {currency.code} · {currency.name}
          </option>
        ))}
      </select>
    </Field>
  );
}

function BrandField({ t, id, choices, form }: FieldProps) {
  const error = form.errors.payment_method_id;
  if (choices.kind === 'fixed') {
    return <FixedValue id={id} label={t('giftCards.field.brand')} value={choices.brand.name} error={error} />;
  }
  return (
    <Field id={id} label={t('giftCards.field.brand')} error={error}>
      <select
        {...fieldAria(id, error)}
        className="input"
        value={form.brandId || ''}
        onChange={(e) => form.setBrand(Number(e.target.value))}
        required
      >
        <option value="">{t('giftCards.field.brandChoose')}</option>
        {form.brands.map((brand) => (
          <option key={brand.id} value={brand.id}>
            {brand.name}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** A value the page fixes (the offer's brand and currency): shown, not chosen. */
function FixedValue({ id, label, value, error }: { id: string; label: string; value: string; error?: string }) {
  return (
    <div className="field">
      <span className="field-label" id={`${id}-label`}>
        {label}
      </span>
      <output className="gc-fixed" aria-labelledby={`${id}-label`}>
        {value}
      </output>
      <p className="field-error">{error}</p>
    </div>
  );
}

function KindField({ t, id, form }: { t: T; id: string; form: CardFormState }) {
  return (
    <fieldset className="gc-kind" aria-describedby={`${id}-error`}>
      <legend className="field-label">{t('giftCards.field.kind')}</legend>
      {(['ecard', 'physical'] as const).map((kind) => (
        <label key={kind} className="checkbox">
          <input type="radio" name={id} value={kind} checked={form.kind === kind} onChange={() => form.setKind(kind)} />
          {t(`giftCards.kind.${kind}`)}
        </label>
      ))}
      <p className="field-error" id={`${id}-error`}>
        {form.errors.type}
      </p>
    </fieldset>
  );
}
