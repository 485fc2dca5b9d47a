import { useMemo } from 'react';
import { buildListingUrl, CRYPTO_URL_NAMES, LISTING_TYPES, type ListingQuery } from '../../lib/offer-listing-url.ts';
import { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { isLocale, type Locale } from '../../lib/shared/i18n/locales.ts';
import { AMOUNT_PATTERN } from '../../lib/shared/input-patterns.ts';
import { RetryNote } from '../RetryNote.tsx';
import { ListingFilters } from './ListingFilters.tsx';
import { CoinMark } from './ListingIcon.tsx';
import { ListingSortSelect } from './ListingSortSelect.tsx';
import { listingHeading, listingLead } from './listing-heading.ts';
import type { ListingMeta, ListingProps } from './listing-types.ts';
import { OffersTable } from './OffersTable.tsx';
import { useListing, usePageTitle } from './use-listing.ts';

// The offer listing island (spec sections 2, 4 and 7): tabs for the four markets, filters
// (amount, currency, payment method with groups, place for cash in person) and the offers in two
// lists, featured then the others. A change refetches at once (the amount after a 500 ms pause),
// moves the URL to the listing's address and tells what was relaxed when nothing matched. The
// server renders the first page, so everything here is readable before hydration; without
// JavaScript the filters post as a plain GET form that the page redirects to the canonical URL.

type T = ReturnType<typeof islandTranslator>;

/** The four markets: buy or sell, bitcoin or tether. */
function MarketTabs({
  t,
  locale,
  query,
  change,
}: {
  t: T;
  locale: Locale;
  query: ListingQuery;
  change(patch: Partial<ListingQuery>): void;
}) {
  return (
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
              <CoinMark code={crypto === 'tether' ? 'USDT' : 'BTC'} />
              {t(`listing.market.${type}-${crypto}`)}
            </a>
          );
        }),
      )}
    </nav>
  );
}

/** What was relaxed when nothing matched. */
function RelaxedNotice({ t, relaxed }: { t: T; relaxed: ListingMeta['relaxed'] }) {
  const relaxedText = relaxed.map((criterion) => t(`listing.relaxed.${criterion}`)).join(', ');
  return (
    <p className="listing-relaxed" role="status">
      {t('listing.relaxed.notice', { criteria: relaxedText })}
    </p>
  );
}

/** A failed load, with its retry. */
function LoadError({ t, onRetry }: { t: T; onRetry(): void }) {
  return (
    <RetryNote
      className="listing-error"
      role="alert"
      message={t('listing.error')}
      retry={t('listing.retry')}
      onRetry={onRetry}
    />
  );
}

/** The next page: a link without JavaScript, an added page with it. */
function MoreButton({ t, href, loading, onMore }: { t: T; href: string; loading: boolean; onMore(): void }) {
  return (
    <div className="listing-more">
      <a
        className="btn btn-secondary"
        href={href}
        onClick={(event) => {
          event.preventDefault();
          if (!loading) onMore();
        }}
        aria-disabled={loading}
      >
        {loading ? t('listing.loading') : t('listing.more')}
      </a>
    </div>
  );
}

/** The next page's address: the listing's own, which may already have a query. */
const nextPageHref = (url: string, page: number) => `${url}${url.includes('?') ? '&' : '?'}page=${page}`;

export default function OffersListing(props: ListingProps) {
  const t = useMemo(() => islandTranslator(props.messages), [props.messages]);
  const locale = isLocale(props.locale) ? props.locale : 'en';
  const listing = useListing(props, locale);
  const { query, meta, offers, status, load, locationId } = listing;
  const heading = listingHeading(t, query, props.groups);
  usePageTitle(heading);
  const total = meta.featuredOffersCount + meta.otherOffersCount;
  // The amount in the box goes with each offer link, in the currency it was searched in.
  const searchCurrency = query.currency ?? meta.currency;
  const search =
    listing.amount && Number(listing.amount) > 0 && searchCurrency
      ? { amount: listing.amount, currency: searchCurrency }
      : undefined;

  return (
    <div className="listing" aria-busy={status === 'loading'}>
      <header>
        <h1 className="h2 listing-title">{heading}</h1>
        <p className="muted listing-lead">{listingLead(t, query)}</p>
      </header>
      <MarketTabs t={t} locale={locale} query={query} change={listing.change} />
      <ListingFilters
        t={t}
        query={query}
        amount={listing.amount}
        onAmount={(text) => AMOUNT_PATTERN.test(text) && listing.setAmount(text)}
        onChange={listing.change}
        onPlace={listing.onPlace}
        currencies={props.currencies}
        groups={props.groups}
        country={listing.country}
        onCountry={listing.onCountry}
        localCurrency={query.currency === undefined && meta.country !== null ? meta.currency : null}
      />
      {meta.relaxed.length > 0 && <RelaxedNotice t={t} relaxed={meta.relaxed} />}
      {status === 'error' && <LoadError t={t} onRetry={() => void load(query, { place: locationId })} />}
      <div className="listing-toolbar">
        <p className="listing-count muted" role="status">
          {t('listing.count', { count: total })}
        </p>
        <ListingSortSelect t={t} sort={query.sort} onSort={(sort) => listing.change({ sort })} />
      </div>
      <OffersTable
        t={t}
        lang={props.lang}
        locale={locale}
        offers={offers}
        meta={meta}
        personBuys={query.type === 'buy'}
        now={props.now}
        search={search}
      />
      {offers.length < total && (
        <MoreButton
          t={t}
          href={nextPageHref(buildListingUrl(locale, query), meta.page + 1)}
          loading={listing.loadingMore}
          onMore={() => void load(query, { page: meta.page + 1, place: locationId })}
        />
      )}
    </div>
  );
}
