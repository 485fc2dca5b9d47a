import { Hono } from 'hono';
import * as v from 'valibot';
import { CRYPTO_DECIMALS, fromMinorUnits } from '../../src/lib/shared/money.ts';
import { type AppEnv, personContextOf, requestContext, requireAuth } from '../http/auth.ts';
import { requiredText as text, validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';
import { RETRYABLE_CODES } from '../services/hedging/hedging.ts';

// POST /rest/v1/hedging/convert (spec section 7) and the conversion settings a wallet needs
// (GET /rest/v1/hedging/settings: limits, retryable codes, availability; spec section 3
// "Hedging settings").

const ConvertBody = v.object({
  from_crypto_currency_code: text(10),
  to_crypto_currency_code: text(10),
  amount: v.pipe(v.union([v.string(), v.number()], 'must be an amount'), v.transform(String), text(40)),
  quote_id: text(64),
  order_id: v.pipe(text(64), v.regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8–64 letters, digits, - or _')),
});

export function hedgingRoutes(services: Services) {
  const { hedging, quotes } = services;
  return (
    new Hono<AppEnv>()
      // Signed in first, so a visitor hears 401 whatever the body.
      .use('/convert', async (c, next) => {
        requireAuth(c);
        await next();
      })
      .get('/settings', async (c) =>
        c.json({
          data: {
            enabled: true,
            available: (await quotes.current(requestContext(c))) !== undefined,
            // Per source currency, as decimal text (spec section 3: "conversion limits (min and max)").
            limits: Object.fromEntries(
              Object.entries(hedging.limits).map(([code, { min, max }]) => {
                const decimals = CRYPTO_DECIMALS[code as keyof typeof CRYPTO_DECIMALS];
                return [code, { min: fromMinorUnits(min, decimals), max: fromMinorUnits(max, decimals) }];
              }),
            ),
            retryableCodes: RETRYABLE_CODES,
          },
        }),
      )
      .post('/convert', validate('json', ConvertBody), async (c) => {
        const data = await hedging.convert(personContextOf(c), c.req.valid('json'));
        return c.json({ data });
      })
  );
}
