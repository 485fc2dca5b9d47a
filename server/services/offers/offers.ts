import { bindVerb, type ServiceContext } from '../context.ts';
import { createOffer } from './create.ts';
import { watchVendorFunds } from './funding-watch.ts';
import { listOffersOfUser } from './list-for-user.ts';
import { createMarketViews } from './market-views.ts';
import { getOffer, offerForTradeStart } from './read.ts';
import { removeOffer } from './remove.ts';
import { searchOffers } from './search.ts';
import { createSearchCache } from './search-cache.ts';
import { toggleOffer } from './toggle.ts';
import type { OffersDeps, OffersParts, SearchResult } from './types.ts';
import { updateOffer } from './update.ts';

// Offers: the listing search, one offer with its start gate, and the vendor's own offers. One
// verb per file; this wires them to one search cache and one priced view of the market.

export { OFFERS_PAGE_SIZE } from './search.ts';
export type { OfferDetails, OffersDeps, RelaxedCriterion, SearchInput, SearchResult } from './types.ts';

/** The verb with the area's parts bound: what callers see is `verb(ctx, input)`. */
export function createOffersService({ repo, catalogue, reference, allowance, now, bus, onError }: OffersDeps) {
  const loaded = Promise.resolve(catalogue);
  // Marks a failed load as handled here only: every verb awaits `loaded` and fails with its error.
  void loaded.catch(() => {});
  const parts: OffersParts = {
    repo,
    catalogue: loaded,
    now,
    ...(allowance ? { allowance } : {}),
    // Forgotten in every process at each offer write (search-cache.ts).
    searches: createSearchCache<SearchResult>({ maxEntries: 500, ...(bus ? { bus } : {}) }),
    views: createMarketViews({ reference, now }),
  };
  // A wallet that crosses a sell offer's need relists or hides it at once (decision 121).
  if (bus) watchVendorFunds(parts, bus, onError ?? (() => {}));
  return {
    search: bindVerb(parts, searchOffers),
    /** One offer as a person sees it, with what stands between them and a trade. */
    get: bindVerb(parts, getOffer),
    /** `get` and the row behind it: the trade start needs the offer's ids and its instructions. */
    forTradeStart: bindVerb(parts, offerForTradeStart),
    listForUser: bindVerb(parts, listOffersOfUser),
    create: bindVerb(parts, createOffer),
    update: bindVerb(parts, updateOffer),
    /** On or off; `active` sets it, otherwise it flips. Blocked offers stay off. */
    toggle: bindVerb(parts, toggleOffer),
    /** Deleting keeps the row (trades point at it) and takes it out of every list. */
    remove: bindVerb(parts, removeOffer),
    activeOffersCount: (_ctx: ServiceContext, { userId }: { userId: number }) => repo.activeCountOf(userId),
    /** Drops cached searches: for writers outside this service (moderation, tests' direct SQL). */
    invalidateSearches: (_ctx: ServiceContext) => parts.searches.invalidate(),
    /** Grows at every offer write heard here or from another process (search-cache.ts). */
    searchGeneration: () => parts.searches.generation(),
  };
}

export type OffersService = ReturnType<typeof createOffersService>;
