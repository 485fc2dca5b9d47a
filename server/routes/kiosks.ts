import { Hono } from 'hono';
import * as v from 'valibot';
import { CRYPTO_DECIMALS, toMinorUnits } from '../../src/lib/shared/money.ts';
import { type AppEnv, personContextOf, signedIn } from '../http/auth.ts';
import { idempotencyKey, validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';

// Kiosks and merchants' balances (issue 21; docs/kiosks-and-merchants.md):
//   GET  /rest/v1/kiosk                 the kiosk's balance, margin and latest sales
//   PUT  /rest/v1/kiosk/margin          marginPercent: 0 to 20, two decimals at most
//   POST /rest/v1/kiosk/transfer        direction in|out, currency, amount, idempotency_key
//   POST /rest/v1/kiosk/quote           customer, currency, fiatCurrency, fiatAmount: what a sale would be
//   POST /rest/v1/kiosk/sales           the same and the quoted amount, idempotency_key: the sale
//   GET  /rest/v1/merchants/balance     the merchant balance
//   POST /rest/v1/merchants/settle      idempotency_key: all of it into the wallet, once per key
// Kiosk routes are for kiosk accounts, merchant routes for merchants: anyone else gets 403.

const Currency = v.picklist(['BTC', 'USDT'], 'must be BTC or USDT');
const FiatAmount = v.pipe(
  v.union([v.string(), v.number()], 'must be an amount'),
  v.transform(String),
  v.trim(),
  v.regex(/^\d{1,9}(?:\.\d{1,2})?$/, 'must be an amount such as 50 or 49.90'),
  v.transform((text) => toMinorUnits(text, 2) ?? 0),
  v.minValue(1, 'must be more than zero'),
);
const Sale = {
  customer: v.pipe(v.string('must be a username'), v.trim(), v.minLength(1, 'is required'), v.maxLength(100)),
  currency: Currency,
  fiatCurrency: v.pipe(v.string('must be a currency code'), v.regex(/^[A-Z]{3}$/, 'must be a currency code')),
  fiatAmount: FiatAmount,
};
const cryptoAmount = v.pipe(
  v.union([v.string(), v.number()], 'must be an amount'),
  v.transform(String),
  v.trim(),
  v.regex(/^\d{1,12}(?:\.\d{1,8})?$/, 'must be an amount such as 0.0015'),
);
const QuoteBody = v.object(Sale);
const SaleBody = v.pipe(
  v.object({ ...Sale, amount: cryptoAmount, idempotency_key: idempotencyKey }),
  v.forward(
    v.check(
      (body) => (toMinorUnits(body.amount, CRYPTO_DECIMALS[body.currency]) ?? 0) > 0,
      'must be the quoted amount',
    ),
    ['amount'],
  ),
);
const TransferBody = v.pipe(
  v.object({
    direction: v.picklist(['in', 'out'], 'must be in or out'),
    currency: Currency,
    amount: cryptoAmount,
    idempotency_key: idempotencyKey,
  }),
  v.forward(
    v.check(
      (body) => (toMinorUnits(body.amount, CRYPTO_DECIMALS[body.currency]) ?? 0) > 0,
      'must be more than zero, with at most 8 decimals for BTC or 6 for USDT',
    ),
    ['amount'],
  ),
);
const MarginBody = v.object({
  marginPercent: v.pipe(
    v.union([v.string(), v.number()], 'must be a percentage'),
    v.transform(String),
    v.trim(),
    v.regex(/^\d{1,2}(?:\.\d{1,2})?$/, 'must be a percentage such as 3 or 2.5'),
    v.transform((text) => toMinorUnits(text, 2) ?? 0),
    v.maxValue(2000, 'must be 20 at most'),
  ),
});
const SettleBody = v.object({ idempotency_key: idempotencyKey });

const minor = (body: { currency: 'BTC' | 'USDT'; amount: string }) =>
  toMinorUnits(body.amount, CRYPTO_DECIMALS[body.currency]) as number;

export function kioskRoutes(services: Services) {
  const { kiosks, merchants } = services;
  return new Hono<AppEnv>()
    .use('/rest/v1/kiosk/*', signedIn)
    .use('/rest/v1/kiosk', signedIn)
    .use('/rest/v1/merchants/balance', signedIn)
    .use('/rest/v1/merchants/settle', signedIn)
    .get('/rest/v1/kiosk', async (c) => c.json({ data: await kiosks.read(personContextOf(c)) }))
    .put('/rest/v1/kiosk/margin', validate('json', MarginBody), async (c) =>
      c.json({ data: await kiosks.setMargin(personContextOf(c), { basisPoints: c.req.valid('json').marginPercent }) }),
    )
    .post('/rest/v1/kiosk/transfer', validate('json', TransferBody), async (c) => {
      const body = c.req.valid('json');
      const input = { direction: body.direction, currency: body.currency, amount: minor(body) };
      return c.json({
        data: await kiosks.transfer(personContextOf(c), { ...input, idempotencyKey: body.idempotency_key }),
      });
    })
    .post('/rest/v1/kiosk/quote', validate('json', QuoteBody), async (c) => {
      const { fiatAmount, ...body } = c.req.valid('json');
      return c.json({ data: await kiosks.quote(personContextOf(c), { ...body, fiatCents: fiatAmount }) });
    })
    .post('/rest/v1/kiosk/sales', validate('json', SaleBody), async (c) => {
      const { fiatAmount, idempotency_key, amount: _amount, ...body } = c.req.valid('json');
      const input = {
        ...body,
        fiatCents: fiatAmount,
        amount: minor(c.req.valid('json')),
        idempotencyKey: idempotency_key,
      };
      return c.json({ data: await kiosks.sell(personContextOf(c), input) }, 201);
    })
    .get('/rest/v1/merchants/balance', async (c) => c.json({ data: await merchants.read(personContextOf(c)) }))
    .post('/rest/v1/merchants/settle', validate('json', SettleBody), async (c) =>
      c.json({
        data: await merchants.settle(personContextOf(c), { idempotencyKey: c.req.valid('json').idempotency_key }),
      }),
    );
}
