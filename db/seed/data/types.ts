// Shapes of the reference data the seed writes into the database. Plain data, no logic:
// the files beside this one hold the records; db/seed/ turns them into rows.

export interface FiatCurrencySeed {
  /** ISO 4217 alphabetic code, upper case: `USD`. */
  code: string;
  /** English name: `US Dollar`. */
  name: string;
  /** ISO 4217 minor unit digits (0 for JPY, 2 for USD, 3 for KWD). */
  minorUnits: number;
  /** Units of this currency that buy 1 US dollar, a realistic late-2026 mid-market figure. */
  usdRate: number;
  /** Display order, 1 = most traded on a P2P bitcoin marketplace; ties broken by code. */
  order: number;
  /** A typical trade amount in this currency (round number, e.g. 100 USD, 10000 JPY, 5000 INR). */
  defaultAmount: number;
  /** Common symbol: `$`, `€`, `₦`; the code itself where none is in common use. */
  symbol: string;
}

export interface CountrySeed {
  /** ISO 3166-1 alpha-2, upper case. */
  iso: string;
  /** ISO 3166-1 alpha-3, upper case. */
  iso3: string;
  /** English short name. */
  name: string;
  /** ISO 4217 code of the currency in everyday use (must exist in fiat-currencies). */
  currencyCode: string;
  /** International dialling code without `+`: `1`, `44`, `234`. */
  phoneCode: string;
  /** Slugs of 3–6 payment methods popular there (must exist in payment-methods). */
  popularPaymentMethods: string[];
}

export interface CitySeed {
  countryIso: string;
  city: string;
  /** State, province or region as locally named in English. */
  subdivision: string;
  latitude: number;
  longitude: number;
}

export interface PaymentGroupSeed {
  /** Stable numeric id; the six selectable groups of spec section 9 come first (1–6). */
  id: number;
  slug: string;
  name: string;
  /** What buying with this group means, one sentence. */
  description: string;
  /** What selling for this group means, one sentence. */
  sellDescription: string;
}

export interface PaymentMethodSeed {
  /** URL slug, lower case with hyphens: `bank-transfer`, `amazon-gift-card`. */
  slug: string;
  name: string;
  /** Slug of its PaymentGroupSeed. */
  groupSlug: string;
  /** One-line description shown under the name. */
  descriptionShort: string;
  /** True for trademarked brands (gift cards, PayPal, …) shown with a trademark notice. */
  isCopyrighted: boolean;
  /** A risk warning shown before trading, or null: chargeback risk, stolen cards, … */
  warningText: string | null;
  /** ISO 4217 codes it is mostly used with; empty means any currency. */
  currencies: string[];
}
