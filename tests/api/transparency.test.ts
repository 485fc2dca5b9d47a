import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TransparencyView } from '../../src/lib/shared/views/transparency.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { type Browser, tradeFixtures } from '../support/trade-fixtures.ts';

// The public dispute statistics (issue 24, decision 162): GET /rest/v1/transparency counts the
// disputes of real trades against the trades started, times a moderator's first word and the
// decision, and withholds what fewer than five disputes would tell.

let t: TestApp;
let f: ReturnType<typeof tradeFixtures>;
let vendor: Browser;
let buyer: Browser;
let moderator: Browser;
let offer: Awaited<ReturnType<typeof f.createOffer>>;

const MINUTE = 60_000;
const DAY = 1_440 * MINUTE;
const reason = { dispute_reason_id: 'paid_not_released', dispute_reason_text: 'I paid an hour ago.' };

beforeEach(async () => {
  t = await createTestApp({ config: { DISPUTE_WAIT_MINUTES: 30 } });
  f = tradeFixtures(t);
  // Whatever the seed holds is older than the windows this test reads.
  t.clock.now += 400 * DAY;
  await f.everyoneOnline();
  ({ vendor, buyer } = await f.openMarket(5_000_000));
  moderator = await f.signedIn('moderator@example.com');
  offer = await f.createOffer(vendor);
});
afterEach(() => t?.close());

const statistics = async (): Promise<TransparencyView> => {
  const res = await t.send('/rest/v1/transparency');
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('cache-control')).toBe('public, max-age=600');
  return ((await res.json()) as { data: TransparencyView }).data;
};
const windowOf = (view: TransparencyView, days: 30 | 365) => {
  const found = view.windows.find((w) => w.days === days);
  if (!found) throw new Error(`no ${days}-day window`);
  return found;
};

/** A paid trade whose buyer opens a dispute after the wait; answers its hash. */
async function disputedTrade(): Promise<string> {
  const trade = await f.startTrade(buyer, offer);
  await buyer.post(`/rest/v1/trade/${trade.hash}/paid`);
  t.clock.now += 30 * MINUTE;
  const opened = await buyer.post(`/rest/v1/trade/${trade.hash}/dispute`, reason);
  expect(opened.status, await opened.clone().text()).toBe(200);
  return trade.hash;
}

async function moderatorSays(hash: string, afterMinutes: number) {
  t.clock.now += afterMinutes * MINUTE;
  const res = await moderator.post(`/rest/v1/trade/${hash}/messages`, { text: 'I am looking into this.' });
  expect(res.status, await res.clone().text()).toBe(201);
}

async function decide(hash: string, winner: 'buyer' | 'seller', afterMinutes: number) {
  t.clock.now += afterMinutes * MINUTE;
  const res = await moderator.post(`/rest/v1/moderation/trades/${hash}/resolve`, { winner });
  expect(res.status, await res.clone().text()).toBe(200);
}

