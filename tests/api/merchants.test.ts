import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../server/services/context.ts';
import { verifyLedger } from '../../server/services/ledger/invariants.ts';
import { merchantBalanceOf, walletOf } from '../../server/services/ledger/ledger.ts';
import { errorOf } from '../support/api-errors.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { type Browser, tradeFixtures } from '../support/trade-fixtures.ts';

// Merchant balances (issue 21; docs/kiosks-and-merchants.md): what a merchant's trades as buyer
// bring in collects in its merchant balance, apart from its wallet, until it settles it; a trade
// released before the buyer became a merchant stays in the wallet. 5,000 USD at 100,000 USD/BTC is
// 5,000,000 sat; the seller pays the 1 % fee on top.

let t: TestApp;
let f: ReturnType<typeof tradeFixtures>;
let vendor: Browser;
let buyer: Browser;
let offer: Awaited<ReturnType<typeof f.createOffer>>;
let buyerId: number;
const ctx = systemContext('test');
const BUYER = 'buyer@example.com';

beforeEach(async () => {
  t = await createTestApp();
  f = tradeFixtures(t);
  ({ vendor, buyer } = await f.openMarket(100_000_000));
  await f.verifyFully(BUYER);
  await f.verifyFully('vendor@example.com');
  offer = await f.createOffer(vendor);
  buyerId = await f.userId(BUYER);
});
afterEach(() => t?.close());

const balanceOf = async (ref: ReturnType<typeof walletOf>) => (await t.services.ledger.account(ctx, ref))?.balance ?? 0;
const becomeMerchant = () => f.sql('UPDATE users SET is_merchant = 1 WHERE id = ?', buyerId);

const completedTrade = () => f.completedTrade(buyer, vendor, offer, '5000');

describe('the merchant balance', () => {
  it('collects a merchant buyer’s released trades, apart from the wallet; current_user shows it', async () => {
    await becomeMerchant();
    const before = await balanceOf(walletOf(buyerId, 'BTC'));
    await completedTrade();
    expect(await balanceOf(merchantBalanceOf(buyerId, 'BTC'))).toBe(5_000_000);
    expect(await balanceOf(walletOf(buyerId, 'BTC'))).toBe(before);
    const read = await buyer.get('/rest/v1/merchants/balance');
    expect(read.status).toBe(200);
    expect((await read.json()).data).toEqual({ balance: { BTC: '0.05000000', USDT: '0.000000' } });
    const me = (await (await buyer.get('/rest/v1/users/current_user')).json()).data;
    expect(me).toMatchObject({ isMerchant: true, merchantBalance: '0.05000000' });
    expect(await verifyLedger(t.db)).toEqual([]);
  });

  it('leaves an ordinary buyer’s release in the wallet', async () => {
    const before = await balanceOf(walletOf(buyerId, 'BTC'));
    await completedTrade();
    expect(await balanceOf(walletOf(buyerId, 'BTC'))).toBe(before + 5_000_000);
    expect(await balanceOf(merchantBalanceOf(buyerId, 'BTC'))).toBe(0);
  });

  it('settles all of it into the wallet once per key; an empty balance is 409 MERCHANT_BALANCE_EMPTY', async () => {
    await becomeMerchant();
    await completedTrade();
    const wallet = await balanceOf(walletOf(buyerId, 'BTC'));
    const settled = await Promise.all(
      [1, 2, 3].map(() => buyer.post('/rest/v1/merchants/settle', { idempotency_key: 'settle-click-01' })),
    );
    const bodies = await Promise.all(settled.map(async (res) => ({ status: res.status, ...(await res.json()).data })));
    expect(bodies.map((body) => body.status)).toEqual([200, 200, 200]);
    expect(new Set(bodies.map((body) => body.transactionId)).size).toBe(1);
    expect(bodies[0]?.moved).toEqual({ BTC: '0.05000000', USDT: '0.000000' });
    expect(await balanceOf(walletOf(buyerId, 'BTC'))).toBe(wallet + 5_000_000);
    expect(await balanceOf(merchantBalanceOf(buyerId, 'BTC'))).toBe(0);

    const empty = await buyer.post('/rest/v1/merchants/settle', { idempotency_key: 'settle-click-02' });
    expect(empty.status).toBe(409);
    expect((await errorOf(empty)).code).toBe('MERCHANT_BALANCE_EMPTY');
    // The wallet history names the settlement.
    expect(JSON.stringify(await (await buyer.get('/rest/v1/wallet/transactions')).json())).toContain(
      'merchant_settlement',
    );
    expect(await verifyLedger(t.db)).toEqual([]);
  });

  it('refuses a malformed key naming the field, moving nothing', async () => {
    await becomeMerchant();
    await completedTrade();
    const bad = await buyer.post('/rest/v1/merchants/settle', { idempotency_key: 'no' });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).field).toBe('idempotency_key');
    expect(await balanceOf(merchantBalanceOf(buyerId, 'BTC'))).toBe(5_000_000);
  });

  it('is for merchants only: 403 merchant_only, 401 for visitors', async () => {
    for (const [method, path] of [
      ['GET', '/rest/v1/merchants/balance'],
      ['POST', '/rest/v1/merchants/settle'],
    ] as const) {
      const res = await buyer.send(path, {
        method,
        ...(method === 'POST' ? { json: { idempotency_key: 'k-000001' } } : {}),
      });
      expect(res.status, path).toBe(403);
      expect((await errorOf(res)).message).toContain('merchant');
      expect((await t.send(path, { method })).status, path).toBe(401);
    }
  });
});
