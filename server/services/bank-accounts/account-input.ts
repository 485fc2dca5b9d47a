import { isSEPACountry } from 'ibantools';
import type { BankAccountKind } from '../../../src/lib/shared/views/bank-accounts.ts';
import {
  accountKindOf,
  bicCountry,
  checkIban,
  compactAccountNumber,
  isValidRoutingNumber,
  normalizeBic,
  sameInstitution,
} from '../banks/checks.ts';
import { type Bank, bankById, bankOfIban, bankOfRoutingNumber } from '../banks/directory.ts';
import { type Issue, issue } from '../banks/issues.ts';
import type { BankReferenceRepository, CountryRow, CurrencyRow } from '../banks/repository.ts';
import { type FieldIssue, invalidInput } from '../errors.ts';

// A bank account's payload (spec section 3 "Bank account") read field by field into what is
// stored, every problem at once with the spec's detail codes (section 5; docs/bank-accounts.md):
// which fields a kind requires, the IBAN's, routing number's and BIC's checks, and that the
// country, currency and bank agree.

export interface SwiftGroupInput {
  residency?: string | undefined;
  state?: string | undefined;
  city?: string | undefined;
  zip?: string | undefined;
  address?: string | undefined;
}

export interface BankAccountInput {
  fiat_currency_id?: number | undefined;
  holder_name?: string | undefined;
  is_personal?: boolean | undefined;
  account_number?: string | undefined;
  country_id?: number | undefined;
  sepa?: { iban?: string | undefined } | undefined;
  routing_number?: string | undefined;
  bank_id?: string | undefined;
  swift_code?: string | undefined;
  swift?: SwiftGroupInput | undefined;
}

export interface CheckedAccount {
  kind: BankAccountKind;
  countryId: number;
  fiatCurrencyId: number;
  holderName: string;
  isPersonal: boolean;
  iban: string | null;
  accountNumber: string | null;
  routingNumber: string | null;
  bankId: string | null;
  swiftCode: string | null;
  swiftResidency: string | null;
  swiftState: string | null;
  swiftCity: string | null;
  swiftZip: string | null;
  swiftAddress: string | null;
  /** Two accounts of one person with the same identity are the same account (`non_unique`). */
  identity: string;
}

const HOLDER_MAX = 100;
/** Records a problem of the payload; answers null, the value a field with a problem reads as. */
type Add = (found: Issue | null) => null;
const trimmed = (value: string | undefined) => (value ?? '').trim();
const orNull = (value: string) => (value === '' ? null : value);

/** Kind-specific fields, read after the country is known. */
interface KindFields {
  iban: string | null;
  accountNumber: string | null;
  routingNumber: string | null;
  bank: Bank | null;
  swiftCode: string | null;
  identity: string;
}

export async function checkAccount(
  reference: BankReferenceRepository,
  input: BankAccountInput,
): Promise<CheckedAccount> {
  const issues: FieldIssue[] = [];
  const add = (found: Issue | null): null => {
    if (found) issues.push(found);
    return null;
  };
  const country = await readCountry(reference, input.country_id, add);
  const currency = await readCurrency(reference, input.fiat_currency_id, add);
  const holderName = trimmed(input.holder_name);
  if (holderName === '') add(issue('holder_name', 'js.bank_transfers.error_empty_holder'));
  else if (holderName.length > HOLDER_MAX) add(issue('holder_name', 'not_correct_length'));
  const kind = country ? accountKindOf(country.iso) : null;
  if (country && currency && !currencyFits(country, currency, kind as BankAccountKind)) {
    add(issue('fiat_currency_id', 'country_doesnt_match'));
  }
  const fields = country ? readKindFields(kind as BankAccountKind, country, input, add) : null;
  const swift = kind === 'swift' ? readSwiftGroup(input.swift, add) : null;
  if (issues.length > 0 || !country || !currency || !fields) throw invalidInput(issues);
  return {
    kind: kind as BankAccountKind,
    countryId: country.id,
    fiatCurrencyId: currency.id,
    holderName,
    isPersonal: input.is_personal ?? true,
    iban: fields.iban,
    accountNumber: fields.accountNumber,
    routingNumber: fields.routingNumber,
    bankId: fields.bank?.id ?? null,
    swiftCode: fields.swiftCode,
    swiftResidency: swift?.residency ?? null,
    swiftState: swift?.state ?? null,
    swiftCity: swift?.city ?? null,
    swiftZip: swift?.zip ?? null,
    swiftAddress: swift?.address ?? null,
    identity: fields.identity,
  };
}

async function readCountry(reference: BankReferenceRepository, id: number | undefined, add: Add) {
  if (id === undefined) return add(issue('country_id', 'required'));
  const country = await reference.countryById(id);
  if (!country) add(issue('country_id', 'not_exist'));
  return country;
}

async function readCurrency(reference: BankReferenceRepository, id: number | undefined, add: Add) {
  if (id === undefined) return add(issue('fiat_currency_id', 'required'));
  const currency = await reference.currencyById(id);
  if (!currency) add(issue('fiat_currency_id', 'not_exist'));
  return currency;
}

/** The country's everyday currency; euro accounts too in SEPA countries that keep their own. */
function currencyFits(country: CountryRow, currency: CurrencyRow, kind: BankAccountKind): boolean {
  if (currency.id === country.currencyId) return true;
  return kind === 'iban' && currency.code === 'EUR' && isSEPACountry(country.iso);
}

