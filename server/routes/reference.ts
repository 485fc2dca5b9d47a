import { Hono } from 'hono';
import * as v from 'valibot';
import { foldForSearch } from '../../src/lib/shared/fold-for-search.ts';
import { type AppEnv, requestContext } from '../http/auth.ts';
import { requestLocale } from '../http/locale.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';

// Reference data of spec section 7 ("Offers and reference data"). The calculator's chart and the
// vendor landing page's weekly graph are market data: server/routes/market.ts.

const flag = v.optional(v.picklist(['0', '1'], 'must be 0 or 1'));
export const currencyCode = v.pipe(
  v.string(),
  v.toUpperCase(),
  v.regex(/^[A-Z]{3}$/, 'must be a three-letter ISO 4217 code'),
);
const wholeNumber = (min: number, max: number, fallback: string) =>
  v.pipe(
    v.optional(v.string(), fallback),
    v.regex(/^\d+$/, 'must be a whole number'),
    v.transform(Number),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

/** Spec section 9: the countries request uses limit 500, offset 0. */
const CountriesQuery = v.object({ limit: wholeNumber(1, 500, '500'), offset: wholeNumber(0, 100_000, '0') });

export function referenceRoutes(services: Services) {
  const { reference } = services;
  return (
    new Hono<AppEnv>()
      .get('/currencies', validate('query', v.object({ 'with-popular': flag })), async (c) => {
        const ctx = requestContext(c);
        const data = await reference.listCurrencies(ctx, { locale: requestLocale(c) });
        if (c.req.valid('query')['with-popular'] === '1') {
          return c.json({ data, meta: { popularCurrencies: await reference.popularCurrencyCodes(ctx) } });
        }
        return c.json({ data });
      })
      .get('/currencies/:code', validate('param', v.object({ code: currencyCode })), async (c) => {
        const { code } = c.req.valid('param');
        const currency = await reference.getCurrency(requestContext(c), { locale: requestLocale(c), code });
        return c.json({ data: currency });
      })
      .get('/calculator/currency', async (c) =>
        c.json({ data: await reference.calculatorCurrencies(requestContext(c), { locale: requestLocale(c) }) }),
      )
      .get('/countries', validate('query', CountriesQuery), async (c) => {
        const { limit, offset } = c.req.valid('query');
        const { items, total } = await reference.listCountries(requestContext(c), {
          locale: requestLocale(c),
          limit,
          offset,
        });
        return c.json({ data: items, meta: { total, limit, offset } });
      })
      .get('/timezones', async (c) => c.json({ data: await reference.listTimezones(requestContext(c)) }))
      // Not in spec section 7: the create-offer form needs the groups and methods to pick from.
      .get('/payment-methods', async (c) =>
        c.json({ data: await reference.listPaymentGroups(requestContext(c), { locale: requestLocale(c) }) }),
      )
      .get('/vendorlanding/currency', async (c) =>
        c.json({
          data: { currencies: await reference.listCurrencies(requestContext(c), { locale: requestLocale(c) }) },
        }),
      )
  );
}

/** Spec sections 5 and 9: searching starts at 3 characters; shorter text answers an empty list. */
const MIN_LOCATION_QUERY = 3;
const LocationQuery = v.object({
  q: v.optional(v.pipe(v.string(), v.maxLength(100, 'must be at most 100 characters')), ''),
});

export function locationRoutes(services: Services) {
  return new Hono<AppEnv>().get('/search', validate('query', LocationQuery), async (c) => {
    const query = foldForSearch(c.req.valid('query').q);
    if (query.length < MIN_LOCATION_QUERY) return c.json({ data: [] });
    return c.json({
      data: await services.reference.searchLocations(requestContext(c), { locale: requestLocale(c), query, limit: 20 }),
    });
  });
}
