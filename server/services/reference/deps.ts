import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import type { CurrencyView, PaymentGroupView, TimezoneView } from '../../../src/lib/shared/views/reference.ts';
import type { PriceFeed } from '../price-feed/price-feed.ts';
import type { FiatCurrencyRow, ReferenceRepository } from './repository.ts';

export interface ReferenceDeps {
  repo: ReferenceRepository;
  priceFeed: PriceFeed;
  now: () => number;
}

/** What the verbs keep between calls: reference rows and the lists shaped from them. */
export interface ReferenceCaches {
  // Reference rows change only through migrations and the seed, so they are read once.
  currencyRows: FiatCurrencyRow[] | undefined;
  timezones: { at: number; list: TimezoneView[] } | undefined;
  paymentGroups: Map<Locale, PaymentGroupView[]>;
  // Shaped lists per locale, valid until the next price tick: the list changes only when prices do.
  lists: Map<Locale, CurrencyView[]>;
  listPrices: string;
}

/** The deps with the service's caches: what every verb of this folder receives first. */
export type ReferenceParts = ReferenceDeps & { caches: ReferenceCaches };

export function createReferenceCaches(): ReferenceCaches {
  return { currencyRows: undefined, timezones: undefined, paymentGroups: new Map(), lists: new Map(), listPrices: '' };
}
