import { describe, expect, it } from 'vitest';
import { fiatCurrencies } from '../../db/seed/data/fiat-currencies.ts';
import { paymentGroups } from '../../db/seed/data/payment-groups.ts';
import { paymentMethods } from '../../db/seed/data/payment-methods.ts';
import { seededRandom } from '../../db/seed/random.ts';
import {
  buildListingUrl,
  CRYPTO_URL_NAMES,
  LISTING_TYPES,
  type ListingQuery,
  parseListingUrl,
} from '../../src/lib/offer-listing-url.ts';
import { locales } from '../../src/lib/shared/i18n/locales.ts';

const methodChoices = [undefined, ...paymentMethods.map((m) => m.slug)];
const currencyChoices = [undefined, ...fiatCurrencies.map((c) => c.code)];
const amountChoices = [undefined, '1', '250', '0.5', '1000000', '99.99'];
const groupChoices = [undefined, ...paymentGroups.map((g) => g.slug)];

/** Without the keys left undefined, as the parser returns them. */
function defined(query: ListingQuery): ListingQuery {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)) as ListingQuery;
}

describe('offer listing URL', () => {
  it('builds the URLs of spec section 2', () => {
    expect(buildListingUrl('en', { type: 'buy', crypto: 'bitcoin' })).toBe('/buy-bitcoin');
    expect(buildListingUrl('de', { type: 'sell', crypto: 'tether' })).toBe('/de/sell-tether');
    expect(buildListingUrl('en', { type: 'buy', crypto: 'bitcoin', paymentMethod: 'paypal' })).toBe(
      '/buy-bitcoin/paypal',
    );
    expect(buildListingUrl('en', { type: 'buy', crypto: 'bitcoin', currency: 'USD' })).toBe('/buy-bitcoin/any/usd');
    expect(
      buildListingUrl('fr', {
        type: 'sell',
        crypto: 'bitcoin',
        paymentMethod: 'sepa',
        currency: 'EUR',
        fiatMin: '250',
        group: 'bank-transfers',
      }),
    ).toBe('/fr/sell-bitcoin/sepa/eur?fiat-min=250&group=bank-transfers');
    // Empty values leave no trace in the query.
    expect(buildListingUrl('en', { type: 'buy', crypto: 'tether', fiatMin: '', group: '' })).toBe('/buy-tether');
  });

  // Exhaustive (every combination): CPU-bound seconds, shared with the other suites' workers.
  it('parses every type, crypto, method and currency back into the query it was built from', () => {
    let checked = 0;
    for (const type of LISTING_TYPES) {
      for (const crypto of CRYPTO_URL_NAMES) {
        for (const paymentMethod of methodChoices) {
          for (const currency of currencyChoices) {
            const query = defined({ type, crypto, paymentMethod, currency });
            const url = buildListingUrl('en', query);
            expect(parseListingUrl(url)).toEqual({ locale: 'en', query });
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(2 * 2 * methodChoices.length * currencyChoices.length);
  }, 30_000);

  it('is inverse with every locale, amount and group too (seeded random sample of 20,000)', () => {
    const random = seededRandom(4242);
    for (let i = 0; i < 20_000; i++) {
      const locale = random.pick(locales);
      const query = defined({
        type: random.pick(LISTING_TYPES),
        crypto: random.pick(CRYPTO_URL_NAMES),
        paymentMethod: random.pick(methodChoices),
        currency: random.pick(currencyChoices),
        fiatMin: random.pick(amountChoices),
        group: random.pick(groupChoices),
      });
      const url = buildListingUrl(locale, query);
      expect(parseListingUrl(url), url).toEqual({ locale, query });
      // And the other way: a parsed URL builds back to itself.
      expect(buildListingUrl(locale, query)).toBe(url);
    }
  });

  it('reads an upper-case currency and a trailing slash; the page redirects to the canonical form', () => {
    const parsed = parseListingUrl('/de/buy-bitcoin/any/EUR/');
    expect(parsed).toEqual({ locale: 'de', query: { type: 'buy', crypto: 'bitcoin', currency: 'EUR' } });
    if (!parsed) throw new Error('unreachable');
    expect(buildListingUrl(parsed.locale, parsed.query)).toBe('/de/buy-bitcoin/any/eur');
  });

  it('reads a lone three-letter segment as a method (upi, pix), never as a currency', () => {
    expect(parseListingUrl('/buy-bitcoin/upi')?.query).toEqual({
      type: 'buy',
      crypto: 'bitcoin',
      paymentMethod: 'upi',
    });
  });

  it.each([
    '/',
    '/buy',
    '/buy-ether',
    '/rent-bitcoin',
    '/buy-bitcoin/any',
    '/buy-bitcoin/paypal/usd/extra',
    '/buy-bitcoin/pay pal',
    '/buy-bitcoin/paypal/dollars',
    '/buy-bitcoin/paypal/us1',
    '/buy-bitcoin?fiat-min=-5',
    '/buy-bitcoin?fiat-min=1e9',
    '/buy-bitcoin?fiat-min=12,50',
    '/buy-bitcoin?group=Bank_Transfers',
    '/xx/buy-bitcoin',
  ])('refuses %s', (url) => {
    expect(parseListingUrl(url)).toBeUndefined();
  });
});
