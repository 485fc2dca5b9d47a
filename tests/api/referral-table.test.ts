import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferralRow, ReferralsMeta } from '../../src/lib/shared/views/affiliates.ts';
import { errorOf } from '../support/api-errors.ts';
import { createTestApp, TEST_NOW, type TestApp } from '../support/test-app.ts';
import { tradeFixtures } from '../support/trade-fixtures.ts';
import { createUser, type TestUser } from '../support/users.ts';

// The referral table (issue 20, spec sections 2 and 7): an affiliate's tier-1 referrals, sorted,
// filtered and paged, with what the affiliate earned through each, and the tier-2 list under one
// of them. Only the affiliate and administrators read it; anyone else gets 404, visitors 401.
// The people, their trade counts and what the affiliate earned are written directly: the earnings
// on release are tests/api/affiliates.test.ts's subject. The tests only read, so they share them.
//
// The affiliate `affy` (referred by `upline`) referred five people, made in this order (ids rise):
//   name   registered (UTC)        trades  volume     earned through them            last seen
//   bob    2026-11-01 10:00        3       1,500.00   25,000 + 5,000 sat, 1.5 USDT   now
//   Alice  2026-10-15 00:00        0       0          -                              40 days ago
//   carol  2026-11-20 23:59:59.999 7       1,500.00   2 USDT                         30 days ago to the ms
//   Dave   2026-11-01 10:00        3       90,000.00  10,000 sat                     30 days and 1 ms ago
//   erin   2026-11-21 00:00        0       0          -                              a day ago
// bob brought fay and gus (affy's tier 2); Dave brought hal. otto, an affiliate too, referred ivan.

const DAY = 86_400_000;
const at = (iso: string) => Date.parse(iso);

let t: TestApp;
type Reader = Awaited<ReturnType<TestUser['session']>>;
const people: Record<string, TestUser> = {};
const sessions = new Map<string, Reader>();

/** `name`'s signed-in client, made once. */
async function as(name: string): Promise<Reader> {
  const session = sessions.get(name) ?? (await (people[name] as TestUser).session());
  sessions.set(name, session);
  return session;
}

/** A person with a referrer and a trading record, as the table reads them. */
async function person(
  username: string,
  referrer: string | null,
  record: { createdAt?: number; lastSeenAt?: number; trades?: number; volumeCents?: number } = {},
) {
  const { trades = 0, volumeCents = 0, ...times } = record;
  const user = await createUser(t, { username, ...times });
  await t.db.sql.run('UPDATE users SET referred_by_id = ?, completed_trades = ?, traded_usd_cents = ? WHERE id = ?', [
    referrer === null ? null : people[referrer]?.id,
    trades,
    volumeCents,
    user.id,
  ]);
  people[username] = user;
  return user;
}

/** The row id of one real trade: every earnings row must name one, and these all name it. */
async function aTradeRowId(): Promise<number> {
  const f = tradeFixtures(t);
  const { vendor, buyer } = await f.openMarket(100_000_000);
  const trade = await f.startTrade(buyer, await f.createOffer(vendor));
  const row = await t.db.sql.get<{ id: number }>('SELECT id FROM trades WHERE hash = ?', [trade.hash]);
  if (!row) throw new Error('the trade was not made');
  return row.id;
}

/** Earnings rows: who earned, at which tier, through which referral, on whose trade, how much. */
async function earned(
  tradeId: number,
  rows: [
    affiliate: string,
    tier: 1 | 2,
    referral: string,
    trader: string,
    currency: 'BTC' | 'USDT',
    amount: number,
    usdCents: number,
  ][],
) {
  const values = rows.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
  const args = rows.flatMap(([affiliate, tier, referral, trader, currency, amount, usdCents], i) => [
    people[affiliate]?.id,
    tier,
    people[referral]?.id,
    people[trader]?.id,
    tradeId,
    `escrow-${i}`,
    'buy',
    currency,
    amount,
    usdCents,
    `ltx_test${i}`,
    TEST_NOW - DAY,
  ]);
  await t.db.sql.run(
    `INSERT INTO affiliate_earnings (affiliate_id, tier, referral_id, trader_id, trade_id, escrow_ref, side, currency,
      amount, usd_cents, ledger_transaction_id, created_at) VALUES ${values}`,
    args,
  );
}

