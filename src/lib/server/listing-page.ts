import type { AstroGlobal } from 'astro';
import type { OfferView } from '../../../server/services/offers/offer-view.ts';
import type { PaymentGroupView } from '../../../server/services/reference/payment-methods.ts';
import { listingHeading, listingLead } from '../../components/offers/listing-heading.ts';
import type {
  ListingCountry,
  ListingGroup,
  ListingMeta,
  ListingResult,
} from '../../components/offers/listing-types.ts';
import { toListedOffer } from '../../components/offers/listing-types.ts';
import { type CountryChoice, countryChoiceCookie, countryChoiceOf, parseCountryChoice } from '../listing-country.ts';
import { buildListingUrl, type ListingQuery, listingApiPath, parseListingUrl } from '../offer-listing-url.ts';
import { type Locale, localizePath, splitLocale } from '../shared/i18n/locales.ts';
import { type MessageKey, pickMessages, translator } from '../shared/i18n/messages.ts';
import type { CountryPlace, CountryView } from '../shared/views/reference.ts';
import { callApi, passOnCookies } from './page-api.ts';

// What an offer listing page (spec section 2, "Offer listing URL") needs before it renders:
// /buy-bitcoin, /de/sell-tether/sepa/eur, /buy-bitcoin/any/usd?fiat-min=100&group=bank-transfers.
// The three route files under src/pages/[...locale]/[market]/ share it; whichever of them Astro
// picks, the whole URL is parsed here. A URL that does not parse, or names a method, currency or
// group that does not exist, is a localized 404; a non-canonical one is redirected.

export interface ListingPageProps {
  locale: Locale;
  query: ListingQuery;
  heading: string;
  description: string;
  canonicalPath: string;
  messages: Record<string, string>;
  result: ListingResult;
  currencies: { code: string; name: string }[];
  groups: ListingGroup[];
  popularMethods: string[];
  /** The listing's country (null: worldwide) and whether the visitor picked it (issue 19). */
  country: ListingCountry | null;
  countryChoice: CountryChoice | undefined;
}

export async function loadListingPage(Astro: AstroGlobal): Promise<ListingPageProps | Response> {
  const { pathname, search } = Astro.url;
  const parsed = parseListingUrl(`${pathname}${search}`);
  if (!parsed) return Astro.rewrite(localizePath(splitLocale(pathname).locale, '/not-found'));
  const { locale } = parsed;
  const t = translator(locale);

  // The GET form of the filters without JavaScript sends `currency` and `payment-method` as query
  // keys; they join the path. `page` is the only key the listing URL itself does not carry.
  const params = Astro.url.searchParams;
  const query: ListingQuery = { ...parsed.query };
  if (params.has('currency')) query.currency = params.get('currency')?.toUpperCase() || undefined;
  if (params.has('payment-method')) query.paymentMethod = params.get('payment-method') || undefined;
  if (params.has('fiat-min')) query.fiatMin = params.get('fiat-min') || undefined;
  const page = Math.max(1, Math.min(10_000, Number.parseInt(params.get('page') ?? '1', 10) || 1));
  const canonical = buildListingUrl(locale, query);
  const pageSuffix = page > 1 ? `${canonical.includes('?') ? '&' : '?'}page=${page}` : '';
  // The form without JavaScript picks a country as `country=`: remembered like the island's pick.
  const picked = parseCountryChoice(params.get('country'));
  if (`${pathname}${search}` !== `${canonical}${pageSuffix}`) {
    const formPost = params.has('currency') || params.has('payment-method') || params.has('country');
    const headers = new Headers({ Location: `${canonical}${pageSuffix}` });
    if (picked) headers.append('Set-Cookie', countryChoiceCookie(picked, false));
    return new Response(null, { status: formPost ? 303 : 301, headers });
  }
  const countryChoice = countryChoiceOf(Astro.request.headers.get('cookie'));

  const [offers, currencies, methods, me] = await Promise.all([
    callApi<OfferView[]>(Astro, listingApiPath(query, { page, locale, country: countryChoice })),
    callApi<{ code: string; name: string }[]>(Astro, `/rest/v1/currencies?locale=${locale}`),
    callApi<PaymentGroupView[]>(Astro, `/rest/v1/payment-methods?locale=${locale}`),
    callApi<{ isLogged: boolean; country?: CountryPlace | null }>(
      Astro,
      `/rest/v1/users/current_user?locale=${locale}`,
    ),
  ]);
  passOnCookies(Astro, offers, me);
  if (offers.status === 400) return Astro.rewrite(localizePath(locale, '/not-found'));
  if (!offers.data || !currencies.data || !methods.data) {
    throw new Error(`listing page: the API answered ${offers.status}, ${currencies.status}, ${methods.status}`);
  }

  const groups: ListingGroup[] = methods.data.map((g) => ({
    id: g.id,
    name: g.name,
    slug: g.slug,
    isSelectable: g.isSelectable,
    popular_payment_methods: g.popular_payment_methods,
    methods: g.methods.map((m) => ({ slug: m.slug, name: m.name })),
  }));
  const translate = (key: string, values?: Record<string, string | number>) => t(key as MessageKey, values);
  const meta = offers.meta as unknown as ListingMeta;
  const country = await listingCountry(Astro, locale, meta.country, me.data?.country ?? null);
  return {
    locale,
    query,
    heading: listingHeading(translate, query, groups),
    description: listingLead(translate, query),
    canonicalPath: splitLocale(canonical.split('?')[0] ?? '/').path,
    messages: pickMessages(locale, ['listing.', 'offers.last_seen_trades', 'offer.crypto.']),
    result: { offers: offers.data.map(toListedOffer), meta },
    currencies: currencies.data.map((c) => ({ code: c.code, name: c.name })),
    groups,
    popularMethods: (country?.popularPaymentMethods ?? []).map((m) => m.slug),
    country: country && { iso: country.iso, name: country.name },
    countryChoice,
  };
}

/**
 * The listing country's name and popular methods: the current user's country when it is that
 * one (the usual case, no extra call), else looked up in the country list.
 */
async function listingCountry(
  Astro: AstroGlobal,
  locale: Locale,
  iso: string | null,
  own: CountryPlace | null,
): Promise<Pick<CountryPlace, 'iso' | 'name' | 'popularPaymentMethods'> | null> {
  if (!iso) return null;
  if (own?.iso === iso) return own;
  const list = await callApi<CountryView[]>(Astro, `/rest/v1/countries?limit=500&offset=0&locale=${locale}`);
  return list.data?.find((c) => c.iso === iso) ?? { iso, name: iso, popularPaymentMethods: [] };
}
