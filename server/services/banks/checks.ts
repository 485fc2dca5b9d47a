import { electronicFormatIBAN, extractIBAN, getCountrySpecifications, validateIBAN } from 'ibantools';

// The pure checks of bank details (docs/bank-accounts.md): IBAN structure, country and checksum
// (ibantools), SWIFT/BIC format and country, ABA routing numbers (the 3-7-1 checksum), which kind
// of account a country uses, and who may save accounts at all. No data, no database.

/** How an account is named: by IBAN; by account and ABA routing number (US); by account and SWIFT/BIC. */
export const BANK_ACCOUNT_KINDS = ['iban', 'aba', 'swift'] as const;
export type BankAccountKind = (typeof BANK_ACCOUNT_KINDS)[number];

const IBAN_COUNTRIES = new Set(
  Object.entries(getCountrySpecifications())
    .filter(([, spec]) => spec.chars !== null && spec.chars !== undefined)
    .map(([iso]) => iso),
);

/** Countries whose accounts are named by IBAN (ibantools' registry), the US by routing number, the rest by SWIFT. */
export function accountKindOf(countryIso: string): BankAccountKind {
  if (countryIso === 'US') return 'aba';
  return IBAN_COUNTRIES.has(countryIso) ? 'iban' : 'swift';
}

/** An IBAN check's failure, named with the spec's detail codes where they apply (section 5). */
export type IbanProblem = 'not_correct_length' | 'invalid_format' | 'invalid_checksum';

export type IbanCheck =
  | { ok: true; iban: string; countryIso: string; bankCode: string | null; branchCode: string | null }
  | { ok: false; problem: IbanProblem };

/** Spaces, dashes and case as people type them, then ibantools' structure and checksum. */
export function checkIban(input: string): IbanCheck {
  const iban = electronicFormatIBAN(input.replace(/-/g, '')) ?? '';
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$/.test(iban) || !IBAN_COUNTRIES.has(iban.slice(0, 2))) {
    return { ok: false, problem: 'invalid_format' };
  }
  const { errorCodes } = validateIBAN(iban);
  // ibantools: 2 wrong BBAN length, 3 wrong BBAN format, 4 and 5 the IBAN checksum, 6 a national checksum.
  if (errorCodes.includes(2)) return { ok: false, problem: 'not_correct_length' };
  if (errorCodes.includes(3)) return { ok: false, problem: 'invalid_format' };
  if (errorCodes.length > 0) return { ok: false, problem: 'invalid_checksum' };
  const parts = extractIBAN(iban);
  return {
    ok: true,
    iban,
    countryIso: iban.slice(0, 2),
    bankCode: parts.bankIdentifier ?? null,
    branchCode: parts.branchIdentifier ?? null,
  };
}

/** `DE89 3704 …` in groups of four, as printed on cards and statements. */
export function friendlyIban(iban: string): string {
  return iban.replace(/(.{4})(?=.)/g, '$1 ');
}

/** A SWIFT/BIC code: 4 letters of bank, 2 of country, 2 of location, optionally 3 of branch. */
export function normalizeBic(input: string): string | null {
  const bic = input.replace(/\s+/g, '').toUpperCase();
  return /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.test(bic) ? bic : null;
}

export const bicCountry = (bic: string) => bic.slice(4, 6);

/** The same institution: bank and country letters (the first six); location and branch may differ. */
export const sameInstitution = (a: string, b: string) => a.slice(0, 6) === b.slice(0, 6);

/** ABA routing number: nine digits whose 3-7-1 weighted sum is a multiple of 10. */
export function isValidRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const d = [...value].map(Number) as number[];
  const at = (i: number) => d[i] as number;
  const sum = 3 * (at(0) + at(3) + at(6)) + 7 * (at(1) + at(4) + at(7)) + (at(2) + at(5) + at(8));
  return sum % 10 === 0;
}

/** What is left of an account number once people's spaces and dashes are gone. */
export const compactAccountNumber = (value: string) => value.replace(/[\s-]+/g, '').toUpperCase();

/** The last four characters shown, the rest as bullets: enough to recognise one's own account. */
export function masked(value: string): string {
  const tail = value.slice(-4);
  return `${'•'.repeat(Math.max(0, Math.min(value.length - 4, 8)))}${tail}`;
}
