import { generateSync } from 'otplib';
import { afterEach, describe, expect, it } from 'vitest';
import { type BusEvent, createInProcessBus } from '../../server/realtime/bus.ts';
import { BroadcastRejected, type ChainAdapter } from '../../server/services/chain/adapter.ts';
import { createChainRepository } from '../../server/services/chain/repository.ts';
import { createSimulatedChain, type SimulatedChain } from '../../server/services/chain/simulated.ts';
import { systemContext } from '../../server/services/context.ts';
import { verifyLedger } from '../../server/services/ledger/invariants.ts';
import { errorOf } from '../support/api-errors.ts';
import { browserSession } from '../support/browser-session.ts';
import { createTestApp, type TestApp, type TestAppOptions } from '../support/test-app.ts';
import { createUser, type TestUser } from '../support/users.ts';

// The wallet API (issue 5) over the simulated chain: balances, history, deposit addresses and
// sendouts, each with its bad inputs, 401, CSRF and another person's data. verifyLedger after each.

/** The chain job's own context, as its timer runs it. */
const job = systemContext('chain');
let t: TestApp;
afterEach(async () => {
  if (!t) return;
  expect(await verifyLedger(t.db)).toEqual([]);
  await t.close();
});

type Browser = ReturnType<typeof browserSession>;
const PASSWORD = 'Coinfair-demo-2026!';
/** BIP173's example addresses: valid, a typo in the checksum, and the same program on testnet. */
const BTC_ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const BTC_TYPO = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5';
const BTC_TESTNET = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';
const TRON_ADDRESS = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH';
const ETH_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

/** Each test's person, and someone else. */
let person: TestUser;
let other: TestUser;

async function setup(options: TestAppOptions = {}) {
  const bus = createInProcessBus((error) => {
    throw error;
  });
  t = await createTestApp({ bus, ...options });
  person = await createUser(t);
  other = await createUser(t);
  const sql = t.db.sql;
  /** The test's two people by e-mail address (createUser gave their ids). */
  const user = (email: string) => {
    const found = [person, other].find((u) => u.email === email);
    if (!found) throw new Error(`no test user ${email}`);
    return found;
  };
  const events = (email: string) => {
    const seen: BusEvent[] = [];
    bus.subscribe(`wallet:${user(email).publicId}`, (event) => seen.push(event));
    return seen;
  };
  const { chain } = t.services;
  /** A deposit on the simulated chain, mined until credited. */
  const fund = async (email: string, amount: number, currency: 'BTC' | 'USDT' = 'BTC') => {
    await chain.simulateDeposit(job, { userId: user(email).id, currency, amount });
    await chain.mine(job, { ticks: 2 });
  };
  return { sql, user, events, chain, fund, bus };
}

async function signedIn(email = person.email) {
  const b = browserSession(t);
  expect((await b.post('/rest/v1/auth/login', { email, password: PASSWORD })).status).toBe(200);
  return b;
}

const json = async (res: Response) => (await res.json()) as { data: any; meta?: any; errors?: any[] };
describe('GET /rest/v1/balances', () => {
  it('answers both currencies at zero before anything arrived (spec section 9)', async () => {
    await setup();
    const b = await signedIn();
    const res = await b.get('/rest/v1/balances');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: [
        { cryptoCurrencyCode: 'BTC', balance: '0.00000000', incoming: '0.00000000' },
        { cryptoCurrencyCode: 'USDT', balance: '0.000000', incoming: '0.000000' },
      ],
    });
  });

  it('needs a session', async () => {
    await setup();
    for (const path of [
      '/rest/v1/balances',
      '/rest/v1/wallet/transactions',
      '/rest/v1/wallet/deposit-address?currency=BTC',
    ]) {
      const res = await browserSession(t).get(path);
      expect(res.status).toBe(401);
      expect((await errorOf(res)).code).toBe('UNAUTHENTICATED');
    }
  });
});

