import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../server/services/context.ts';
import { verifyLedger } from '../../server/services/ledger/invariants.ts';
import { kioskBalanceOf, systemAccount, walletOf } from '../../server/services/ledger/ledger.ts';
import { errorOf } from '../support/api-errors.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createUser, type TestUser } from '../support/users.ts';

// Kiosks (issue 21; docs/kiosks-and-merchants.md) through the HTTP contract: the kiosk balance
// funded from the wallet and back, the margin, quotes and over-the-counter sales, each bad input,
// who may do what, idempotent retries, and the ledger holding after each.

let t: TestApp;
let kiosk: TestUser;
let customer: TestUser;
type Browser = Awaited<ReturnType<TestUser['signIn']>>;
let browser: Browser;
const ctx = systemContext('test');

beforeEach(async () => {
  t = await createTestApp();
  kiosk = await createUser(t, { funded: { BTC: 50_000_000, USDT: 1_000_000_000 } });
  await t.db.sql.run('UPDATE users SET is_kiosk = 1 WHERE id = ?', [kiosk.id]);
  customer = await createUser(t);
  browser = await kiosk.signIn();
});
afterEach(() => t?.close());

const balance = async (ref: ReturnType<typeof walletOf>) => (await t.services.ledger.account(ctx, ref))?.balance ?? 0;
const fund = (amount = '0.1', key = 'fund-0000001', currency = 'BTC') =>
  browser.post('/rest/v1/kiosk/transfer', { direction: 'in', currency, amount, idempotency_key: key });
const sale = (overrides: Record<string, unknown> = {}) => ({
  customer: customer.username,
  currency: 'BTC',
  fiatCurrency: 'USD',
  fiatAmount: '900',
  ...overrides,
});

describe('GET /rest/v1/kiosk and the margin', () => {
  it('answers the balance, the margin (3 % at first) and no sales; the margin is the kiosk’s to set', async () => {
    const res = await browser.get('/rest/v1/kiosk');
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({
      balance: { BTC: '0.00000000', USDT: '0.000000' },
      marginPercent: '3.00',
      sales: [],
    });
    const set = await browser.send('/rest/v1/kiosk/margin', { method: 'PUT', json: { marginPercent: '4.25' } });
    expect(set.status).toBe(200);
    expect((await set.json()).data.marginPercent).toBe('4.25');
    expect((await (await browser.get('/rest/v1/kiosk')).json()).data.marginPercent).toBe('4.25');
  });

  it.each([['20.01'], ['-1'], ['3.333'], ['abc'], [null]])('refuses the margin %j with the field', async (value) => {
    const res = await browser.send('/rest/v1/kiosk/margin', { method: 'PUT', json: { marginPercent: value } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).field).toBe('marginPercent');
  });

  it('is for kiosks only: 403 kiosk_only for anyone else, 401 for visitors', async () => {
    const other = await customer.signIn();
    for (const [method, path, json] of [
      ['GET', '/rest/v1/kiosk', undefined],
      ['PUT', '/rest/v1/kiosk/margin', { marginPercent: '1' }],
      [
        'POST',
        '/rest/v1/kiosk/transfer',
        { direction: 'in', currency: 'BTC', amount: '1', idempotency_key: 'k-00000001' },
      ],
      ['POST', '/rest/v1/kiosk/quote', sale({ customer: kiosk.username })],
      ['POST', '/rest/v1/kiosk/sales', { ...sale(), amount: '0.01', idempotency_key: 'k-00000002' }],
    ] as const) {
      const res = await other.send(path, { method, ...(json ? { json } : {}) });
      expect(res.status, path).toBe(403);
      expect(await errorOf(res)).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('kiosk') });
      const visitor = await t.send(path, { method });
      expect(visitor.status, path).toBe(401);
    }
  });
});

