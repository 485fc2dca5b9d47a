import { Hono } from 'hono';
import * as v from 'valibot';
import { type AppEnv, requestContext } from '../http/auth.ts';
import { requestLocale } from '../http/locale.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';
import { chartRanges } from '../services/market/buckets.ts';
import { cryptoCodes } from '../services/price-feed/price-feed.ts';
import { currencyCode } from './reference.ts';

// Market data of spec section 7: the calculator and its chart, the wallet's crypto-fiat rates and
// the vendor landing page's weekly chart.

/** Spec section 9: "the chart range defaults to month"; "default currency: USD". */
const range = v.optional(v.picklist(chartRanges, `must be one of ${chartRanges.join(', ')}`), 'month');
const currency = v.optional(currencyCode, 'USD');
const crypto = v.optional(
  v.pipe(v.string(), v.toUpperCase(), v.picklist(cryptoCodes, `must be one of ${cryptoCodes.join(', ')}`)),
  'BTC',
);

const CalculatorQuery = v.object({ range, currency });
const ChartQuery = v.object({ range, currency, crypto });
const RatesQuery = v.object({ camelCase: v.optional(v.picklist(['0', '1'], 'must be 0 or 1')) });
const GraphQuery = v.object({ currency });

/** `btcToUsd` → `btc_to_usd`: the rates' keys when the caller did not ask for camelCase. */
function snakeCaseKeys(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(record).map(([key, value]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), value]),
  );
}

export function marketRoutes(services: Services) {
  const { market, quotes } = services;
  return new Hono<AppEnv>()
    .get('/calculator', validate('query', CalculatorQuery), async (c) => {
      const { range, currency } = c.req.valid('query');
      const locale = requestLocale(c);
      return c.json({
        data: await market.calculator(requestContext(c), { locale, code: currency, range, field: 'currency' }),
      });
    })
    .get('/calculator/chart', validate('query', ChartQuery), async (c) => {
      const { range, currency, crypto } = c.req.valid('query');
      return c.json({
        data: await market.chart(requestContext(c), { crypto, range, code: currency, field: 'currency' }),
      });
    })
    .get('/crypto-fiat-rates', validate('query', RatesQuery), async (c) => {
      // Spec section 3's rate quote: the market rates plus the current conversion quote (null when
      // prices are too old to quote: the wallet then disables conversion).
      const quote = await quotes.current(requestContext(c));
      const rates = {
        ...(await market.cryptoFiatRates(requestContext(c))),
        quoteId: quote?.id ?? null,
        expiredTimestamp: quote?.expired_timestamp ?? null,
        servicePriceAsk: quote?.service_price_ask ?? null,
        servicePriceBid: quote?.service_price_bid ?? null,
      };
      return c.json({ data: c.req.valid('query').camelCase === '1' ? rates : snakeCaseKeys(rates) });
    })
    .get('/vendorlanding/graph', validate('query', GraphQuery), async (c) => {
      const { currency } = c.req.valid('query');
      return c.json({
        data: await market.chart(requestContext(c), {
          crypto: 'BTC',
          range: 'week',
          code: currency,
          field: 'currency',
        }),
      });
    });
}
