import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isApiPath } from '../../server/app.ts';
import { systemContext } from '../../server/services/context.ts';
import { systemAccount, walletOf } from '../../server/services/ledger/ledger.ts';
import { publicKeyFromRaw, verifyStatement } from '../../server/services/statements/signature.ts';
import { errorOf } from '../support/api-errors.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createUser, type TestUser } from '../support/users.ts';

// Signed account statements (issue 24; docs/decisions/147-signed-statements.md): a person's
// balances now and per ended month, signed with the platform's Ed25519 key, which anyone reads at
// /.well-known/coinfair-statement-key. The person's October: 0.01 BTC in on the 10th, 0.0025 BTC
// out on the 20th; November: 5 USDT in on the 5th; the clock then stands in December.

const OCT_10 = Date.UTC(2026, 9, 10, 9);
const OCT_20 = Date.UTC(2026, 9, 20, 9);
const NOV_5 = Date.UTC(2026, 10, 5, 9);
const DEC_2 = Date.UTC(2026, 11, 2, 12);
const ctx = systemContext('test');

let t: TestApp;
let person: TestUser;
let session: Awaited<ReturnType<TestUser['session']>>;

const post = (kind: 'deposit' | 'sendout', currency: 'BTC' | 'USDT', amount: number, key: string) =>
  t.services.ledger.post(ctx, {
    kind,
    idempotencyKey: key,
    legs:
      kind === 'deposit'
        ? [
            { account: systemAccount('chain_in', currency), amount: -amount },
            { account: walletOf(person.id, currency), amount },
          ]
        : [
            { account: walletOf(person.id, currency), amount: -amount },
            { account: systemAccount('chain_out', currency), amount },
          ],
  });

beforeEach(async () => {
  t = await createTestApp({ clock: { now: OCT_10 } });
  person = await createUser(t, { funded: { BTC: 1_000_000 } });
  t.clock.now = OCT_20;
  await post('sendout', 'BTC', 250_000, 'out-oct-20');
  t.clock.now = NOV_5;
  await post('deposit', 'USDT', 5_000_000, 'in-nov-5');
  t.clock.now = DEC_2;
  session = await person.session();
});
afterEach(() => t?.close());

const month = async (period: string) => session.get(`/rest/v1/statements/month?period=${period}`);
const publishedKey = async () => {
  const res = await t.send('/.well-known/coinfair-statement-key');
  return { res, body: await res.json() };
};

describe('GET /rest/v1/statements/month', () => {
  it('states an ended month: opening, movements and closing per currency, signed with the published key', async () => {
    const res = await month('2026-10');
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toMatchObject({ algorithm: 'Ed25519', canonicalization: 'RFC8785' });
    expect(data.statement).toMatchObject({
      type: 'coinfair.statement',
      version: 1,
      issuer: 'http://localhost',
      keyId: data.keyId,
      account: { id: person.publicId, username: person.username },
      kind: 'monthly',
      period: '2026-10',
      from: '2026-10-01T00:00:00.000Z',
      to: '2026-11-01T00:00:00.000Z',
    });
    expect(data.statement.currencies).toEqual([
      {
        currency: 'BTC',
        opening: '0.00000000',
        credits: '0.01000000',
        debits: '0.00250000',
        closing: '0.00750000',
        accounts: [
          {
            account: 'user_wallet',
            opening: '0.00000000',
            credits: '0.01000000',
            debits: '0.00250000',
            closing: '0.00750000',
            movements: [
              { kind: 'deposit', credits: '0.01000000', debits: '0.00000000', transactions: 1 },
              { kind: 'sendout', credits: '0.00000000', debits: '0.00250000', transactions: 1 },
            ],
          },
        ],
      },
      {
        currency: 'USDT',
        opening: '0.000000',
        credits: '0.000000',
        debits: '0.000000',
        closing: '0.000000',
        accounts: [],
      },
    ]);
    const { body: key } = await publishedKey();
    expect(key.keys[0].kid).toBe(data.keyId);
    expect(verifyStatement(data.statement, data.signature, publicKeyFromRaw(key.keys[0].x))).toBe(true);
  });

  it('carries the opening balance over and gives the same bytes and signature every time, later postings aside', async () => {
    const first = await (await month('2026-11')).json();
    const usdt = first.data.statement.currencies[1];
    expect(first.data.statement.currencies[0]).toMatchObject({ opening: '0.00750000', closing: '0.00750000' });
    expect(usdt).toMatchObject({ opening: '0.000000', credits: '5.000000', closing: '5.000000' });
    // December's money moves; November stays what it was.
    await post('deposit', 'BTC', 40_000, 'in-dec-2');
    t.clock.now += 86_400_000;
    const again = await (await month('2026-11')).json();
    expect(again).toEqual(first);
  });

  it('states a month before any money as zeros', async () => {
    const { data } = await (await month('2026-09')).json();
    expect(data.statement.currencies.map((c: { closing: string }) => c.closing)).toEqual(['0.00000000', '0.000000']);
  });

  it.each([
    ['October', 'must be a month as YYYY-MM'],
    ['2026-13', 'must be a month as YYYY-MM'],
    ['2026-1', 'must be a month as YYYY-MM'],
    ['2027-01', 'is in the future'],
    ['2026-12', 'has not ended yet'],
  ])('refuses period %s: 400 naming the field', async (period, message) => {
    const res = await month(period);
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'period' });
    expect(error.message).toContain(message);
  });

  it('refuses a missing period, and a month that ended minutes ago until it settled', async () => {
    const missing = await session.get('/rest/v1/statements/month');
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).field).toBe('period');
    t.clock.now = Date.UTC(2026, 11, 1, 0, 2);
    expect((await month('2026-11')).status).toBe(400);
    t.clock.now = Date.UTC(2026, 11, 1, 0, 5);
    expect((await month('2026-11')).status).toBe(200);
  });
});

