import { describe, expect, it } from 'vitest';
import { buildListingUrl, listingApiPath, parseListingUrl } from '../../src/lib/offer-listing-url.ts';
import { LISTING_SORTS } from '../../src/lib/shared/listing-sort.ts';

// The listing's order in its address and its API call (decision 133): `?sort=` only when it is not
// the default, so the default order has one address.

describe('the listing order in the URL', () => {
  it.each(LISTING_SORTS.filter((sort) => sort !== 'price'))('carries sort=%s there and back', (sort) => {
    const url = buildListingUrl('de', { type: 'buy', crypto: 'bitcoin', currency: 'EUR', fiatMin: '50', sort });
    expect(url).toBe(`/de/buy-bitcoin/any/eur?fiat-min=50&sort=${sort}`);
    expect(parseListingUrl(url)?.query.sort).toBe(sort);
    expect(listingApiPath({ type: 'buy', crypto: 'bitcoin', sort })).toContain(`&sort=${sort}&`);
  });

  it('writes the default order by leaving sort out, and refuses an order it does not know', () => {
    expect(buildListingUrl('en', { type: 'sell', crypto: 'tether', sort: 'price' })).toBe('/sell-tether');
    expect(listingApiPath({ type: 'sell', crypto: 'tether', sort: 'price' })).not.toContain('sort=');
    // Accepted (a form sends it), read as no order: the page redirects to the address without it.
    expect(parseListingUrl('/sell-tether?sort=price')?.query).toEqual({ type: 'sell', crypto: 'tether' });
    expect(parseListingUrl('/sell-tether?sort=cheapest')).toBeUndefined();
  });
});