describe('a deposit from incoming to credited', () => {
  it('shows as incoming, confirms after 2 blocks, is credited once and announced on the wallet channel', async () => {
    const { chain, user, events } = await setup();
    const b = await signedIn();
    const seen = events(person.email);
    const row = await chain.simulateDeposit(job, {
      userId: user(person.email).id,
      currency: 'BTC',
      amount: 50_000_000,
    });
    expect(seen).toEqual([{ type: 'balances', payload: null }]);

    expect((await json(await b.get('/rest/v1/balances'))).data[0]).toEqual({
      cryptoCurrencyCode: 'BTC',
      balance: '0.00000000',
      incoming: '0.50000000',
    });
    const me = (await json(await b.get('/rest/v1/users/me'))).data;
    expect(me.balance).toBe('0.00000000');
    expect(me.wallet).toEqual({
      incomingAmount: '0.50000000',
      bond: '0.00000000',
      isAllowedSendout: true,
      isKYCRequired: false,
    });
    const pending = await json(await b.get('/rest/v1/wallet/transactions'));
    expect(pending.data).toEqual([
      {
        id: row.publicId,
        type: 'deposit',
        cryptoCurrencyCode: 'BTC',
        amount: '0.50000000',
        status: 'incoming',
        createdAt: Math.floor(t.clock.now / 1000),
        txid: row.txid,
        network: 'bitcoin',
        address: row.address,
        confirmations: 0,
        requiredConfirmations: 2,
      },
    ]);

    await chain.mine(job, { ticks: 1 });
    expect((await json(await b.get('/rest/v1/wallet/transactions'))).data[0]).toMatchObject({
      status: 'incoming',
      confirmations: 1,
    });
    expect((await json(await b.get('/rest/v1/balances'))).data[0].balance).toBe('0.00000000');

    await chain.mine(job, { ticks: 1 });
    expect((await json(await b.get('/rest/v1/balances'))).data[0]).toEqual({
      cryptoCurrencyCode: 'BTC',
      balance: '0.50000000',
      incoming: '0.00000000',
    });
    const after = (await json(await b.get('/rest/v1/users/me'))).data;
    expect(after.balance).toBe('0.50000000');
    expect(after.wallet.incomingAmount).toBe('0.00000000');
    const credited = (await json(await b.get('/rest/v1/wallet/transactions'))).data;
    expect(credited).toHaveLength(1);
    expect(credited[0]).toMatchObject({
      id: expect.stringMatching(/^ltx_/),
      type: 'deposit',
      amount: '0.50000000',
      status: 'confirmed',
      txid: row.txid,
      confirmations: 2,
    });
    // The ledger's event and the chain job's each tell the screen to reload.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.every((event) => event.type === 'balances')).toBe(true);

    // More blocks and more rounds change nothing.
    await chain.mine(job, { ticks: 3 });
    await chain.tick();
    expect((await json(await b.get('/rest/v1/balances'))).data[0].balance).toBe('0.50000000');
  });

  it('credits USDT on TRC-20 after 19 blocks (two ticks of the simulated chain)', async () => {
    const { chain, user } = await setup();
    const b = await signedIn();
    await chain.simulateDeposit(job, { userId: user(person.email).id, currency: 'USDT', amount: 12_250_000 });
    await chain.mine(job, { ticks: 1 });
    expect((await json(await b.get('/rest/v1/balances'))).data[1]).toEqual({
      cryptoCurrencyCode: 'USDT',
      balance: '0.000000',
      incoming: '12.250000',
    });
    await chain.mine(job, { ticks: 1 });
    expect((await json(await b.get('/rest/v1/balances'))).data[1].balance).toBe('12.250000');
  });

  it('never shows one person’s wallet to another', async () => {
    const { fund, events } = await setup();
    await fund(person.email, 1_000_000);
    const vendorEvents = events(other.email);
    await fund(person.email, 1_000_000);
    expect(vendorEvents).toEqual([]);
    const vendor = await signedIn(other.email);
    expect((await json(await vendor.get('/rest/v1/balances'))).data[0].balance).toBe('0.00000000');
    expect((await json(await vendor.get('/rest/v1/wallet/transactions'))).data).toEqual([]);
    const buyerAddress = (await json(await (await signedIn()).get('/rest/v1/wallet/deposit-address?currency=BTC')))
      .data;
    const vendorAddress = (await json(await vendor.get('/rest/v1/wallet/deposit-address?currency=BTC'))).data;
    expect(vendorAddress.address).not.toBe(buyerAddress.address);
  });
});

