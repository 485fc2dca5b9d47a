import type { ListingQuery } from '../../lib/offer-listing-url.ts';

// The heading of a listing ("Buy bitcoin with SEPA transfer (EUR)") and its lead, from the same
// messages on the server (page title) and in the island (which retitles the page as filters change).

type Translate = (key: string, params?: Record<string, string | number>) => string;

/** The payment groups a heading looks the method's name up in. */
type Groups = readonly { methods: readonly { slug: string; name: string }[] }[];

export function listingHeading(t: Translate, query: ListingQuery, groups: Groups): string {
  const methodName = query.paymentMethod
    ? groups.flatMap((g) => g.methods).find((m) => m.slug === query.paymentMethod)?.name
    : undefined;
  const market = t(`listing.market.${query.type}-${query.crypto}`);
  if (methodName && query.currency)
    return t('listing.h1.both', { market, method: methodName, currency: query.currency });
  if (methodName) return t('listing.h1.method', { market, method: methodName });
  if (query.currency) return t('listing.h1.currency', { market, currency: query.currency });
  return market;
}

export function listingLead(t: Translate, query: ListingQuery): string {
  return t(`listing.description.${query.type}`, {
    crypto: t(query.crypto === 'tether' ? 'offer.crypto.tether' : 'offer.crypto.bitcoin'),
  });
}
