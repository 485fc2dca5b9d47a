import { afterEach, describe, expect, it } from 'vitest';
import de from '../../locales/de.json' with { type: 'json' };
import type { AuthState } from '../../server/http/auth.ts';
import { personContext, systemContext } from '../../server/services/context.ts';
import { createHedgingService } from '../../server/services/hedging/hedging.ts';
import { verifyLedger } from '../../server/services/ledger/invariants.ts';
import { systemAccount, walletOf } from '../../server/services/ledger/ledger.ts';
import { browserSession } from '../support/browser-session.ts';
import { createTestApp, TEST_NOW, type TestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';

// POST /rest/v1/hedging/convert: BTC↔USDT through the conversion desk at a live quote. The test
// feed stands at 90,000 USD per BTC and 1 per USDT; the quote's spread is 0.5 % (ask 90,225.00,
// bid 89,775.00 USDT per BTC).

const testContext = systemContext('test');
let t: TestApp;
afterEach(() => t?.close());

type Browser = ReturnType<typeof browserSession>;

async function setUp() {
  t = await createTestApp();
  t.priceFeed.resumeFrom({ at: TEST_NOW, usd: { BTC: 90_000, USDT: 1 } });
}

/** Some person signed in with the password: a fresh one unless named. */
async function signedIn(name?: string): Promise<{ b: Browser; userId: number }> {
  const email = name ?? (await createUser(t)).email;
  const b = browserSession(t);
  const res = await b.post('/rest/v1/auth/login', { email, password: 'Coinfair-demo-2026!' });
  expect(res.status).toBe(200);
  const row = (await t.db.sql.get<{ id: number }>('SELECT id FROM users WHERE email = ?', [email])) as { id: number };
  return { b, userId: row.id };
}

/** Money arriving from the chain, as a confirmed deposit posts it. */
async function fund(userId: number, currency: 'BTC' | 'USDT', amount: number) {
  await t.services.ledger.post(
    { actor: { type: 'system', name: 'test' } },
    {
      kind: 'deposit',
      idempotencyKey: `fund:${userId}:${currency}:${amount}:${Math.random()}`,
      legs: [
        { account: systemAccount('chain_in', currency), amount: -amount },
        { account: walletOf(userId, currency), amount },
      ],
    },
  );
}

const quoteId = async () => {
  const quote = await t.services.quotes.current(testContext);
  if (!quote) throw new Error('no quote');
  return quote.id;
};

const body = async (overrides: Record<string, unknown> = {}) => ({
  from_crypto_currency_code: 'USDT',
  to_crypto_currency_code: 'BTC',
  amount: '902.25',
  quote_id: await quoteId(),
  order_id: `order-${Math.random().toString(36).slice(2, 12)}`,
  ...overrides,
});

describe('POST /rest/v1/hedging/convert', () => {
  it('converts USDT to BTC at the ask, through the desk, and reports the amount received', async () => {
    await setUp();
    const { b, userId } = await signedIn();
    await fund(userId, 'USDT', 1_000_000_000); // 1,000 USDT
    const res = await b.post('/rest/v1/hedging/convert', await body());
    expect(res.status).toBe(200);
    const { data } = await res.json();
    // 902.25 USDT at 90,225.00 USDT per BTC = 0.01 BTC.
    expect(data).toMatchObject({
      currencyToCode: 'BTC',
      amountTo: '0.01000000',
      currencyFromCode: 'USDT',
      amountFrom: '902.250000',
      price: 90_225,
    });
    expect(await t.services.ledger.balances(testContext, { userId: userId })).toEqual({
      BTC: 1_000_000,
      USDT: 97_750_000,
    });
    expect(await verifyLedger(t.db)).toEqual([]);
  });

  it('answers a retry of the same order with the first result and moves nothing twice, even after the quote expired', async () => {
    await setUp();
    const { b, userId } = await signedIn();
    await fund(userId, 'USDT', 2_000_000_000);
    const request = await body();
    const first = await (await b.post('/rest/v1/hedging/convert', request)).json();
    t.clock.now += 10 * 60_000;
    const again = await b.post('/rest/v1/hedging/convert', request);
    expect(again.status).toBe(200);
    expect((await again.json()).data).toEqual(first.data);
    expect(await t.services.ledger.balances(testContext, { userId: userId })).toEqual({
      BTC: 1_000_000,
      USDT: 1_097_750_000,
    });
    // Again at a new quote: still the first conversion.
    t.priceFeed.resumeFrom({ at: t.clock.now, usd: { BTC: 95_000, USDT: 1 } });
    const atNewQuote = await b.post('/rest/v1/hedging/convert', { ...request, quote_id: await quoteId() });
    expect((await atNewQuote.json()).data).toEqual(first.data);
    expect(await t.services.ledger.balances(testContext, { userId: userId })).toEqual({
      BTC: 1_000_000,
      USDT: 1_097_750_000,
    });
    // The same order id for another amount is refused.
    const other = await b.post('/rest/v1/hedging/convert', { ...request, amount: '500' });
    expect(other.status).toBe(400);
    expect((await other.json()).errors[0]).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', field: 'order_id' });
  });

  it('turns 50 concurrent copies of one order into one conversion', async () => {
    await setUp();
    const { b, userId } = await signedIn();
    await fund(userId, 'USDT', 1_000_000_000);
    const request = await body();
    const answers = await Promise.all(Array.from({ length: 50 }, () => b.post('/rest/v1/hedging/convert', request)));
    expect(answers.map((res) => res.status)).toEqual(Array(50).fill(200));
    const conversions = await t.db.sql.get<{ n: number }>(
      `SELECT count(*) AS n FROM ledger_transactions WHERE kind = 'conversion'`,
    );
    expect(Number(conversions?.n)).toBe(1);
    expect(await t.services.ledger.balances(testContext, { userId: userId })).toEqual({
      BTC: 1_000_000,
      USDT: 97_750_000,
    });
  });

  it('keeps order ids per person: another user may use the same one', async () => {
    await setUp();
    const one = await signedIn();
    const two = await signedIn();
    await fund(one.userId, 'USDT', 1_000_000_000);
    await fund(two.userId, 'USDT', 1_000_000_000);
    const request = await body({ order_id: 'shared-order-1' });
    expect((await one.b.post('/rest/v1/hedging/convert', request)).status).toBe(200);
    expect((await two.b.post('/rest/v1/hedging/convert', request)).status).toBe(200);
    expect((await t.services.ledger.balances(testContext, { userId: two.userId })).BTC).toBe(1_000_000);
  });

  it('refuses more than the wallet holds with nothing written', async () => {
    await setUp();
    const { b, userId } = await signedIn();
    await fund(userId, 'USDT', 100_000_000); // 100 USDT
    const res = await b.post('/rest/v1/hedging/convert', await body({ amount: '150' }));
    expect(res.status).toBe(409);
    expect((await res.json()).errors[0].code).toBe('INSUFFICIENT_FUNDS');
    expect(await t.services.ledger.balances(testContext, { userId: userId })).toEqual({ BTC: 0, USDT: 100_000_000 });
  });

  it('refuses an expired or unknown quote, as retryable codes', async () => {
    await setUp();
    const { b, userId } = await signedIn();
    await fund(userId, 'USDT', 1_000_000_000);
    const stale = await body();
    t.clock.now += 31_000;
    const expired = await b.post('/rest/v1/hedging/convert', stale);
    expect(expired.status).toBe(409);
    expect((await expired.json()).errors[0].code).toBe('QUOTE_EXPIRED');
    const unknown = await b.post('/rest/v1/hedging/convert', { ...stale, quote_id: 'qt_nothing' });
    expect((await unknown.json()).errors[0].code).toBe('QUOTE_UNKNOWN');
    expect((await t.services.ledger.balances(testContext, { userId: userId })).USDT).toBe(1_000_000_000);
    const settings = await (await t.send('/rest/v1/hedging/settings')).json();
    expect(settings.data.retryableCodes).toContain('QUOTE_EXPIRED');
  });

  it.each([
    [{ amount: '0' }, 'amount'],
    [{ amount: '-5' }, 'amount'],
    [{ amount: '10.1234567' }, 'amount'],
    [{ amount: '9.99' }, 'amount'],
    [{ amount: '250000.000001' }, 'amount'],
    [{ amount: 'lots' }, 'amount'],
    [{ to_crypto_currency_code: 'USDT' }, 'to_crypto_currency_code'],
    [{ from_crypto_currency_code: 'ETH' }, 'from_crypto_currency_code'],
    [{ order_id: 'short' }, 'order_id'],
    [{ order_id: 'has spaces in it' }, 'order_id'],
    [{ quote_id: '' }, 'quote_id'],
  ])('refuses %o on the field %s with nothing written', async (overrides, field) => {
    await setUp();
    const { b, userId } = await signedIn();
    await fund(userId, 'USDT', 1_000_000_000);
    const res = await b.post('/rest/v1/hedging/convert', await body(overrides));
    expect(res.status).toBe(400);
    const error = (await res.json()).errors[0];
    expect(error.code).toBe('ERROR_INPUT_VALIDATION');
    expect(error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect((await t.services.ledger.balances(testContext, { userId: userId })).USDT).toBe(1_000_000_000);
  });

  it('converts bitcoin only for a verified identity (spec section 6)', async () => {
    await setUp();
    const { b, userId } = await signedIn();
    await fund(userId, 'BTC', 10_000_000);
    const refused = await b.post(
      '/rest/v1/hedging/convert',
      await body({ from_crypto_currency_code: 'BTC', to_crypto_currency_code: 'USDT', amount: '0.01' }),
    );
    expect(refused.status).toBe(403);
    expect((await refused.json()).errors[0].message).toContain('Verify your identity');
    const german = await b.post(
      '/rest/v1/hedging/convert?locale=de',
      await body({ from_crypto_currency_code: 'BTC', to_crypto_currency_code: 'USDT', amount: '0.01' }),
    );
    // The German text of the same error, as the translators wrote it (not the English one).
    expect((await german.json()).errors[0].message).toBe(de['errors.hedging_id_required']);

    // An operator verified the identity (npm run admin -- user:verify-id): now it converts.
    await t.db.sql.run('UPDATE users SET id_verified_at = ? WHERE id = ?', [TEST_NOW, userId]);
    const allowed = await b.post(
      '/rest/v1/hedging/convert',
      await body({ from_crypto_currency_code: 'BTC', to_crypto_currency_code: 'USDT', amount: '0.01' }),
    );
    expect(allowed.status).toBe(200);
    expect((await allowed.json()).data).toMatchObject({ currencyToCode: 'USDT', amountTo: '897.750000' });
    expect((await (await b.get('/rest/v1/users/me')).json()).data.isIdVerified).toBe(true);

    // With the verification issue's check answering yes: BTC → USDT at the bid, rounded down.
    const verified = createHedgingService({
      ledger: t.services.ledger,
      quotes: t.services.quotes,
      isIdVerified: () => true,
    });
    const auth = { user: { id: userId, status: 'active' } } as AuthState;
    const result = await verified.convert(personContext(auth), {
      from_crypto_currency_code: 'BTC',
      to_crypto_currency_code: 'USDT',
      amount: '0.01',
      quote_id: await quoteId(),
      order_id: 'btc-order-1',
    });
    expect(result).toMatchObject({ currencyToCode: 'USDT', amountTo: '897.750000', price: 89_775 });
    expect(await verifyLedger(t.db)).toEqual([]);
  });

  it('needs a session and the CSRF token; a suspended account cannot convert', async () => {
    await setUp();
    expect((await t.send('/rest/v1/hedging/convert', { method: 'POST', json: await body() })).status).toBe(401);
    const { b } = await signedIn();
    const res = await t.send('/rest/v1/hedging/convert', {
      method: 'POST',
      json: await body(),
      headers: { cookie: `session=${b.jar.get('session')}`, 'x-csrf-token': 'wrong' },
    });
    expect(res.status).toBe(403);
    const suspended = await signedIn((await createUser(t, { status: 'suspended' })).email);
    const refused = await suspended.b.post('/rest/v1/hedging/convert', await body());
    expect(refused.status).toBe(403);
  });

  it('publishes the limits and whether a quote is available', async () => {
    await setUp();
    const { data } = await (await t.send('/rest/v1/hedging/settings')).json();
    expect(data).toMatchObject({
      enabled: true,
      available: true,
      limits: { BTC: { min: '0.00010000', max: '5.00000000' }, USDT: { min: '10.000000', max: '250000.000000' } },
    });
  });
});
