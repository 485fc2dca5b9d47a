import { useCallback, useEffect, useRef, useState } from 'react';
import { apiRequest } from '../../lib/api-client.ts';
import type { CountryChoice } from '../../lib/listing-country.ts';
import { buildListingUrl, type ListingQuery, listingApiPath, parseListingUrl } from '../../lib/offer-listing-url.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import type { ListedOffer, ListingMeta, ListingProps } from './listing-types.ts';
import { useListingCountry } from './use-listing-country.ts';

// The listing island's state and effects: the offers and their loading, the query and its URL,
// the amount that settles before it asks, back and forward, and the page title.

const AMOUNT_DEBOUNCE_MS = 500;

export interface LoadOptions {
  page?: number;
  place?: number | undefined;
  push?: boolean;
  /** The visitor's country pick; undefined lets the server decide (issue 19). */
  country?: CountryChoice | undefined;
}

/** The query without its empty keys: an undefined key means "no filter", so the URL leaves it out. */
function withoutEmpty(next: ListingQuery): ListingQuery {
  const query = { ...next };
  for (const key of Object.keys(query) as (keyof ListingQuery)[]) {
    if (query[key] === undefined || query[key] === '') delete query[key];
  }
  return query;
}

/** The offers shown, and `load`: the first page replaces them, a later one adds to them. */
function useListingResults(props: ListingProps, locale: Locale) {
  const [offers, setOffers] = useState<ListedOffer[]>(props.result.offers);
  const [meta, setMeta] = useState<ListingMeta>(props.result.meta);
  const [status, setStatus] = useState<'loaded' | 'loading' | 'error'>('loaded');
  const [loadingMore, setLoadingMore] = useState(false);
  const request = useRef(0);

  const load = useCallback(
    async (next: ListingQuery, options: LoadOptions = {}) => {
      const id = ++request.current;
      const page = options.page ?? 1;
      if (page === 1) setStatus('loading');
      else setLoadingMore(true);
      const result = await apiRequest<ListedOffer[]>(
        'GET',
        listingApiPath(next, { page, locationId: options.place, locale, country: options.country }),
      );
      // A newer request won: this answer is stale.
      if (id !== request.current) return;
      setLoadingMore(false);
      if (!result.ok || !result.data) {
        setStatus('error');
        return;
      }
      const nextMeta = result.meta as unknown as ListingMeta;
      setOffers((current) => (page === 1 ? (result.data ?? []) : [...current, ...(result.data ?? [])]));
      setMeta(nextMeta);
      setStatus('loaded');
      if (options.push !== false && page === 1) {
        const url = buildListingUrl(locale, next);
        if (url !== `${location.pathname}${location.search}`) history.pushState({ listing: true }, '', url);
      }
    },
    [locale],
  );
  return { offers, meta, status, loadingMore, load };
}

/** The amount settles before it asks the server (spec section 9: 500 ms). */
function useSettledAmount(amount: string, settled: string, change: (patch: Partial<ListingQuery>) => void) {
  // The latest `change` (it reads this render's query) through a ref, so a new query does not
  // restart the pause.
  const changeLatest = useRef(change);
  changeLatest.current = change;
  useEffect(() => {
    if (settled === amount) return;
    const timer = setTimeout(() => changeLatest.current({ fiatMin: amount || undefined }), AMOUNT_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [amount, settled]);
}

/** Back and forward walk through earlier searches. */
function useHistoryWalk(
  load: (next: ListingQuery, options?: LoadOptions) => Promise<void>,
  setQuery: (query: ListingQuery) => void,
  setAmount: (amount: string) => void,
) {
  useEffect(() => {
    const onPop = () => {
      const parsed = parseListingUrl(`${location.pathname}${location.search}`);
      if (!parsed) return;
      setQuery(parsed.query);
      setAmount(parsed.query.fiatMin ?? '');
      void load(parsed.query, { push: false });
    };
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, [load, setQuery, setAmount]);
}

/** The page title follows the heading, as a fresh load of the new address would show it. */
export function usePageTitle(heading: string) {
  useEffect(() => {
    const suffix = document.title.includes(' · ') ? document.title.slice(document.title.lastIndexOf(' · ')) : '';
    document.title = `${heading}${suffix}`;
  }, [heading]);
}

export function useListing(props: ListingProps, locale: Locale) {
  const [query, setQuery] = useState<ListingQuery>(props.query);
  const [amount, setAmount] = useState(props.query.fiatMin ?? '');
  const [locationId, setLocationId] = useState<number | undefined>(undefined);
  const results = useListingResults(props, locale);
  const country = useListingCountry(props);
  // Every load asks for the country on screen; a page reached by back or forward too.
  const load = (next: ListingQuery, options: LoadOptions = {}) =>
    results.load(next, { country: country.choice, ...options });

  const change = (patch: Partial<ListingQuery>, place: number | undefined = locationId) => {
    const next = withoutEmpty({ ...query, ...patch });
    setQuery(next);
    void load(next, { place });
  };
  useSettledAmount(amount, query.fiatMin ?? '', change);
  const loadLatest = useRef(load);
  loadLatest.current = load;
  const walkLoad = useCallback((next: ListingQuery, options?: LoadOptions) => loadLatest.current(next, options), []);
  useHistoryWalk(walkLoad, setQuery, setAmount);

  const onPlace = (place: number | undefined) => {
    setLocationId(place);
    change({}, place);
  };
  /** Another country (or worldwide): its currency and offers, at once. */
  const onCountry = (choice: CountryChoice) => {
    void country.choose(choice);
    void load(query, { place: locationId, country: choice });
  };
  return { ...results, load, query, amount, setAmount, locationId, change, onPlace, country, onCountry };
}
