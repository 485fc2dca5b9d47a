import { useState } from 'react';
import { type ApiError, apiRequest, splitErrors } from '../../lib/api-client.ts';
import type { BankAccountView } from '../../lib/shared/views/bank-accounts.ts';
import {
  ACCOUNT_FIELDS,
  type AccountField,
  type AccountValues,
  emptyValues,
  type FieldErrors,
  missingFields,
  payloadOf,
  type TextValue,
  valuesOf,
} from './account-values.ts';
import type { CountryChoice, T } from './types.ts';
import { useBankLookup } from './use-bank-lookup.ts';

// The add and edit form's state: values that follow the account's country, the bank lookups, and
// the save (POST, or PUT for an edit). Spec section 8: a refused save shows each field's message
// from `details` and one alert on top; the server checks the whole account before it writes, so a
// refused save changes nothing.

const FIELD_OF: Record<TextValue, AccountField> = {
  holderName: 'holder_name',
  iban: 'sepa.iban',
  accountNumber: 'account_number',
  routingNumber: 'routing_number',
  bankId: 'bank_id',
  swiftCode: 'swift_code',
  residency: 'swift.residency',
  state: 'swift.state',
  city: 'swift.city',
  zip: 'swift.zip',
  address: 'swift.address',
};

/** A new account is POSTed, an edited one PUT in its place. */
const send = (editing: BankAccountView | null, payload: unknown) =>
  editing
    ? apiRequest<BankAccountView>('PUT', `/rest/v1/bankaccounts/${encodeURIComponent(editing.id)}`, payload)
    : apiRequest<BankAccountView>('POST', '/rest/v1/bankaccounts', payload);

/** Each field's message where it has a field, one alert on top (the server's, or ours). */
function refusal(errors: readonly ApiError[], t: T): { fields: FieldErrors; summary: string } {
  const split = splitErrors(errors, ACCOUNT_FIELDS);
  const fieldCount = Object.keys(split.fields).length;
  return {
    fields: split.fields as FieldErrors,
    summary: split.summary || t(fieldCount > 0 ? 'bankAccounts.form.checkFields' : 'bankAccounts.form.failed'),
  };
}

export function useAccountForm(
  countries: CountryChoice[],
  defaultCountryId: number,
  t: T,
  onSaved: (account: BankAccountView) => void,
) {
  const start = () => emptyValues(countries.find((c) => c.id === defaultCountryId) ?? countries[0]);
  const [values, setValues] = useState<AccountValues>(start);
  const [editing, setEditing] = useState<BankAccountView | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [summary, setSummary] = useState<string | undefined>();
  const [saved, setSaved] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const country = countries.find((c) => c.id === values.countryId);
  const lookup = useBankLookup(country, values.iban, values.routingNumber);

  const clearMessages = (next: FieldErrors = {}) => {
    setErrors(next);
    setSummary(undefined);
    setSaved(undefined);
  };

  const setText = (name: TextValue, text: string) => {
    setValues((current) => ({ ...current, [name]: text }));
    setErrors((all) => ({ ...all, [FIELD_OF[name]]: undefined }));
  };

  const setCountry = (countryId: number) => {
    const next = countries.find((c) => c.id === countryId);
    // Another country is another kind of account: what was typed for the old one is let go.
    setValues((current) => ({ ...emptyValues(next), holderName: current.holderName, isPersonal: current.isPersonal }));
    clearMessages();
  };

  const edit = (account: BankAccountView | null) => {
    setEditing(account);
    setValues(account ? valuesOf(account) : start());
    clearMessages();
  };

  const setCurrency = (currencyId: number) => setValues((current) => ({ ...current, currencyId }));
  const setPersonal = (isPersonal: boolean) => setValues((current) => ({ ...current, isPersonal }));

  const save = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    if (saving || !country) return;
    const missing = missingFields(country.kind, values, lookup.bankRequired, t);
    if (Object.keys(missing).length > 0) {
      clearMessages(missing);
      setSummary(t('bankAccounts.form.checkFields'));
      return;
    }
    setSaving(true);
    clearMessages();
    const payload = payloadOf(country.kind, values, lookup.bankChoices.length > 0);
    const result = await send(editing, payload);
    setSaving(false);
    if (result.ok && result.data) {
      onSaved(result.data);
      setSaved(t(editing ? 'bankAccounts.form.updated' : 'bankAccounts.form.saved'));
      setEditing(null);
      setValues(start());
      return;
    }
    const refused = refusal(result.errors, t);
    setErrors(refused.fields);
    setSummary(refused.summary);
  };

  const state = { values, country, lookup, editing, errors, summary, saved, saving };
  return { ...state, setText, setCountry, setCurrency, setPersonal, edit, save };
}

export type AccountFormState = ReturnType<typeof useAccountForm>;