/** The pager's 25 referrals, p01 to p25, all registered at one instant; three of them traded. */
async function pagerWithReferrals() {
  const pager = await person('pager', null);
  const ids: number[] = [];
  for (let i = 1; i <= 25; i++) {
    const username = `p${String(i).padStart(2, '0')}`;
    ids.push((await createUser(t, { username, createdAt: at('2026-11-01T00:00:00Z') })).id);
  }
  await t.db.sql.run(`UPDATE users SET referred_by_id = ? WHERE id IN (${ids.map(() => '?').join(', ')})`, [
    pager.id,
    ...ids,
  ]);
  await t.db.sql.run('UPDATE users SET completed_trades = 1 WHERE username IN (?, ?, ?)', ['p03', 'p13', 'p23']);
}

beforeAll(async () => {
  t = await createTestApp();
  // First: opening the market marks everyone as seen now.
  const tradeId = await aTradeRowId();
  await person('upline', null);
  await person('affy', 'upline');
  await person('bob', 'affy', { createdAt: at('2026-11-01T10:00:00Z'), trades: 3, volumeCents: 150_000 });
  await person('Alice', 'affy', { createdAt: at('2026-10-15T00:00:00Z'), lastSeenAt: TEST_NOW - 40 * DAY });
  await person('carol', 'affy', {
    createdAt: at('2026-11-20T23:59:59.999Z'),
    lastSeenAt: TEST_NOW - 30 * DAY,
    trades: 7,
    volumeCents: 150_000,
  });
  await person('Dave', 'affy', {
    createdAt: at('2026-11-01T10:00:00Z'),
    lastSeenAt: TEST_NOW - 30 * DAY - 1,
    trades: 3,
    volumeCents: 9_000_000,
  });
  await person('erin', 'affy', { createdAt: at('2026-11-21T00:00:00Z'), lastSeenAt: TEST_NOW - DAY });
  await person('fay', 'bob', { createdAt: at('2026-11-10T00:00:00Z'), trades: 1, volumeCents: 500_000 });
  await person('gus', 'bob', { createdAt: at('2026-11-12T00:00:00Z') });
  await person('hal', 'Dave');
  await person('otto', null);
  await person('ivan', 'otto');
  await earned(tradeId, [
    ['affy', 1, 'bob', 'bob', 'BTC', 25_000, 2_500],
    ['affy', 1, 'bob', 'bob', 'USDT', 1_500_000, 150],
    ['affy', 2, 'bob', 'fay', 'BTC', 5_000, 500],
    ['affy', 1, 'Dave', 'Dave', 'BTC', 10_000, 1_000],
    ['affy', 1, 'carol', 'carol', 'USDT', 2_000_000, 200],
    // Others' earnings on the same people's trades: never affy's.
    ['bob', 1, 'fay', 'fay', 'BTC', 25_000, 2_500],
    ['upline', 2, 'affy', 'bob', 'BTC', 5_000, 500],
    ['otto', 1, 'ivan', 'ivan', 'BTC', 40_000, 4_000],
  ]);
  await pagerWithReferrals();
  people.admin = await createUser(t, { role: 'admin' });
});
afterAll(() => t?.close());

interface Answer {
  status: number;
  body: { data: ReferralRow[]; meta: ReferralsMeta };
}

async function answer(res: Response): Promise<Answer> {
  return { status: res.status, body: await res.json() };
}

/** GET /rest/v1/users/{username}/referrals with `query`, as `reader`. */
const table = async (reader: string, username: string, query: Record<string, string> = {}) =>
  answer(await (await as(reader)).get(`/rest/v1/users/${username}/referrals?${new URLSearchParams(query)}`));

/** GET /rest/v1/users/{id}/referrals/tier2 for `referral`'s public id, as `reader`. */
const tier2 = async (reader: string, referral: string) =>
  answer(await (await as(reader)).get(`/rest/v1/users/${people[referral]?.publicId}/referrals/tier2`));

const names = ({ body }: Answer) => body.data.map((row) => row.username);
const NONE = { BTC: '0.00000000', USDT: '0.000000', usd: '0.00' };