describe('GET /rest/v1/wallet/transactions', () => {
  it('pages by 50, newest first', async () => {
    const { chain, user } = await setup();
    const b = await signedIn();
    const buyer = user(person.email).id;
    for (let i = 1; i <= 51; i++) {
      t.clock.now += 1000;
      await chain.simulateDeposit(job, { userId: buyer, currency: 'BTC', amount: i * 1000 });
    }
    const first = await json(await b.get('/rest/v1/wallet/transactions'));
    expect(first.data).toHaveLength(50);
    expect(first.data[0].amount).toBe('0.00051000');
    expect(first.meta).toEqual({ page: 1, perPage: 50, nextPageExist: true });
    const second = await json(await b.get('/rest/v1/wallet/transactions?page=2'));
    expect(second.data.map((e: { amount: string }) => e.amount)).toEqual(['0.00001000']);
    expect(second.meta).toEqual({ page: 2, perPage: 50, nextPageExist: false });
    expect((await json(await b.get('/rest/v1/wallet/transactions?page=3'))).data).toEqual([]);
  });

  it.each(['0', '-1', 'abc', '1.5', '999999'])('refuses page=%s', async (page) => {
    await setup();
    const b = await signedIn();
    const res = await b.get(`/rest/v1/wallet/transactions?page=${page}`);
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'page' });
  });
});

describe('GET /rest/v1/wallet/deposit-address', () => {
  it('creates one BTC (native segwit) and one USDT (TRC-20) address per person, with a QR code', async () => {
    const { sql } = await setup();
    const b = await signedIn();
    const btc = await json(await b.get('/rest/v1/wallet/deposit-address?currency=BTC'));
    expect(btc.data).toEqual({
      cryptoCurrencyCode: 'BTC',
      network: 'bitcoin',
      // The first receive address of the BIP84 test vector's account (the development key).
      address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      qrSvg: expect.stringMatching(/^<svg[^>]*>[\s\S]*<\/svg>$/),
      requiredConfirmations: 2,
    });
    expect((await json(await b.get('/rest/v1/wallet/deposit-address?currency=BTC'))).data.address).toBe(
      btc.data.address,
    );
    const usdt = await json(await b.get('/rest/v1/wallet/deposit-address?currency=USDT'));
    expect(usdt.data).toMatchObject({ cryptoCurrencyCode: 'USDT', network: 'TRC20', requiredConfirmations: 19 });
    expect(usdt.data.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const vendor = await signedIn(other.email);
    expect((await json(await vendor.get('/rest/v1/wallet/deposit-address?currency=BTC'))).data.address).toBe(
      'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g',
    );
    expect(await sql.all('SELECT network, derivation_index FROM deposit_addresses ORDER BY id')).toEqual([
      { network: 'bitcoin', derivation_index: 0 },
      { network: 'TRC20', derivation_index: 0 },
      { network: 'bitcoin', derivation_index: 1 },
    ]);
  });

  it.each(['', '?currency=ETH', '?currency=btc'])('refuses %s', async (query) => {
    await setup();
    const b = await signedIn();
    const res = await b.get(`/rest/v1/wallet/deposit-address${query}`);
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'currency' });
  });
});

