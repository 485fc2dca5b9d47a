import { useId } from 'react';
import { Field, fieldAria } from '../form-field.tsx';
import { BankLine, IbanFields, RoutingFields, SwiftFields } from './KindFields.tsx';
import { type FormProps, TextField } from './TextField.tsx';
import type { CountryChoice, T } from './types.ts';
import type { AccountFormState } from './use-account-form.ts';

// Add and edit in one form (spec section 3 "Bank account"): the country first, since it decides
// the currency and which numbers name the account; then holder, personal or business, and the
// numbers of the country's kind, the bank filling in from them where the directory knows it.

export function AccountForm({ t, form, countries }: { t: T; form: AccountFormState; countries: CountryChoice[] }) {
  const id = useId();
  const kind = form.country?.kind;
  return (
    <form className="ba-form" onSubmit={form.save} noValidate data-testid="bank-account-form">
      <p className="alert alert-error" role="alert">
        {form.summary}
      </p>
      <p className="alert alert-success" role="status">
        {form.saved}
      </p>
      <Field id={`${id}-country`} label={t('bankAccounts.field.country')} error={form.errors.country_id}>
        <select
          {...fieldAria(`${id}-country`, form.errors.country_id)}
          className="input"
          value={form.values.countryId || ''}
          onChange={(e) => form.setCountry(Number(e.target.value))}
        >
          {countries.map((country) => (
            <option key={country.id} value={country.id}>
              {country.name}
            </option>
          ))}
        </select>
      </Field>
      <div className="ba-form-row">
        <CurrencyField t={t} id={`${id}-currency`} form={form} />
        <PersonalField t={t} id={`${id}-personal`} form={form} />
      </div>
      <TextField
        id={id}
        form={form}
        name="holderName"
        field="holder_name"
        label={t('bankAccounts.field.holder')}
        autoComplete="name"
        maxLength={200}
        required
      />
      {kind === 'iban' && <IbanFields t={t} id={id} form={form} />}
      {kind === 'aba' && <RoutingFields t={t} id={id} form={form} />}
      {kind === 'swift' && <SwiftFields t={t} id={id} form={form} />}
      {kind !== 'swift' && <BankLine t={t} id={`${id}-bank`} form={form} />}
      <div className="ba-form-actions">
        <button type="submit" className="btn btn-primary" aria-busy={form.saving || undefined} disabled={form.saving}>
          {form.saving
            ? t('bankAccounts.form.saving')
            : t(form.editing ? 'bankAccounts.form.update' : 'bankAccounts.form.add')}
        </button>
        {form.editing && (
          <button type="button" className="btn btn-ghost" onClick={() => form.edit(null)}>
            {t('bankAccounts.form.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

function CurrencyField({ t, id, form }: FormProps) {
  const error = form.errors.fiat_currency_id;
  return (
    <Field id={id} label={t('bankAccounts.field.currency')} error={error}>
      <select
        {...fieldAria(id, error)}
        className="input"
        value={form.values.currencyId || ''}
        onChange={(e) => form.setCurrency(Number(e.target.value))}
      >
        {(form.country?.currencies ?? []).map((currency) => (
          <option key={currency.id} value={currency.id}>
            {currency.code}
          </option>
        ))}
      </select>
    </Field>
  );
}

function PersonalField({ t, id, form }: FormProps) {
  return (
    <fieldset className="ba-choice" aria-describedby={`${id}-error`}>
      <legend className="field-label">{t('bankAccounts.field.holderType')}</legend>
      {([true, false] as const).map((personal) => (
        <label key={String(personal)} className="checkbox">
          <input
            type="radio"
            name={id}
            checked={form.values.isPersonal === personal}
            onChange={() => form.setPersonal(personal)}
          />
          {t(personal ? 'bankAccounts.personal' : 'bankAccounts.business')}
        </label>
      ))}
      <p className="field-error" id={`${id}-error`}>
        {form.errors.is_personal}
      </p>
    </fieldset>
  );
}