describe('sorting', () => {
  it('lists newest registrations first by default', async () => {
    const res = await table('affy', 'affy');
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(['erin', 'carol', 'Dave', 'bob', 'Alice']);
    expect(res.body.meta).toEqual({
      page: 1,
      pageSize: 20,
      total: 5,
      totalPages: 1,
      sortBy: 'registered',
      sortDir: 'down',
      filters: {},
    });
  });

  // Ties (bob and Dave registered together and traded 3 times each; bob and carol traded the same
  // volume; Alice and erin earned nothing) fall in the order the people joined, in the sort's direction.
  it.each([
    ['username', 'up', ['Alice', 'bob', 'carol', 'Dave', 'erin']],
    ['username', 'down', ['erin', 'Dave', 'carol', 'bob', 'Alice']],
    ['registered', 'up', ['Alice', 'bob', 'Dave', 'carol', 'erin']],
    ['registered', 'down', ['erin', 'carol', 'Dave', 'bob', 'Alice']],
    ['trades', 'up', ['Alice', 'erin', 'bob', 'Dave', 'carol']],
    ['trades', 'down', ['carol', 'Dave', 'bob', 'erin', 'Alice']],
    ['volume', 'up', ['Alice', 'erin', 'bob', 'carol', 'Dave']],
    ['volume', 'down', ['Dave', 'carol', 'bob', 'erin', 'Alice']],
    ['earnings', 'up', ['Alice', 'erin', 'carol', 'Dave', 'bob']],
    ['earnings', 'down', ['bob', 'Dave', 'carol', 'erin', 'Alice']],
  ])('sortBy=%s sortDir=%s', async (sortBy, sortDir, expected) => {
    const res = await table('affy', 'affy', { sortBy, sortDir });
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(expected);
    expect(res.body.meta).toMatchObject({ sortBy, sortDir, total: 5 });
  });
});

describe('filters', () => {
  // Active: seen in the last 30 days, to the millisecond. Registered: whole UTC days, both ends included.
  it.each([
    [{ 'filters[active]': '1' }, { active: true }, ['erin', 'carol', 'bob']],
    [{ 'filters[active]': '0' }, { active: false }, ['erin', 'carol', 'Dave', 'bob', 'Alice']],
    [{ 'filters[traded]': '1' }, { traded: true }, ['carol', 'Dave', 'bob']],
    [{ 'filters[from]': '2026-11-01' }, { from: '2026-11-01' }, ['erin', 'carol', 'Dave', 'bob']],
    [{ 'filters[to]': '2026-11-20' }, { to: '2026-11-20' }, ['carol', 'Dave', 'bob', 'Alice']],
    [
      { 'filters[from]': '2026-11-20', 'filters[to]': '2026-11-20' },
      { from: '2026-11-20', to: '2026-11-20' },
      ['carol'],
    ],
    [
      { 'filters[from]': '2026-11-21', 'filters[to]': '2026-11-21' },
      { from: '2026-11-21', to: '2026-11-21' },
      ['erin'],
    ],
    [{ 'filters[from]': '2026-11-02', 'filters[to]': '2026-11-19' }, { from: '2026-11-02', to: '2026-11-19' }, []],
  ])('%o', async (query, filters, expected) => {
    const res = await table('affy', 'affy', query);
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(expected);
    expect(res.body.meta).toMatchObject({ filters, total: expected.length, totalPages: 1 });
  });

  it('combines filters with a sort', async () => {
    const query = { 'filters[active]': '1', 'filters[traded]': '1', sortBy: 'username', sortDir: 'down' };
    expect(names(await table('affy', 'affy', query))).toEqual(['carol', 'bob']);
    const res = await table('affy', 'affy', { ...query, 'filters[from]': '2026-11-02', 'filters[to]': '2026-11-20' });
    expect(names(res)).toEqual(['carol']);
    expect(res.body.meta).toEqual({
      page: 1,
      pageSize: 20,
      total: 1,
      totalPages: 1,
      sortBy: 'username',
      sortDir: 'down',
      filters: { active: true, traded: true, from: '2026-11-02', to: '2026-11-20' },
    });
  });
});

