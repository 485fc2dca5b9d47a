import { DEFAULT_LISTING_SORT } from '../../../src/lib/shared/listing-sort.ts';
import { LAST_SEEN_BREAKPOINT_SECONDS } from '../../../src/lib/shared/presence.ts';
import type { ServiceContext } from '../context.ts';
import { OFFLINE_AFTER_MS } from './online.ts';
import { filtersOf } from './search-filters.ts';
import type { OffersParts, RelaxedCriterion, SearchInput, SearchResult } from './types.ts';

/** Searches are cached per bucket of this length: one simulated price tick. */
const SEARCH_BUCKET_MS = 10_000;
/** Spec section 9: page size 50. */
export const OFFERS_PAGE_SIZE = 50;

/** The listing: one page of offers for a visitor or a signed-in person, relaxed on request. */
export async function searchOffers(parts: OffersParts, ctx: ServiceContext, input: SearchInput): Promise<SearchResult> {
  const { repo, searches, views, now } = parts;
  const catalogue = await parts.catalogue;
  const { locale } = input;
  const page = input.page ?? 1;
  // Every search in one bucket sees the same instant, so their answers can be shared.
  const bucket = Math.floor(now() / SEARCH_BUCKET_MS);
  const at = bucket * SEARCH_BUCKET_MS;
  const crypto = catalogue.cryptoById(input.cryptoCurrencyId);
  const cryptoUsd = (await views.marketRates()).fiatPerCrypto(crypto?.code ?? 'BTC', 'USD');
  const relaxed = new Set<RelaxedCriterion>();
  for (;;) {
    const { filters, canRelax, currencyCode, countryIso } = await filtersOf(
      { repo, catalogue },
      input,
      ctx,
      relaxed,
      cryptoUsd,
    );
    const window = {
      onlineSince: at - OFFLINE_AFTER_MS,
      activeSince: at - LAST_SEEN_BREAKPOINT_SECONDS * 1000,
      cryptoUsd,
      // A visitor who buys wants the lowest price; one who sells, the highest.
      cheapestFirst: input.type === 'buy',
      sort: input.sort ?? DEFAULT_LISTING_SORT,
      limit: OFFERS_PAGE_SIZE,
      offset: (page - 1) * OFFERS_PAGE_SIZE,
    };
    const key = JSON.stringify([filters, window.cheapestFirst, window.sort, window.offset, locale, [...relaxed]]);
    const result = await searches.get(key, bucket, async () => {
      const found = await repo.search(filters, window);
      return {
        offers: await views.viewAll(found.rows, locale, { offset: window.offset }),
        meta: {
          featuredOffersCount: found.featured,
          otherOffersCount: found.total - found.featured,
          page,
          pageSize: OFFERS_PAGE_SIZE,
          lastSeenBreakpoint: LAST_SEEN_BREAKPOINT_SECONDS,
          relaxed: [...relaxed],
          currency: currencyCode,
          // The listing's country (its currency when localized), null for worldwide.
          country: countryIso,
        },
      };
    });
    const empty = result.meta.featuredOffersCount + result.meta.otherOffersCount === 0;
    // The spec's order: amount, then currency, then payment method.
    const next = canRelax[0];
    if (empty && input.relax && next) {
      relaxed.add(next);
      continue;
    }
    return result;
  }
}