function readKindFields(
  kind: BankAccountKind,
  country: CountryRow,
  input: BankAccountInput,
  add: Add,
): KindFields | null {
  if (kind === 'iban') return readIbanFields(country, input, add);
  if (kind === 'aba') return readAbaFields(country, input, add);
  return readSwiftFields(country, input, add);
}

function readIbanFields(country: CountryRow, input: BankAccountInput, add: Add) {
  const typed = trimmed(input.sepa?.iban);
  if (typed === '') return add(issue('sepa.iban', 'required'));
  const checked = checkIban(typed);
  if (!checked.ok) return add(issue('sepa.iban', checked.problem));
  if (checked.countryIso !== country.iso) return add(issue('sepa.iban', 'iban_dont_math_country'));
  const derived = bankOfIban(checked.iban);
  let swiftCode = derived?.bic ?? null;
  const typedBic = trimmed(input.swift_code);
  if (typedBic !== '') {
    const bic = normalizeBic(typedBic);
    if (!bic) add(issue('swift_code', 'invalid_format'));
    else if (bicCountry(bic) !== checked.countryIso || (swiftCode && !sameInstitution(bic, swiftCode))) {
      add(issue('swift_code', 'swift_dont_match_iban'));
    } else swiftCode = bic;
  }
  // The IBAN names the bank where the data knows it; otherwise the person's choice, if any.
  const bank = derived?.bank ?? optionalBank(country, input.bank_id, add);
  return { iban: checked.iban, accountNumber: null, routingNumber: null, bank, swiftCode, identity: checked.iban };
}

function readAbaFields(country: CountryRow, input: BankAccountInput, add: Add) {
  const accountNumber = readAccountNumber(input.account_number, /^\d+$/, 4, 17, add);
  const routing = compactAccountNumber(trimmed(input.routing_number));
  let routingNumber: string | null = null;
  if (routing === '') add(issue('routing_number', 'js.bank_transfers.error_empty_routing_number'));
  else if (!/^\d+$/.test(routing)) add(issue('routing_number', 'invalid_format'));
  else if (routing.length !== 9) add(issue('routing_number', 'not_correct_length'));
  else if (!isValidRoutingNumber(routing)) add(issue('routing_number', 'invalid_checksum'));
  else routingNumber = routing;
  const bank = (routingNumber && bankOfRoutingNumber(routingNumber).bank) || requiredBank(country, input.bank_id, add);
  const swiftCode = readOptionalBic(country, input.swift_code, add) ?? bank?.bic ?? null;
  if (!accountNumber || !routingNumber) return null;
  return {
    iban: null,
    accountNumber,
    routingNumber,
    bank,
    swiftCode,
    identity: `aba:${routingNumber}:${accountNumber}`,
  };
}

function readSwiftFields(country: CountryRow, input: BankAccountInput, add: Add) {
  const accountNumber = readAccountNumber(input.account_number, /^[0-9A-Z]+$/, 1, 34, add);
  const typedBic = trimmed(input.swift_code);
  let swiftCode: string | null = null;
  if (typedBic === '') add(issue('swift_code', 'required'));
  else swiftCode = readOptionalBic(country, typedBic, add);
  const bank = optionalBank(country, input.bank_id, add);
  if (!accountNumber || !swiftCode) return null;
  return {
    iban: null,
    accountNumber,
    routingNumber: null,
    bank,
    swiftCode,
    identity: `swift:${swiftCode.slice(0, 8)}:${accountNumber}`,
  };
}

function readAccountNumber(
  value: string | undefined,
  characters: RegExp,
  min: number,
  max: number,
  add: Add,
): string | null {
  const number = compactAccountNumber(trimmed(value));
  if (number === '') return add(issue('account_number', 'js.bank_transfers.error_empty_account_number'));
  if (!characters.test(number)) return add(issue('account_number', 'invalid_format'));
  if (number.length < min || number.length > max) return add(issue('account_number', 'not_correct_length'));
  return number;
}

/** A BIC the person typed, of a bank in the account's country. */
function readOptionalBic(country: CountryRow, value: string | undefined, add: Add) {
  const typed = trimmed(value);
  if (typed === '') return null;
  const bic = normalizeBic(typed);
  if (!bic) return add(issue('swift_code', 'invalid_format'));
  if (bicCountry(bic) !== country.iso) return add(issue('swift_code', 'country_doesnt_match'));
  return bic;
}

/** A chosen bank must be one of the directory's, of the account's country. */
function optionalBank(country: CountryRow, id: string | undefined, add: Add): Bank | null {
  const typed = trimmed(id);
  if (typed === '') return null;
  const bank = bankById(typed);
  if (!bank || bank.countryIso !== country.iso) return add(issue('bank_id', 'not_exist'));
  return bank;
}

/** US accounts whose routing number the directory does not know name their bank. */
function requiredBank(country: CountryRow, id: string | undefined, add: Add): Bank | null {
  if (trimmed(id) === '') return add(issue('bank_id', 'js.bank_transfers.bank_is_required'));
  return optionalBank(country, id, add);
}

function readSwiftGroup(group: SwiftGroupInput | undefined, add: Add) {
  const read = (name: keyof SwiftGroupInput, max: number, required: boolean) => {
    const value = trimmed(group?.[name]);
    if (value === '' && required) add(issue(`swift.${name}`, 'required'));
    else if (value.length > max) add(issue(`swift.${name}`, 'not_correct_length'));
    return orNull(value);
  };
  return {
    residency: read('residency', 100, false),
    state: read('state', 100, false),
    city: read('city', 100, true),
    zip: read('zip', 20, false),
    address: read('address', 200, true),
  };
}