describe('rows', () => {
  it('shows each referral’s record, what the affiliate earned through them and whom they brought', async () => {
    const { body } = await table('affy', 'affy', { sortBy: 'username', sortDir: 'up' });
    expect(body.data).toEqual([
      row('Alice', at('2026-10-15T00:00:00Z'), { trades: 0, volume: '0.00', earned: NONE, active: false, brought: 0 }),
      // Tier 1 sums both tiers that came through bob: his own trades and fay's.
      row('bob', at('2026-11-01T10:00:00Z'), {
        trades: 3,
        volume: '1500.00',
        earned: { BTC: '0.00030000', USDT: '1.500000', usd: '31.50' },
        active: true,
        brought: 2,
      }),
      row('carol', at('2026-11-20T23:59:59.999Z'), {
        trades: 7,
        volume: '1500.00',
        earned: { BTC: '0.00000000', USDT: '2.000000', usd: '2.00' },
        active: true,
        brought: 0,
      }),
      row('Dave', at('2026-11-01T10:00:00Z'), {
        trades: 3,
        volume: '90000.00',
        earned: { BTC: '0.00010000', USDT: '0.000000', usd: '10.00' },
        active: false,
        brought: 1,
      }),
      row('erin', at('2026-11-21T00:00:00Z'), { trades: 0, volume: '0.00', earned: NONE, active: true, brought: 0 }),
    ]);
  });

  it('names people by username only: no e-mail address anywhere in the answer', async () => {
    const res = await (await as('affy')).get('/rest/v1/users/affy/referrals');
    const text = await res.text();
    expect(text).toContain('"username":"bob"');
    expect(text).not.toContain('@');
    expect(text).not.toMatch(/e-?mail/i);
  });

  it('counts for each affiliate only their own earnings', async () => {
    // upline's tier 2 through affy (bob's trade), and bob's own tier 1 from fay.
    const upline = await table('upline', 'upline');
    expect(upline.body.data.map((r) => [r.username, r.referralsCount, r.earnings])).toEqual([
      ['affy', 5, { BTC: '0.00005000', USDT: '0.000000', usd: '5.00' }],
    ]);
    const bob = await table('bob', 'bob');
    expect(bob.body.data.map((r) => [r.username, r.earnings])).toEqual([
      ['gus', NONE],
      ['fay', { BTC: '0.00025000', USDT: '0.000000', usd: '25.00' }],
    ]);
  });
});

/** A table row as the affiliate sees it. */
function row(
  username: string,
  registeredAt: number,
  r: { trades: number; volume: string; earned: typeof NONE; active: boolean; brought: number },
): ReferralRow {
  return {
    id: people[username]?.publicId as string,
    username,
    registeredAt,
    completedTrades: r.trades,
    tradedVolumeUsd: r.volume,
    earnings: r.earned,
    isActive: r.active,
    referralsCount: r.brought,
  };
}

describe('paging', () => {
  it('pages by 20; people registered together keep one order, so no one is on two pages', async () => {
    const first = await table('pager', 'pager');
    expect(names(first)).toEqual(Array.from({ length: 20 }, (_, i) => `p${String(25 - i).padStart(2, '0')}`));
    const second = await table('pager', 'pager', { page: '2' });
    expect(names(second)).toEqual(['p05', 'p04', 'p03', 'p02', 'p01']);
    expect(second.body.meta).toEqual({
      page: 2,
      pageSize: 20,
      total: 25,
      totalPages: 2,
      sortBy: 'registered',
      sortDir: 'down',
      filters: {},
    });
    const past = await table('pager', 'pager', { page: '3' });
    expect(past.body.data).toEqual([]);
    expect(past.body.meta).toMatchObject({ page: 3, total: 25, totalPages: 2 });
  });

  it('pages a sort and a filter', async () => {
    expect(names(await table('pager', 'pager', { sortBy: 'username', sortDir: 'up', page: '2' }))).toEqual([
      'p21',
      'p22',
      'p23',
      'p24',
      'p25',
    ]);
    const up = await table('pager', 'pager', { sortBy: 'trades', sortDir: 'up' });
    expect(names(up).slice(0, 3)).toEqual(['p01', 'p02', 'p04']);
    expect(names(up).at(-1)).toBe('p22');
    const traded = await table('pager', 'pager', { 'filters[traded]': '1', page: '1' });
    expect(names(traded)).toEqual(['p23', 'p13', 'p03']);
    expect(traded.body.meta).toMatchObject({ total: 3, totalPages: 1, filters: { traded: true } });
  });
});

