import type { BankAccountKind, BankAccountView } from '../../lib/shared/views/bank-accounts.ts';
import type { CountryChoice, T } from './types.ts';
import { compact } from './use-bank-lookup.ts';

// The form's values, how an account fills them for an edit, the browser's own check of empty
// required fields (with the server's messages: errors.* keys) and the API payload for the kind.

/** The API's field names: `details[].field` lands next to its input. */
export const ACCOUNT_FIELDS = [
  'country_id',
  'fiat_currency_id',
  'holder_name',
  'is_personal',
  'sepa.iban',
  'account_number',
  'routing_number',
  'bank_id',
  'swift_code',
  'swift.residency',
  'swift.state',
  'swift.city',
  'swift.zip',
  'swift.address',
] as const;
export type AccountField = (typeof ACCOUNT_FIELDS)[number];
export type FieldErrors = Partial<Record<AccountField, string>>;

export interface AccountValues {
  countryId: number;
  currencyId: number;
  holderName: string;
  isPersonal: boolean;
  iban: string;
  accountNumber: string;
  routingNumber: string;
  bankId: string;
  swiftCode: string;
  residency: string;
  state: string;
  city: string;
  zip: string;
  address: string;
}

export type TextValue = Exclude<keyof AccountValues, 'countryId' | 'currencyId' | 'isPersonal'>;

export function emptyValues(country: CountryChoice | undefined): AccountValues {
  return {
    countryId: country?.id ?? 0,
    currencyId: country?.currencies[0]?.id ?? 0,
    holderName: '',
    isPersonal: true,
    iban: '',
    accountNumber: '',
    routingNumber: '',
    bankId: '',
    swiftCode: '',
    residency: '',
    state: '',
    city: '',
    zip: '',
    address: '',
  };
}

export function valuesOf(account: BankAccountView): AccountValues {
  return {
    countryId: account.country.id,
    currencyId: account.fiatCurrency.id,
    holderName: account.holderName,
    isPersonal: account.isPersonal,
    iban: account.iban ?? '',
    accountNumber: account.accountNumber ?? '',
    routingNumber: account.routingNumber ?? '',
    bankId: account.bank?.id ?? '',
    swiftCode: account.swiftCode ?? '',
    residency: account.swift?.residency ?? '',
    state: account.swift?.state ?? '',
    city: account.swift?.city ?? '',
    zip: account.swift?.zip ?? '',
    address: account.swift?.address ?? '',
  };
}

/** Empty required fields, named before anything is sent (the same messages the server gives). */
export function missingFields(kind: BankAccountKind, values: AccountValues, bankRequired: boolean, t: T): FieldErrors {
  const errors: FieldErrors = {};
  const blank = (text: string) => text.trim() === '';
  const required = t('errors.required');
  if (blank(values.holderName)) errors.holder_name = t('errors.js.bank_transfers.error_empty_holder');
  if (kind === 'iban' && blank(values.iban)) errors['sepa.iban'] = required;
  if (kind !== 'iban' && blank(values.accountNumber)) {
    errors.account_number = t('errors.js.bank_transfers.error_empty_account_number');
  }
  if (kind === 'aba' && blank(values.routingNumber)) {
    errors.routing_number = t('errors.js.bank_transfers.error_empty_routing_number');
  }
  if (bankRequired && blank(values.bankId)) errors.bank_id = t('errors.js.bank_transfers.bank_is_required');
  if (kind === 'swift') {
    if (blank(values.swiftCode)) errors.swift_code = required;
    if (blank(values.city)) errors['swift.city'] = required;
    if (blank(values.address)) errors['swift.address'] = required;
  }
  return errors;
}

/** The spec's payload with only the fields the country's kind reads. */
export function payloadOf(kind: BankAccountKind, values: AccountValues, chosenBank: boolean) {
  const common = {
    country_id: values.countryId,
    fiat_currency_id: values.currencyId,
    holder_name: values.holderName.trim(),
    is_personal: values.isPersonal,
    ...(chosenBank && values.bankId ? { bank_id: values.bankId } : {}),
  };
  if (kind === 'iban') return { ...common, sepa: { iban: compact(values.iban) } };
  if (kind === 'aba') {
    return { ...common, account_number: values.accountNumber.trim(), routing_number: compact(values.routingNumber) };
  }
  return {
    ...common,
    account_number: values.accountNumber.trim(),
    swift_code: values.swiftCode.trim(),
    swift: {
      residency: values.residency.trim(),
      state: values.state.trim(),
      city: values.city.trim(),
      zip: values.zip.trim(),
      address: values.address.trim(),
    },
  };
}