describe('POST /rest/v1/wallet/send', () => {
  const send = (b: Browser, body: Record<string, unknown>) =>
    b.post('/rest/v1/wallet/send', {
      currency: 'BTC',
      address: BTC_ADDRESS,
      amount: '0.005',
      request_id: 'r1',
      ...body,
    });

  it('lets 50 concurrent sendouts that together exceed the balance drain it to zero, never below', async () => {
    const { fund } = await setup();
    // 0.01 BTC; each sendout takes 0.001 + 0.00002 fee, so 9 fit and 41 must be refused.
    await fund(person.email, 1_000_000);
    const b = await signedIn();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => send(b, { amount: '0.001', request_id: `burst-${i}` })),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(9);
    expect(statuses.filter((s) => s === 409)).toHaveLength(41);
    expect((await json(await b.get('/rest/v1/balances'))).data[0].balance).toBe('0.00082000');
    expect(await verifyLedger(t.db)).toEqual([]);
  });

  it('makes 50 concurrent copies of one sendout a single sendout', async () => {
    const { fund } = await setup();
    await fund(person.email, 1_000_000);
    const b = await signedIn();
    const answers = await Promise.all(Array.from({ length: 50 }, () => send(b, { request_id: 'same-one' })));
    const ids = new Set(await Promise.all(answers.map(async (res) => (await json(res)).data.id)));
    expect(ids.size).toBe(1);
    expect((await json(await b.get('/rest/v1/balances'))).data[0].balance).toBe('0.00498000');
  });

  it('debits amount and fee into the hold, broadcasts, confirms; a retry answers the first sendout', async () => {
    const { fund, chain } = await setup();
    await fund(person.email, 1_000_000);
    const b = await signedIn();
    const res = await send(b, {});
    expect(res.status).toBe(201);
    const { data, meta } = await json(res);
    expect(meta).toEqual({ replayed: false });
    expect(data).toMatchObject({
      id: expect.stringMatching(/^chn_[0-9A-Za-z]{16}$/),
      cryptoCurrencyCode: 'BTC',
      network: 'bitcoin',
      address: BTC_ADDRESS,
      amount: '0.00500000',
      fee: '0.00002000',
      status: 'pending',
      txid: null,
      requiredConfirmations: 2,
    });
    expect((await json(await b.get('/rest/v1/balances'))).data[0].balance).toBe('0.00498000');

    const retry = await send(b, {});
    expect(retry.status).toBe(200);
    expect((await json(retry)).data.id).toBe(data.id);
    const reused = await send(b, { amount: '0.006' });
    expect(reused.status).toBe(400);
    expect(await errorOf(reused)).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', field: 'request_id' });
    expect((await json(await b.get('/rest/v1/balances'))).data[0].balance).toBe('0.00498000');

    await chain.tick();
    const broadcast = await chain.byPublicId(job, { publicId: data.id });
    expect(broadcast).toMatchObject({ status: 'broadcast', txid: expect.stringMatching(/^[0-9a-f]{64}$/) });
    await chain.mine(job, { ticks: 2 });
    expect(await chain.byPublicId(job, { publicId: data.id })).toMatchObject({ status: 'confirmed', confirmations: 2 });
    const history = (await json(await b.get('/rest/v1/wallet/transactions'))).data;
    expect(history[0]).toMatchObject({
      type: 'sendout',
      amount: '-0.00502000',
      fee: '0.00002000',
      status: 'confirmed',
      txid: broadcast?.txid,
      address: BTC_ADDRESS,
    });
    expect(history[1]).toMatchObject({ type: 'deposit', amount: '0.01000000', status: 'confirmed' });
  });

  it('returns the hold to the wallet exactly once when the network refuses the sendout', async () => {
    let broadcasts = 0;
    const refusing: Partial<ChainAdapter> = {
      async broadcast() {
        broadcasts++;
        throw new BroadcastRejected('insufficient funds in the hot wallet');
      },
    };
    const { fund, chain } = await setupWith(refusing);
    await fund(person.email, 1_000_000);
    const b = await signedIn();
    const { data } = await json(await send(b, {}));
    await Promise.all([chain.tick(), chain.tick()]);
    await chain.tick();
    expect(broadcasts).toBe(1);
    expect(await chain.byPublicId(job, { publicId: data.id })).toMatchObject({
      status: 'failed',
      failureReason: expect.stringContaining('hot wallet'),
    });
    const failed = await chain.byPublicId(job, { publicId: data.id });
    expect(await chain.creditDeposit(job, { id: failed?.id ?? 0 })).toBe(false);
    expect((await json(await b.get('/rest/v1/balances'))).data[0].balance).toBe('0.01000000');
    const history = (await json(await b.get('/rest/v1/wallet/transactions'))).data;
    expect(history.slice(0, 2)).toMatchObject([
      { type: 'sendout_return', amount: '0.00502000', status: 'completed', txid: null },
      { type: 'sendout', amount: '-0.00502000', status: 'failed' },
    ]);
  });

  it('keeps a sendout with an unknown outcome pending and never sends it twice', async () => {
    let broadcasts = 0;
    const { fund, chain } = await setupWith({
      async broadcast() {
        broadcasts++;
        throw new Error('socket hang up');
      },
    });
    await fund(person.email, 1_000_000);
    const b = await signedIn();
    const { data } = await json(await send(b, {}));
    await chain.tick();
    await chain.tick();
    expect(broadcasts).toBe(1);
    expect(await chain.byPublicId(job, { publicId: data.id })).toMatchObject({
      status: 'pending',
      broadcastStartedAt: expect.any(Number),
    });
    expect((await json(await b.get('/rest/v1/balances'))).data[0].balance).toBe('0.00498000');
  });

  it.each([
    [{ address: 'hello' }, 'address', 'not a bitcoin address'],
    [{ address: BTC_TYPO }, 'address', 'checksum'],
    [{ address: BTC_TESTNET }, 'address', 'another network'],
    [{ address: TRON_ADDRESS }, 'address', 'another network'],
    [{ amount: '0.123456789' }, 'amount', 'at most 8 digits'],
    [{ amount: '0' }, 'amount', 'smallest sendout'],
    [{ amount: '0.00009999' }, 'amount', 'smallest sendout is 0.00010000 BTC'],
    [{ amount: '-1' }, 'amount', 'at most 8 digits'],
    [{ amount: '1e-3' }, 'amount', 'at most 8 digits'],
    [{ amount: 0.005 }, 'amount', 'must be text'],
    [{ network: 'TRC20' }, 'network', 'bitcoin'],
    [{ currency: 'USDT', address: TRON_ADDRESS, amount: '5', network: undefined }, 'network', 'TRC20, ERC20'],
    [{ currency: 'USDT', address: TRON_ADDRESS, amount: '5.1234567', network: 'TRC20' }, 'amount', 'at most 6'],
    [{ currency: 'USDT', address: ETH_ADDRESS, amount: '5', network: 'TRC20' }, 'address', 'another network'],
    [{ currency: 'USDT', address: BTC_ADDRESS, amount: '20', network: 'ERC20' }, 'address', 'another network'],
    [
      { currency: 'USDT', address: ETH_ADDRESS.toLowerCase().replace('0x5a', '0x5A'), amount: '20', network: 'ERC20' },
      'address',
      'typo',
    ],
    [{ currency: 'DOGE' }, 'currency', 'BTC or USDT'],
    [{ request_id: '' }, 'request_id', 'letters'],
    [{ request_id: 'has space' }, 'request_id', 'letters'],
    [{ address: '' }, 'address', 'required'],
  ])('refuses %j with a message on %s', async (body, field, message) => {
    const { fund } = await setup();
    await fund(person.email, 1_000_000);
    const b = await signedIn();
    const res = await send(b, body);
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field });
    expect(error.details?.find((d) => d.field === field)?.message).toContain(message);
    expect((await json(await b.get('/rest/v1/balances'))).data[0].balance).toBe('0.01000000');
  });

  it('refuses more than the balance less the network fee, with nothing written', async () => {
    const { fund, sql } = await setup();
    await fund(person.email, 1_000_000);
    const b = await signedIn();
    const res = await send(b, { amount: '0.00999' });
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toMatchObject({ code: 'INSUFFICIENT_FUNDS', field: 'amount' });
    const sendouts = await sql.get<{ n: number }>(
      "SELECT count(*) AS n FROM chain_transactions WHERE direction = 'out'",
    );
    expect(sendouts?.n).toBe(0);
    expect((await send(b, { amount: '0.00998' })).status).toBe(201);
    expect((await json(await b.get('/rest/v1/balances'))).data[0].balance).toBe('0.00000000');
  });

  it('answers in the reader’s language', async () => {
    const { fund } = await setup();
    await fund(person.email, 1_000_000);
    const b = await signedIn();
    const res = await b.post('/rest/v1/wallet/send?locale=de', {
      currency: 'BTC',
      address: BTC_TYPO,
      amount: '0.005',
      request_id: 'r1',
    });
    const error = await errorOf(res);
    expect(error.details?.[0]?.message).not.toContain('typo');
  });

  it('needs the allowed-sendout flag: a verified e-mail address and an active account', async () => {
    const { sql, fund } = await setup();
    await fund(person.email, 1_000_000);
    const b = await signedIn();
    await sql.run('UPDATE users SET is_email_verified = 0 WHERE id = ?', [person.id]);
    expect((await json(await b.get('/rest/v1/users/me'))).data.wallet.isAllowedSendout).toBe(false);
    const res = await send(b, {});
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toMatchObject({ code: 'FORBIDDEN' });
    const suspended = await (await createUser(t, { status: 'suspended' })).signIn();
    expect((await json(await suspended.get('/rest/v1/users/me'))).data.wallet.isAllowedSendout).toBe(false);
    expect((await send(suspended, {})).status).toBe(403);
  });

  it('asks for the sendout second factor when it is on', async () => {
    const { fund } = await setup();
    await fund(person.email, 1_000_000);
    const b = await signedIn();
    const { secret } = (await json(await b.post('/rest/v1/users/2fa/setup'))).data;
    const codeAt = (offsetMs: number) => generateSync({ secret, epoch: Math.floor((t.clock.now + offsetMs) / 1000) });
    expect((await b.post('/rest/v1/users/2fa/confirm', { code: codeAt(0) })).status).toBe(200);
    t.clock.now += 30_000;

    const missing = await send(b, {});
    expect(missing.status).toBe(401);
    expect(await errorOf(missing)).toMatchObject({ code: 'TWO_FACTOR_REQUIRED', field: 'code' });
    const wrong = await send(b, { code: codeAt(10 * 30_000) });
    expect(wrong.status).toBe(401);
    expect(await errorOf(wrong)).toMatchObject({ code: 'TWO_FACTOR_INVALID', field: 'code' });
    const right = await send(b, { code: codeAt(0) });
    expect(right.status).toBe(201);
    // A retry finds its first sendout without a new code: the first one is spent.
    expect((await send(b, { code: codeAt(0) })).status).toBe(200);
  });

  it('says when the chain in use cannot send on a network', async () => {
    const { fund } = await setupWith({ sendNetworks: ['bitcoin'] });
    await fund(person.email, 30_000_000, 'USDT');
    const b = await signedIn();
    const res = await send(b, { currency: 'USDT', address: TRON_ADDRESS, amount: '5', network: 'TRC20' });
    expect(res.status).toBe(503);
    expect(await errorOf(res)).toMatchObject({ code: 'SENDOUT_UNAVAILABLE', field: 'network' });
  });

  it('needs a session and the CSRF token', async () => {
    await setup();
    const anonymous = await browserSession(t).post('/rest/v1/wallet/send', {
      currency: 'BTC',
      address: BTC_ADDRESS,
      amount: '0.005',
      request_id: 'r1',
    });
    expect(anonymous.status).toBe(401);
    const b = await signedIn();
    // The session cookie and the CSRF cookie, but no X-CSRF-Token header: what a forged form sends.
    const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await t.app.request(`${b.origin}/rest/v1/wallet/send`, {
      method: 'POST',
      headers: { cookie, origin: b.origin, 'content-type': 'application/json' },
      body: JSON.stringify({ currency: 'BTC', address: BTC_ADDRESS, amount: '0.005', request_id: 'r1' }),
    });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe('CSRF_TOKEN_MISMATCH');
  });
});

/** The simulated chain with some of its methods replaced. */
function setupWith(overrides: Partial<ChainAdapter>) {
  return setup({
    chainAdapter: (db) => {
      const simulated = createSimulatedChain({ repo: createChainRepository(db), blockSeconds: 30 });
      return Object.assign(Object.create(simulated), simulated, overrides) as SimulatedChain;
    },
  });
}
