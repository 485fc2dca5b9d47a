import type { BankAccountKind } from '../../lib/shared/views/bank-accounts.ts';

// What the bank accounts page hands its island: the countries an account can be held in, each with
// the kind of account it uses (docs/bank-accounts.md) and the currencies it may be kept in.

export interface CurrencyOption {
  id: number;
  code: string;
}

export interface CountryChoice {
  id: number;
  iso: string;
  /** In the reader's language (the countries API localizes it). */
  name: string;
  kind: BankAccountKind;
  /** The country's own currency first, then EUR in SEPA countries that keep their own. */
  currencies: CurrencyOption[];
  /** An IBAN's full length in this country (IBAN kind): when a typed one "looks complete". */
  ibanLength: number | null;
}

export type T = (key: string, params?: Record<string, string | number>) => string;