describe('POST /rest/v1/kiosk/transfer', () => {
  it('moves crypto from the wallet into the kiosk balance and back, once per key', async () => {
    const res = await fund('0.1');
    expect(res.status).toBe(200);
    const body = (await res.json()).data;
    expect(body).toMatchObject({ balance: { BTC: '0.10000000', USDT: '0.000000' }, replayed: false });
    expect(body.transactionId).toMatch(/^ltx_/);
    // A retry of the same click moves nothing more.
    expect((await (await fund('0.1')).json()).data).toMatchObject({
      replayed: true,
      transactionId: body.transactionId,
    });
    expect(await balance(walletOf(kiosk.id, 'BTC'))).toBe(40_000_000);
    expect(await balance(kioskBalanceOf(kiosk.id, 'BTC'))).toBe(10_000_000);

    const back = await browser.post('/rest/v1/kiosk/transfer', {
      direction: 'out',
      currency: 'BTC',
      amount: '0.025',
      idempotency_key: 'back-0000001',
    });
    expect((await back.json()).data.balance.BTC).toBe('0.07500000');
    expect(await balance(walletOf(kiosk.id, 'BTC'))).toBe(42_500_000);
    expect(await verifyLedger(t.db)).toEqual([]);
  });

  it('refuses more than the wallet holds, and more than the kiosk balance holds, moving nothing', async () => {
    const tooMuch = await fund('0.50000001');
    expect(tooMuch.status).toBe(409);
    expect((await errorOf(tooMuch)).code).toBe('INSUFFICIENT_FUNDS');
    const out = await browser.post('/rest/v1/kiosk/transfer', {
      direction: 'out',
      currency: 'USDT',
      amount: '1',
      idempotency_key: 'out-00000001',
    });
    expect(out.status).toBe(409);
    expect(await balance(walletOf(kiosk.id, 'BTC'))).toBe(50_000_000);
  });

  it.each([
    [{ direction: 'sideways' }, 'direction'],
    [{ currency: 'ETH' }, 'currency'],
    [{ amount: '0' }, 'amount'],
    [{ amount: '0.000000001' }, 'amount'],
    [{ currency: 'USDT', amount: '1.0000001' }, 'amount'],
    [{ idempotency_key: 'short' }, 'idempotency_key'],
  ])('refuses %j naming %s', async (change, field) => {
    const body = { direction: 'in', currency: 'BTC', amount: '0.1', idempotency_key: 'fund-0000009', ...change };
    const res = await browser.post('/rest/v1/kiosk/transfer', body);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).field).toBe(field);
  });
});