describe('the tier-2 list', () => {
  it('lists whom a referral brought, with what their own trades earned the affiliate', async () => {
    const res = await tier2('affy', 'bob');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      row('gus', at('2026-11-12T00:00:00Z'), { trades: 0, volume: '0.00', earned: NONE, active: true, brought: 0 }),
      // fay's trade earned bob his tier 1 and affy this tier 2: only affy's is shown.
      row('fay', at('2026-11-10T00:00:00Z'), {
        trades: 1,
        volume: '5000.00',
        earned: { BTC: '0.00005000', USDT: '0.000000', usd: '5.00' },
        active: true,
        brought: 0,
      }),
    ]);
    expect(res.body.meta).toEqual({
      page: 1,
      pageSize: 50,
      total: 2,
      totalPages: 1,
      sortBy: 'registered',
      sortDir: 'down',
      filters: {},
    });
    const none = await tier2('affy', 'Alice');
    expect([none.status, none.body.data, none.body.meta.total]).toEqual([200, [], 0]);
  });

  it('is 404 for another affiliate’s referral, one’s own tier 2, someone nobody referred and an unknown id', async () => {
    for (const id of [people.ivan?.publicId, people.fay?.publicId, people.otto?.publicId, 'usr_doesnotexist']) {
      const res = await (await as('affy')).get(`/rest/v1/users/${id}/referrals/tier2`);
      expect(res.status, id).toBe(404);
      expect(await errorOf(res)).toMatchObject({ code: 'NOT_FOUND', field: 'id' });
    }
  });
});

describe('who may read', () => {
  it('an administrator reads anyone’s table and tier-2 lists', async () => {
    expect(names(await table('admin', 'affy'))).toEqual(['erin', 'carol', 'Dave', 'bob', 'Alice']);
    expect(names(await table('admin', 'otto'))).toEqual(['ivan']);
    expect(names(await tier2('admin', 'bob'))).toEqual(['gus', 'fay']);
  });

  it('anyone else, like an unknown name, gets 404; a visitor 401', async () => {
    const bobId = people.bob?.publicId as string;
    for (const [reader, path, field] of [
      ['bob', '/rest/v1/users/affy/referrals', 'username'],
      ['ivan', '/rest/v1/users/affy/referrals', 'username'],
      ['upline', '/rest/v1/users/affy/referrals', 'username'],
      ['affy', '/rest/v1/users/nobody404/referrals', 'username'],
      ['otto', `/rest/v1/users/${bobId}/referrals/tier2`, 'id'],
      ['bob', `/rest/v1/users/${bobId}/referrals/tier2`, 'id'],
    ] as const) {
      const res = await (await as(reader)).get(path);
      expect(res.status, `${reader} ${path}`).toBe(404);
      expect(await errorOf(res)).toMatchObject({ code: 'NOT_FOUND', field });
    }
    for (const path of ['/rest/v1/users/affy/referrals', `/rest/v1/users/${bobId}/referrals/tier2`]) {
      const res = await t.send(path);
      expect(res.status).toBe(401);
      expect(await errorOf(res)).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
  });
});

describe('validation', () => {
  it.each([
    ['sortBy=bogus', 'sortBy'],
    ['sortDir=sideways', 'sortDir'],
    ['page=0', 'page'],
    ['page=two', 'page'],
    ['filters[active]=yes', 'filters[active]'],
    ['filters[from]=2026-13-01', 'filters[from]'],
    ['filters[from]=2026-02-30', 'filters[from]'],
    ['filters[to]=20261120', 'filters[to]'],
    ['filters[from]=2026-11-21&filters[to]=2026-11-20', 'filters[to]'],
  ])('%s names %s', async (query, field) => {
    const res = await (await as('affy')).get(`/rest/v1/users/affy/referrals?${query}`);
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field });
  });

  it('the tier-2 list names a referral by public id, and checks its page', async () => {
    const reader = await as('affy');
    for (const [path, field] of [
      ['/rest/v1/users/bob/referrals/tier2', 'id'],
      [`/rest/v1/users/${people.bob?.publicId}/referrals/tier2?page=0`, 'page'],
    ]) {
      const res = await reader.get(path as string);
      expect(res.status, path).toBe(400);
      expect(await errorOf(res)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field });
    }
  });
});