describe('GET /rest/v1/transparency', () => {
  it('answers a visitor with both windows and twelve months, the current one last, nothing to show yet', async () => {
    const view = await statistics();
    expect(view.generatedAt).toBe(t.clock.now);
    expect(view.minimumDisputes).toBe(5);
    expect(view.windows.map((w) => [w.days, w.since])).toEqual([
      [30, t.clock.now - 30 * DAY],
      [365, t.clock.now - 365 * DAY],
    ]);
    expect(view.months).toHaveLength(12);
    expect(view.months.at(-1)?.month).toBe(new Date(t.clock.now).toISOString().slice(0, 7));
    expect(windowOf(view, 30).overall).toEqual({
      trades: 0,
      disputes: 0,
      perThousandTrades: null,
      medianFirstResponseMinutes: null,
      medianDecisionMinutes: null,
      decided: 0,
      forBuyerShare: null,
      forSellerShare: null,
      settledByParties: 0,
      open: 0,
      withheld: true,
    });
  });

  it('counts disputes against trades and times the first moderator word and the decision', async () => {
    await f.completedTrade(buyer, vendor, offer, '100');
    const hashes = [];
    for (let i = 0; i < 5; i++) hashes.push(await disputedTrade());
    const [a, b, c, d] = hashes as [string, string, string, string];
    await moderatorSays(a, 10);
    await decide(a, 'buyer', 50); // answered after 10 min, decided after 60
    await moderatorSays(b, 20);
    await decide(b, 'buyer', 100); // 20 and 120 minutes after its opening, and later ones' clocks run too
    await decide(c, 'seller', 5);
    // The seller gives in: settled by the parties, no decision.
    expect((await vendor.post(`/rest/v1/trade/${d}/release`)).status).toBe(200);
    const view = await statistics();
    const overall = windowOf(view, 30).overall;
    expect(overall).toMatchObject({
      trades: 6,
      disputes: 5,
      perThousandTrades: 833.3,
      decided: 3,
      forBuyerShare: 0.667,
      forSellerShare: 0.333,
      settledByParties: 1,
      open: 1,
      withheld: false,
    });
    // Opened 30 min apart (the wait between each), so the later disputes waited longer for the same acts.
    expect(overall.medianFirstResponseMinutes).not.toBeNull();
    expect(overall.medianDecisionMinutes).not.toBeNull();
    expect(windowOf(view, 365).overall).toMatchObject({ trades: 6, disputes: 5 });
    const group = windowOf(view, 30).groups.find((g) => g.group === 'bank-transfers');
    expect(group).toMatchObject({ trades: 6, disputes: 5, decided: 3 });
    expect(view.months.at(-1)).toMatchObject({ trades: 6, disputes: 5, perThousandTrades: 833.3 });
  });

  it('gives exact medians: the first word is a message or a decision, whichever came first', async () => {
    const hashes = [];
    for (let i = 0; i < 5; i++) {
      const hash = await disputedTrade();
      await moderatorSays(hash, 10 * (i + 1));
      await decide(hash, i < 4 ? 'buyer' : 'seller', 60);
      hashes.push(hash);
    }
    const overall = windowOf(await statistics(), 30).overall;
    expect(overall.medianFirstResponseMinutes).toBe(30);
    expect(overall.medianDecisionMinutes).toBe(90);
    expect(overall.forBuyerShare).toBe(0.8);
    expect(overall.forSellerShare).toBe(0.2);
  });

  it('withholds medians and shares drawn from fewer than five disputes', async () => {
    const hash = await disputedTrade();
    await decide(hash, 'buyer', 15);
    const overall = windowOf(await statistics(), 30).overall;
    expect(overall).toMatchObject({
      trades: 1,
      disputes: 1,
      perThousandTrades: 1000,
      decided: 1,
      medianFirstResponseMinutes: null,
      medianDecisionMinutes: null,
      forBuyerShare: null,
      forSellerShare: null,
      withheld: true,
    });
  });

  it('counts a moderator’s reopening as a new dispute, its own act not an answer', async () => {
    const trade = await f.startTrade(buyer, offer);
    expect((await buyer.post(`/rest/v1/trade/${trade.hash}/cancel`)).status).toBe(200);
    expect((await moderator.post(`/rest/v1/moderation/trades/${trade.hash}/reopen`)).status).toBe(200);
    const overall = windowOf(await statistics(), 30).overall;
    expect(overall).toMatchObject({ trades: 1, disputes: 1, open: 1, decided: 0 });
  });

  it('keeps a dispute older than thirty days in the year only, and serves one reading for ten minutes', async () => {
    const hash = await disputedTrade();
    await decide(hash, 'seller', 5);
    t.clock.now += 40 * DAY;
    const first = await statistics();
    expect(windowOf(first, 30).overall.disputes).toBe(0);
    expect(windowOf(first, 365).overall).toMatchObject({ trades: 1, disputes: 1, decided: 1 });
    expect(first.months.reduce((sum, m) => sum + m.disputes, 0)).toBe(1);
    // Forty days on, everyone signs in again and is seen online.
    await f.everyoneOnline();
    ({ vendor, buyer } = {
      vendor: await f.signedIn('vendor@example.com'),
      buyer: await f.signedIn('buyer@example.com'),
    });
    const trade = await f.startTrade(buyer, offer);
    await buyer.post(`/rest/v1/trade/${trade.hash}/paid`);
    t.clock.now += 30 * MINUTE;
    expect(windowOf(await statistics(), 30).overall.disputes).toBe(0);
    expect((await buyer.post(`/rest/v1/trade/${trade.hash}/dispute`, reason)).status).toBe(200);
    expect(windowOf(await statistics(), 30).overall.disputes).toBe(0);
    t.clock.now += 10 * MINUTE;
    expect(windowOf(await statistics(), 30).overall.disputes).toBe(1);
  });
});
