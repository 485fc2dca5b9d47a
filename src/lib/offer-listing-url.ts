import { type CountryChoice, countryParams } from './listing-country.ts';
import { type Locale, localizePath, splitLocale } from './shared/i18n/locales.ts';
import { DEFAULT_LISTING_SORT, isListingSort, type ListingSort } from './shared/listing-sort.ts';

// The offer listing URL of spec section 2, built and parsed in one place so links, the listing
// page and its filters always agree:
//
//   {locale prefix}/{buy|sell}-{bitcoin|tether}[/{payment method slug | any}][/{currency}]
//                  [?fiat-min=…&group=…&sort=…]
//
// The method segment is `any` only when a currency follows without a method. The currency is
// written in lower case, like the calculator's; upper case is accepted and redirected (the page
// compares `build(parse(url))` with the URL it was asked for). Query parameters appear only when set.

export type ListingType = 'buy' | 'sell';
export type CryptoUrlName = 'bitcoin' | 'tether';

export const LISTING_TYPES: readonly ListingType[] = ['buy', 'sell'];
export const CRYPTO_URL_NAMES: readonly CryptoUrlName[] = ['bitcoin', 'tether'];
export const ANY_METHOD = 'any';

export interface ListingQuery {
  /** The visitor's side: `buy` lists the offers of people who sell. */
  type: ListingType;
  crypto: CryptoUrlName;
  /** A payment method slug. */
  paymentMethod?: string | undefined;
  /** ISO 4217 code, upper case. */
  currency?: string | undefined;
  /** The amount the visitor wants to trade, in the currency's major units, as typed (`250.5`). */
  fiatMin?: string | undefined;
  /** A payment group slug. */
  group?: string | undefined;
  /** The order inside each list (decision 133); absent is by price, the contract's order. */
  sort?: ListingSort | undefined;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const CURRENCY = /^[a-z]{3}$/i;
const AMOUNT = /^(?:\d+(?:\.\d+)?)$/;

/** The path and query of a listing, with the locale's prefix. */
export function buildListingUrl(locale: Locale, query: ListingQuery): string {
  const segments = [`${query.type}-${query.crypto}`];
  if (query.paymentMethod) segments.push(query.paymentMethod);
  else if (query.currency) segments.push(ANY_METHOD);
  if (query.currency) segments.push(query.currency.toLowerCase());
  const params = new URLSearchParams();
  if (query.fiatMin) params.set('fiat-min', query.fiatMin);
  if (query.group) params.set('group', query.group);
  if (query.sort && query.sort !== DEFAULT_LISTING_SORT) params.set('sort', query.sort);
  const search = params.toString();
  return localizePath(locale, `/${segments.join('/')}`) + (search ? `?${search}` : '');
}

/**
 * A listing URL back into its query, or undefined when it is not one (the page answers 404).
 * Accepts a full path with its locale prefix and query string.
 */
export function parseListingUrl(url: string): { locale: Locale; query: ListingQuery } | undefined {
  const queryStart = url.indexOf('?');
  const pathname = queryStart === -1 ? url : url.slice(0, queryStart);
  const search = new URLSearchParams(queryStart === -1 ? '' : url.slice(queryStart + 1));
  const { locale, path } = splitLocale(pathname);
  const parts = path.replace(/\/+$/, '').split('/').slice(1);
  if (parts.length < 1 || parts.length > 3) return undefined;

  const head = /^(buy|sell)-(bitcoin|tether)$/.exec(parts[0] ?? '');
  if (!head) return undefined;
  const query: ListingQuery = { type: head[1] as ListingType, crypto: head[2] as CryptoUrlName };

  const [method, currency] = parts.slice(1);
  if (method !== undefined) {
    if (!SLUG.test(method)) return undefined;
    // `any` stands in for the method only in front of a currency. A lone segment is always a
    // method: slugs such as `upi` or `pix` look like currency codes.
    if (method === ANY_METHOD) {
      if (currency === undefined) return undefined;
    } else {
      query.paymentMethod = method;
    }
  }
  if (currency !== undefined) {
    if (!CURRENCY.test(currency)) return undefined;
    query.currency = currency.toUpperCase();
  }

  const fiatMin = search.get('fiat-min');
  if (fiatMin) {
    if (!AMOUNT.test(fiatMin)) return undefined;
    query.fiatMin = fiatMin;
  }
  const group = search.get('group');
  if (group) {
    if (!SLUG.test(group)) return undefined;
    query.group = group;
  }
  const sort = search.get('sort');
  if (sort) {
    if (!isListingSort(sort)) return undefined;
    // `price` is written by leaving `sort` out (the default order has one address): the page
    // redirects there.
    if (sort !== DEFAULT_LISTING_SORT) query.sort = sort;
  }
  return { locale, query };
}

/** Crypto ids of spec section 9: bitcoin 1, tether 2. */
export const CRYPTO_IDS: Record<CryptoUrlName, number> = { bitcoin: 1, tether: 2 };

/**
 * The `GET /rest/v1/offers` path for a listing (spec section 7's parameters), as both the page's
 * first render and its island ask it. Relaxation is on: an empty search retries with fewer criteria.
 */
export function listingApiPath(
  query: ListingQuery,
  options: {
    page?: number;
    locationId?: number | undefined;
    locale?: string;
    country?: CountryChoice | undefined;
  } = {},
): string {
  const params = new URLSearchParams({ type: query.type, crypto_currency_id: String(CRYPTO_IDS[query.crypto]) });
  if (query.paymentMethod) params.set('payment-method', query.paymentMethod);
  if (query.currency) params.set('currency', query.currency);
  if (query.fiatMin) params.set('fiat-min', query.fiatMin);
  if (query.group) params.set('group', query.group);
  if (query.sort && query.sort !== DEFAULT_LISTING_SORT) params.set('sort', query.sort);
  if (options.locationId !== undefined) params.set('location_id', String(options.locationId));
  if (options.page && options.page > 1) params.set('page', String(options.page));
  if (options.locale) params.set('locale', options.locale);
  countryParams(params, query.currency !== undefined, options.country);
  params.set('relax', '1');
  return `/rest/v1/offers?${params}`;
}
