import { Hono } from 'hono';
import * as v from 'valibot';
import { type AppEnv, personContextOf } from '../http/auth.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';

// The wallet of the signed-in person (issue 5): spec section 7's GET /rest/v1/balances, and the
// paths it leaves open under /rest/v1/wallet (docs/decisions/057-wallet-api-and-sendouts.md 2026-11-24 "Wallet API").

const Currency = v.picklist(['BTC', 'USDT'], 'must be BTC or USDT');

const PageQuery = v.object({
  page: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,5}$/, 'must be a page number from 1'),
      v.transform(Number),
      v.minValue(1, 'must be a page number from 1'),
    ),
    '1',
  ),
});

const AddressQuery = v.object({ currency: Currency });

const SendBody = v.object({
  currency: Currency,
  address: v.pipe(v.string('must be text'), v.trim(), v.minLength(1, 'is required'), v.maxLength(200, 'is too long')),
  // Text, never a JSON number: 0.1 + 0.2 must not reach a balance.
  amount: v.pipe(v.string('must be text such as "0.0015"'), v.trim(), v.minLength(1, 'is required'), v.maxLength(40)),
  network: v.optional(v.picklist(['bitcoin', 'TRC20', 'ERC20'], 'must be bitcoin, TRC20 or ERC20')),
  code: v.optional(v.pipe(v.string('must be text'), v.maxLength(64, 'is too long'))),
  request_id: v.pipe(
    v.string('must be text'),
    v.regex(/^[\w.:-]{1,100}$/, 'must be 1 to 100 letters, digits, or . _ : -'),
  ),
});

export function walletRoutes(services: Services) {
  const { wallet } = services;
  return new Hono<AppEnv>()
    .get('/balances', async (c) => c.json({ data: await wallet.balances(personContextOf(c)) }))
    .get('/wallet/transactions', validate('query', PageQuery), async (c) => {
      const { items, meta } = await wallet.transactions(personContextOf(c), { page: c.req.valid('query').page });
      return c.json({ data: items, meta });
    })
    .get('/wallet/deposit-address', validate('query', AddressQuery), async (c) =>
      c.json({ data: await wallet.depositAddress(personContextOf(c), { currency: c.req.valid('query').currency }) }),
    )
    .post('/wallet/send', validate('json', SendBody), async (c) => {
      const { sendout, replayed } = await wallet.send(personContextOf(c), c.req.valid('json'));
      return c.json({ data: sendout, meta: { replayed } }, replayed ? 200 : 201);
    });
}
