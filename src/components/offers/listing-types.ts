import type { ListingQuery } from '../../lib/offer-listing-url.ts';
import type { OfferView } from '../../lib/shared/views/offers.ts';
import type { PaymentGroupView } from '../../lib/shared/views/reference.ts';

// What the listing page hands its island, and what the island keeps.

export type ListedOffer = Pick<
  OfferView,
  | 'hash'
  | 'type'
  | 'cryptoCurrency'
  | 'isFeatured'
  | 'fiatCurrency'
  | 'fiatDecimals'
  | 'fiatLimitMin'
  | 'fiatLimitMax'
  | 'margin'
  | 'fiatPricePerCrypto'
  | 'paymentMethod'
  | 'paymentGroup'
  | 'paymentMethodLabel'
  | 'tags'
  | 'owner'
  | 'score'
  | 'location'
>;

export interface ListingMeta {
  featuredOffersCount: number;
  otherOffersCount: number;
  page: number;
  pageSize: number;
  lastSeenBreakpoint: number;
  relaxed: ('amount' | 'currency' | 'payment_method')[];
  currency: string | null;
  /** The listing's country (ISO alpha-2; issue 19), null when the visitor chose worldwide. */
  country: string | null;
}

export interface ListingResult {
  offers: ListedOffer[];
  meta: ListingMeta;
}

export interface ListingCountry {
  iso: string;
  name: string;
}

export interface ListingCurrency {
  code: string;
  name: string;
}

export type ListingGroup = Pick<
  PaymentGroupView,
  'id' | 'name' | 'slug' | 'isSelectable' | 'popular_payment_methods'
> & {
  methods: { slug: string; name: string }[];
};

export interface ListingProps {
  locale: string;
  lang: string;
  messages: Record<string, string>;
  query: ListingQuery;
  result: ListingResult;
  currencies: ListingCurrency[];
  groups: ListingGroup[];
  /** Payment methods popular in the listing's country (spec section 2: popular country payment methods). */
  popularMethods: string[];
  /** The listing's country, null for worldwide (issue 19). */
  country: ListingCountry | null;
  /** The visitor's own pick (the `listing_country` cookie), undefined when the server chose. */
  countryChoice: string | undefined;
  /** Unix seconds when the page was rendered: "seen 5 minutes ago" agrees between server and browser. */
  now: number;
}

/** Only what a row shows travels to the browser (the full offer has terms, countries, …). */
export function toListedOffer(offer: OfferView): ListedOffer {
  return {
    hash: offer.hash,
    type: offer.type,
    cryptoCurrency: offer.cryptoCurrency,
    isFeatured: offer.isFeatured,
    fiatCurrency: offer.fiatCurrency,
    fiatDecimals: offer.fiatDecimals,
    fiatLimitMin: offer.fiatLimitMin,
    fiatLimitMax: offer.fiatLimitMax,
    margin: offer.margin,
    fiatPricePerCrypto: offer.fiatPricePerCrypto,
    paymentMethod: offer.paymentMethod,
    paymentGroup: offer.paymentGroup,
    paymentMethodLabel: offer.paymentMethodLabel,
    tags: offer.tags,
    owner: offer.owner,
    score: offer.score,
    location: offer.location,
  };
}
