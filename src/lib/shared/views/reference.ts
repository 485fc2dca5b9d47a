// The reference API's answer shapes (currencies, countries, locations, time zones, payment groups
// and methods; spec section 3): the contract between server/services/reference, which builds them,
// and the pages and islands that read them.

export interface FiatRate {
  /** Units of this currency per 1 US dollar. */
  usd: number;
  /** Price of 1 BTC in this currency. */
  btc: number;
  /** Price of 1 USDT in this currency. */
  usdt: number;
}

export interface CurrencyView {
  id: number;
  code: string;
  name: string;
  originalName: string;
  symbol: string;
  minorUnits: number;
  rate: FiatRate;
  order: number;
  defaultAmount: number;
}

export interface CountryView {
  id: number;
  iso: string;
  iso3: string;
  name: string;
  originalName: string;
  currency: string;
  phoneCode: string;
  popularPaymentMethods: { slug: string; name: string }[];
}

/** A person's country as the current user carries it (spec section 3: name, iso, popularPaymentMethods). */
export type CountryPlace = Pick<CountryView, 'id' | 'iso' | 'name' | 'currency' | 'popularPaymentMethods'>;

export interface LocationView {
  id: number;
  countryId: number;
  countryIso: string;
  countryName: string;
  cityName: string;
  subdivisionName: string;
  prettyName: string;
}

export interface TimezoneView {
  name: string;
  region: string;
  /** Current UTC offset, `+05:30`; it follows daylight-saving time. */
  offset: string;
  offsetMinutes: number;
}

export interface PaymentMethodView {
  id: number;
  name: string;
  originalName: string;
  slug: string;
  description_short: string;
  /** Spec section 3 carries the group under both names; clients read either. */
  payment_method_group_id: number;
  groupId: number;
  isCopyrighted: boolean;
  warningText: string | null;
  /** The currencies it is sold or paid in (a gift card's), empty for any. */
  currencies: string[];
}

export interface PaymentGroupView {
  id: number;
  name: string;
  slug: string;
  description: string;
  sell_description: string;
  /** No group artwork ships yet; clients draw their own icon (docs/decisions/045-offer-editor-and-my-offers.md, 2026-11-24). */
  imageUrl: string | null;
  /** Slugs of the group's methods listed as popular in the most countries, most first. */
  popular_payment_methods: string[];
  /** One of the groups a person picks from in search and in the create-offer form (spec section 9). */
  isSelectable: boolean;
  methods: PaymentMethodView[];
}
