// The API's shapes of the bank directory and of saved bank accounts (spec sections 3 "Bank
// account" and 7 "Bank accounts"; docs/bank-accounts.md), built by server/services/banks/ and
// server/services/bank-accounts/, read by the settings screen and the trade page.

export type BankAccountKind = 'iban' | 'aba' | 'swift';

export interface BankView {
  /** `DE-<Bankleitzahl>` or `<ISO>-<BIC8>`: what `bank_id` takes. */
  id: string;
  name: string;
  bic: string | null;
  countryIso: string;
}

/** GET /rest/v1/banks/by-iban: a valid IBAN, its country and what is known of its bank. */
export interface IbanLookupView {
  iban: string;
  /** In groups of four. */
  ibanFormatted: string;
  country: { id: number | null; iso: string; name: string | null };
  bankCode: string | null;
  bic: string | null;
  bank: BankView | null;
}

/** GET /rest/v1/banks/by-routing-number: a valid ABA routing number and its bank when known. */
export interface RoutingLookupView {
  routingNumber: string;
  bank: BankView | null;
}

export interface SwiftAddressView {
  residency: string | null;
  state: string | null;
  city: string | null;
  zip: string | null;
  address: string | null;
}

/** A saved account as its owner reads it: in full (it is theirs) and masked, for lists. */
export interface BankAccountView {
  id: string;
  kind: BankAccountKind;
  holderName: string;
  isPersonal: boolean;
  country: { id: number; iso: string; name: string };
  fiatCurrency: { id: number; code: string };
  iban: string | null;
  ibanMasked: string | null;
  accountNumber: string | null;
  accountNumberMasked: string | null;
  routingNumber: string | null;
  bank: BankView | null;
  swiftCode: string | null;
  swift: SwiftAddressView | null;
  createdAt: number;
  updatedAt: number;
}

/** The account a seller shared into a trade (its copy), as both parties and moderators read it. */
export interface TradeBankAccountView {
  kind: BankAccountKind;
  holderName: string;
  isPersonal: boolean;
  bankName: string | null;
  iban: string | null;
  accountNumber: string | null;
  routingNumber: string | null;
  swiftCode: string | null;
  swift: SwiftAddressView | null;
  country: { iso: string; name: string };
  currency: string;
  sharedAt: number;
}
