import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import type { ListingSort } from '../../../src/lib/shared/listing-sort.ts';
import type { StartTradeStep } from '../../../src/lib/shared/start-trade-decision.ts';
import type { EventBus } from '../../realtime/bus.ts';
import type { ReferenceService } from '../reference/reference.ts';
import type { OffersCatalogue } from './catalogue.ts';
import type { MarketViews } from './market-views.ts';
import type { OfferView } from './offer-view.ts';
import type { OffersRepository } from './repository.ts';
import type { SearchCache } from './search-cache.ts';
import type { StartBlock } from './start-gate.ts';

// The shapes the offers verbs share: what callers send and read, and what each verb is given.

export interface SearchInput {
  /** The visitor's side (`buy` lists sell offers), as in the listing URL. */
  type: 'buy' | 'sell';
  cryptoCurrencyId: number;
  paymentMethod?: string | undefined;
  currency?: string | undefined;
  fiatMin?: string | undefined;
  group?: string | undefined;
  visitorCountryIso?: string | undefined;
  visitorCountryHasChanged?: boolean | undefined;
  locationId?: number | undefined;
  isPaymentLocalized?: boolean | undefined;
  page?: number | undefined;
  /** Retry without amount, then currency, then payment method while nothing is found. */
  relax?: boolean | undefined;
  /** The order inside each list (decision 133); none is `price`, the contract's order. */
  sort?: ListingSort | undefined;
  /** The language of country names in the answer. */
  locale: Locale;
}

export type RelaxedCriterion = 'amount' | 'currency' | 'payment_method';

export interface SearchResult {
  offers: OfferView[];
  meta: {
    featuredOffersCount: number;
    otherOffersCount: number;
    page: number;
    pageSize: number;
    lastSeenBreakpoint: number;
    relaxed: RelaxedCriterion[];
    currency: string | null;
    /** The listing's country, ISO alpha-2; null for worldwide. */
    country: string | null;
  };
}

export interface OfferDetails {
  offer: OfferView;
  /** Empty when the viewer may start a trade. */
  blocks: StartBlock[];
  /** What submitting the start form does first (src/lib/shared/start-trade-decision.ts). */
  step: StartTradeStep;
  isOwner: boolean;
  /** The amounts this viewer may trade: a new partner is capped by `newBuyerMaxFiatLimit`. */
  limits: ViewerLimits;
}

/**
 * The amounts one viewer may trade on an offer. `cappedBy` says why `max` is below the offer's
 * own maximum, so the start widget can say it (issue 22): what is left of the viewer's
 * verification level (`level`), or the vendor's cap on a first trade with a new partner.
 */
export interface ViewerLimits {
  min: number;
  max: number;
  cappedBy?: 'verification' | 'new_partner';
  level?: number;
}

export interface OffersDeps {
  repo: OffersRepository;
  /** The reference rows offers name, read once (`loadOffersCatalogue`); the service waits for it. */
  catalogue: OffersCatalogue | Promise<OffersCatalogue>;
  reference: ReferenceService;
  /** What a person may still trade in the rolling 30 days (server/services/verification). */
  allowance?: (userId: number) => Allowance | Promise<Allowance>;
  now: () => number;
  /**
   * Where writes announce themselves, so every process's search cache forgets (search-cache.ts),
   * and where the ledger's postings come from (funding-watch.ts).
   */
  bus?: EventBus;
  /** A background check that failed (funding-watch.ts); nobody's request waits for it. */
  onError?: (error: unknown) => void;
}

export interface Allowance {
  level: number;
  unusedUsdCents: number;
}

/** What every verb of the area is given: the deps, the search cache and the priced views. */
export interface OffersParts extends Omit<OffersDeps, 'reference' | 'catalogue' | 'bus' | 'onError'> {
  /** The catalogue once loaded: every verb that resolves names awaits it (at once after the first time). */
  catalogue: Promise<OffersCatalogue>;
  /**
   * Shaped answers, per filters, page and language: the shaping and the market price are those of
   * the bucket's first request (prices tick every 10 s anyway).
   */
  searches: SearchCache<SearchResult>;
  views: MarketViews;
}