describe('GET /rest/v1/statements/current', () => {
  it('states the balances now, signed, with the time', async () => {
    const res = await session.get('/rest/v1/statements/current');
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.statement).toMatchObject({ kind: 'current', asOf: '2026-12-02T12:00:00.000Z' });
    expect(data.statement.currencies).toEqual([
      { currency: 'BTC', balance: '0.00750000', accounts: [{ account: 'user_wallet', balance: '0.00750000' }] },
      { currency: 'USDT', balance: '5.000000', accounts: [{ account: 'user_wallet', balance: '5.000000' }] },
    ]);
    expect(verifyStatement(data.statement, data.signature, publicKeyFromRaw(data.publicKey))).toBe(true);
  });

  it('states only the asker’s own accounts', async () => {
    const other = await createUser(t, { funded: { BTC: 7 } });
    const { data } = await (await (await other.session()).get('/rest/v1/statements/current')).json();
    expect(data.statement.account.id).toBe(other.publicId);
    expect(data.statement.currencies[0].balance).toBe('0.00000007');
  });
});

describe('escrow', () => {
  it('counts coins locked for a sale as the seller’s: a move between their own accounts changes no total', async () => {
    await t.services.ledger.lockEscrow(ctx, {
      tradeRef: 'TRADEHASH01',
      sellerId: person.id,
      currency: 'BTC',
      amount: 100_000,
      idempotencyKey: 'lock-TRADEHASH01',
    });
    const now = (await (await session.get('/rest/v1/statements/current')).json()).data.statement;
    expect(now.currencies[0]).toEqual({
      currency: 'BTC',
      balance: '0.00750000',
      accounts: [
        { account: 'user_wallet', balance: '0.00650000' },
        { account: 'trade_escrow', balance: '0.00100000' },
      ],
    });
    t.clock.now = Date.UTC(2027, 0, 2);
    // A month later: a session of today's.
    session = await person.session();
    const december = (await (await month('2026-12')).json()).data.statement.currencies[0];
    expect(december).toMatchObject({ opening: '0.00750000', credits: '0.00100000', debits: '0.00100000' });
    expect(december.closing).toBe('0.00750000');
    expect(
      december.accounts.map((a: { account: string; movements: { kind: string }[] }) => [
        a.account,
        a.movements.map((m) => m.kind),
      ]),
    ).toEqual([
      ['user_wallet', ['escrow_lock']],
      ['trade_escrow', ['escrow_lock']],
    ]);
  });
});

describe('who may ask', () => {
  it.each(['/rest/v1/statements', '/rest/v1/statements/current', '/rest/v1/statements/month?period=2026-10'])(
    '%s: 401 without a session',
    async (path) => {
      const res = await t.send(path);
      expect(res.status).toBe(401);
      expect((await errorOf(res)).code).toBe('UNAUTHENTICATED');
    },
  );
});

describe('GET /.well-known/coinfair-statement-key', () => {
  it('publishes the key to anyone, cacheable: JWK, raw key and PEM under one id', async () => {
    const { res, body } = await publishedKey();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(body).toMatchObject({ algorithm: 'Ed25519', canonicalization: 'RFC8785', issuer: 'http://localhost' });
    const [key] = body.keys;
    expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(key.kid).toMatch(/^ed25519:[A-Za-z0-9_-]{22}$/);
    expect(key.x).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(key.pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
  });

  it('is served by the API, not by the pages (server/main.ts asks isApiPath)', () => {
    expect(isApiPath('/.well-known/coinfair-statement-key')).toBe(true);
    expect(isApiPath('/.well-known/security.txt')).toBe(false);
  });
});