describe('quotes and sales', () => {
  it('quotes at the market price plus the margin, then sells: the customer’s wallet at once, the fee to fee income', async () => {
    await fund('0.1');
    const quoted = await browser.post('/rest/v1/kiosk/quote', sale());
    expect(quoted.status).toBe(200);
    const quote = (await quoted.json()).data;
    const market = Number(quote.marketPrice);
    expect(Number(quote.price)).toBeCloseTo(market * 1.03, 1);
    const amount = Math.floor((900 / (market * 1.03)) * 1e8);
    expect(quote).toMatchObject({
      customer: customer.username,
      currency: 'BTC',
      fiatCurrency: 'USD',
      fiatAmount: '900.00',
      marginPercent: '3.00',
      amount: (amount / 1e8).toFixed(8),
      fee: (Math.ceil(amount / 100) / 1e8).toFixed(8),
    });

    const res = await browser.post('/rest/v1/kiosk/sales', {
      ...sale(),
      amount: quote.amount,
      idempotency_key: 'sale-0000001',
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { sale: sold, balance: left, replayed } = (await res.json()).data;
    expect(replayed).toBe(false);
    expect(sold).toMatchObject({
      id: expect.stringMatching(/^kos_/),
      customer: customer.username,
      amount: quote.amount,
      fee: quote.fee,
      fiatAmount: '900.00',
      fiatCurrency: 'USD',
      marginPercent: '3.00',
      transactionId: expect.stringMatching(/^ltx_/),
    });
    expect(await balance(walletOf(customer.id, 'BTC'))).toBe(amount);
    expect(await balance(kioskBalanceOf(kiosk.id, 'BTC'))).toBe(10_000_000 - amount - Math.ceil(amount / 100));
    expect(left.BTC).toBe(((10_000_000 - amount - Math.ceil(amount / 100)) / 1e8).toFixed(8));
    expect(await balance(systemAccount('fee_income', 'BTC'))).toBe(Math.ceil(amount / 100));

    // A retry after a lost answer is the same sale; the list shows it once.
    const again = await browser.post('/rest/v1/kiosk/sales', {
      ...sale(),
      amount: quote.amount,
      idempotency_key: 'sale-0000001',
    });
    expect(again.status).toBe(201);
    expect((await again.json()).data).toMatchObject({ replayed: true, sale: { id: sold.id } });
    const listed = (await (await browser.get('/rest/v1/kiosk')).json()).data.sales;
    expect(listed.map((row: { id: string }) => row.id)).toEqual([sold.id]);
    // The customer's wallet history names it, and the customer is told, once.
    const customerBrowser = await customer.signIn();
    const history = await customerBrowser.get('/rest/v1/wallet/transactions');
    expect(JSON.stringify(await history.json())).toContain('kiosk_sale');
    const inbox = (await (await customerBrowser.get('/rest/v1/notifications')).json()).data;
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({ type: 'kiosk_purchase', link: '/wallet' });
    expect(JSON.stringify(inbox[0])).toContain(quote.amount);
    expect(await verifyLedger(t.db)).toEqual([]);
  });

  it('sells at the quoted amount within 1 % of the price; past that, 409 KIOSK_PRICE_MOVED with the new quote', async () => {
    await fund('0.1');
    const quote = (await (await browser.post('/rest/v1/kiosk/quote', sale())).json()).data;
    const shown = Number(quote.amount);
    const near = (shown * 1.005).toFixed(8);
    const ok = await browser.post('/rest/v1/kiosk/sales', { ...sale(), amount: near, idempotency_key: 'sale-near-01' });
    expect(ok.status).toBe(201);
    const far = (shown * 1.05).toFixed(8);
    const moved = await browser.post('/rest/v1/kiosk/sales', {
      ...sale(),
      amount: far,
      idempotency_key: 'sale-far-001',
    });
    expect(moved.status).toBe(409);
    const error = await errorOf(moved);
    expect(error.code).toBe('KIOSK_PRICE_MOVED');
    expect(error.meta?.quote).toMatchObject({ amount: quote.amount });
  });

  it('refuses a sale the kiosk balance cannot cover, moving nothing and writing no sale', async () => {
    await fund('0.001');
    const quote = (await (await browser.post('/rest/v1/kiosk/quote', sale())).json()).data;
    const res = await browser.post('/rest/v1/kiosk/sales', {
      ...sale(),
      amount: quote.amount,
      idempotency_key: 'sale-poor-01',
    });
    expect(res.status).toBe(409);
    expect((await errorOf(res)).code).toBe('INSUFFICIENT_FUNDS');
    expect(await balance(walletOf(customer.id, 'BTC'))).toBe(0);
    expect((await (await browser.get('/rest/v1/kiosk')).json()).data.sales).toEqual([]);
  });

  it.each([
    [{ customer: 'nobody-here-at-all' }, 'customer', 'kiosk_customer_unknown'],
    [{ customer: '' }, 'customer', undefined],
    [{ currency: 'DOGE' }, 'currency', undefined],
    [{ fiatCurrency: 'XXX' }, 'fiatCurrency', 'kiosk_currency_unknown'],
    [{ fiatCurrency: 'usd' }, 'fiatCurrency', undefined],
    [{ fiatAmount: '0' }, 'fiatAmount', undefined],
    [{ fiatAmount: '12.345' }, 'fiatAmount', undefined],
    [{ fiatCurrency: 'VND', fiatAmount: '0.01' }, 'fiatAmount', 'kiosk_amount_too_small'],
  ])('a quote with %j is refused naming %s', async (change, field, key) => {
    const res = await browser.post('/rest/v1/kiosk/quote', sale(change));
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.field).toBe(field);
    if (key) expect(error.details?.[0]?.key).toBe(key);
  });

  it('never sells to the kiosk itself or to a banned account', async () => {
    const self = await browser.post('/rest/v1/kiosk/quote', sale({ customer: kiosk.username.toUpperCase() }));
    expect((await errorOf(self)).details?.[0]?.key).toBe('kiosk_customer_self');
    const banned = await createUser(t, { status: 'banned' });
    const refused = await browser.post('/rest/v1/kiosk/sales', {
      ...sale({ customer: banned.username }),
      amount: '0.001',
      idempotency_key: 'sale-banned-1',
    });
    expect(refused.status).toBe(400);
    expect((await errorOf(refused)).details?.[0]?.key).toBe('kiosk_customer_inactive');
  });

  it('current_user shows the kiosk balance in BTC', async () => {
    await fund('0.1');
    const me = (await (await browser.get('/rest/v1/users/current_user')).json()).data;
    expect(me).toMatchObject({ isKiosk: true, kioskBalance: '0.10000000', merchantBalance: '0.00000000' });
  });
});

describe('ledger:verify', () => {
  it('names a kiosk sale whose receipt row does not match what the ledger credited', async () => {
    await fund('0.1');
    const quote = (await (await browser.post('/rest/v1/kiosk/quote', sale())).json()).data;
    await browser.post('/rest/v1/kiosk/sales', { ...sale(), amount: quote.amount, idempotency_key: 'sale-verify-1' });
    expect(await verifyLedger(t.db)).toEqual([]);
    await t.db.sql.run('UPDATE kiosk_sales SET amount = amount + 1');
    expect((await verifyLedger(t.db)).map((violation) => violation.rule)).toEqual(['kiosk_sale']);
    await t.db.sql.run("UPDATE kiosk_sales SET amount = amount - 1, ledger_transaction_id = 'ltx_gone'");
    expect((await verifyLedger(t.db)).map((violation) => violation.rule)).toEqual(['kiosk_sale', 'kiosk_sale']);
  });
});
