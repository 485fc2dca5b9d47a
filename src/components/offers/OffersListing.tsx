import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { apiRequest } from '../../lib/api-client.ts';
import {
  buildListingUrl,
  CRYPTO_URL_NAMES,
  LISTING_TYPES,
  type ListingQuery,
  listingApiPath,
  parseListingUrl,
} from '../../lib/offer-listing-url.ts';
import { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { isLocale } from '../../lib/shared/i18n/locales.ts';
import { AMOUNT_PATTERN } from '../../lib/shared/input-patterns.ts';
import { ListingFilters } from './ListingFilters.tsx';
import { listingHeading, listingLead } from './listing-heading.ts';
import type { ListedOffer, ListingMeta, ListingProps } from './listing-types.ts';
import { OffersTable } from './OffersTable.tsx';

// The offer listing island (spec sections 2, 4 and 7): tabs for the four markets, filters
// (amount, currency, payment method with groups, place for cash in person) and the offers in two
// lists, featured then the others. A change refetches at once (the amount after a 500 ms pause),
// moves the URL to the listing's address and tells what was relaxed when nothing matched. The
// server renders the first page, so everything here is readable before hydration; without
// JavaScript the filters post as a plain GET form that the page redirects to the canonical URL.

const AMOUNT_DEBOUNCE_MS = 500;

export default function OffersListing(props: ListingProps) {
  const t = useMemo(() => islandTranslator(props.messages), [props.messages]);
  const locale = isLocale(props.locale) ? props.locale : 'en';
  const [query, setQuery] = useState<ListingQuery>(props.query);
  const [amount, setAmount] = useState(props.query.fiatMin ?? '');
  const [locationId, setLocationId] = useState<number | undefined>(undefined);
  const [offers, setOffers] = useState<ListedOffer[]>(props.result.offers);
  const [meta, setMeta] = useState<ListingMeta>(props.result.meta);
  const [status, setStatus] = useState<'loaded' | 'loading' | 'error'>('loaded');
  const [loadingMore, setLoadingMore] = useState(false);
  const request = useRef(0);

  const load = useCallback(
    async (next: ListingQuery, options: { page?: number; place?: number | undefined; push?: boolean } = {}) => {
      const id = ++request.current;
      const page = options.page ?? 1;
      if (page === 1) setStatus('loading');
      else setLoadingMore(true);
      const result = await apiRequest<ListedOffer[]>(
        'GET',
        listingApiPath(next, { page, locationId: options.place, locale }),
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

  const change = (patch: Partial<ListingQuery>, place: number | undefined = locationId) => {
    const next = { ...query, ...patch };
    // An undefined key means "no filter": drop it so the URL leaves it out.
    for (const key of Object.keys(next) as (keyof ListingQuery)[]) {
      if (next[key] === undefined || next[key] === '') delete next[key];
    }
    setQuery(next);
    void load(next, { place });
  };

  // The amount settles before it asks the server (spec section 9: 500 ms). The latest `change`
  // (it reads this render's query) through a ref, so a new query does not restart the pause.
  const changeLatest = useRef(change);
  changeLatest.current = change;
  const settledAmount = query.fiatMin ?? '';
  useEffect(() => {
    if (settledAmount === amount) return;
    const timer = setTimeout(() => changeLatest.current({ fiatMin: amount || undefined }), AMOUNT_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [amount, settledAmount]);

  // Back and forward walk through earlier searches.
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
  }, [load]);

  const heading = listingHeading(t, query, props.groups);
  useEffect(() => {
    // The page title follows the heading, as a fresh load of the new address would show it.
    const suffix = document.title.includes(' · ') ? document.title.slice(document.title.lastIndexOf(' · ')) : '';
    document.title = `${heading}${suffix}`;
  }, [heading]);

  const total = meta.featuredOffersCount + meta.otherOffersCount;
  const hasMore = offers.length < total;
  const relaxedText = meta.relaxed.map((criterion) => t(`listing.relaxed.${criterion}`)).join(', ');

  return (
    <div className="listing" aria-busy={status === 'loading'}>
      <header>
        <h1 className="h2 listing-title">{heading}</h1>
        <p className="muted listing-lead">{listingLead(t, query)}</p>
      </header>
      <nav className="listing-tabs" aria-label={t('listing.markets')}>
        {LISTING_TYPES.flatMap((type) =>
          CRYPTO_URL_NAMES.map((crypto) => {
            const selected = type === query.type && crypto === query.crypto;
            return (
              <a
                key={`${type}-${crypto}`}
                href={buildListingUrl(locale, { ...query, type, crypto })}
                aria-current={selected ? 'page' : undefined}
                onClick={(event) => {
                  if (event.metaKey || event.ctrlKey || event.shiftKey) return;
                  event.preventDefault();
                  change({ type, crypto });
                }}
              >
                {t(`listing.market.${type}-${crypto}`)}
              </a>
            );
          }),
        )}
      </nav>

      <ListingFilters
        t={t}
        query={query}
        amount={amount}
        onAmount={(text) => AMOUNT_PATTERN.test(text) && setAmount(text)}
        onChange={change}
        onPlace={(place) => {
          setLocationId(place);
          change({}, place);
        }}
        currencies={props.currencies}
        groups={props.groups}
        popularMethods={props.popularMethods}
      />

      {meta.relaxed.length > 0 && (
        <p className="listing-relaxed" role="status">
          {t('listing.relaxed.notice', { criteria: relaxedText })}
        </p>
      )}
      {status === 'error' && (
        <p className="listing-error" role="alert">
          {t('listing.error')}{' '}
          <button type="button" className="text-link" onClick={() => void load(query, { place: locationId })}>
            {t('listing.retry')}
          </button>
        </p>
      )}

      <p className="listing-count muted" role="status">
        {t('listing.count', { count: total })}
      </p>
      <OffersTable
        t={t}
        lang={props.lang}
        locale={locale}
        offers={offers}
        meta={meta}
        personBuys={query.type === 'buy'}
        now={props.now}
      />
      {hasMore && (
        <div className="listing-more">
          <a
            className="btn btn-secondary"
            href={`${buildListingUrl(locale, query)}${query.fiatMin || query.group ? '&' : '?'}page=${meta.page + 1}`}
            onClick={(event) => {
              event.preventDefault();
              if (!loadingMore) void load(query, { page: meta.page + 1, place: locationId });
            }}
            aria-disabled={loadingMore}
          >
            {loadingMore ? t('listing.loading') : t('listing.more')}
          </a>
        </div>
      )}
    </div>
  );
}
