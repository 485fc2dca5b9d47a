import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorOf } from '../support/api-errors.ts';
import { insertHistory } from '../support/history-fixtures.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { type Browser, tradeFixtures } from '../support/trade-fixtures.ts';
import { createUser } from '../support/users.ts';

// Past trades (spec section 7, GET /rest/v1/users/{username}/past-trades): ended trades only,
// by side and status, 50 a page with meta.currentPage and meta.lastPage; for the person and
// moderators.

let t: TestApp;
let f: ReturnType<typeof tradeFixtures>;
let vendor: Browser;
let buyer: Browser;
let offer: Awaited<ReturnType<typeof f.createOffer>>;

const past = async (who: Browser, query = '', username = 'buyer') => {
  const res = await who.get(`/rest/v1/users/${username}/past-trades${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as {
    data: { id: string; status: string; type: string; partner: { username: string }; [key: string]: unknown }[];
    meta: { currentPage: number; lastPage: number };
  };
};

beforeEach(async () => {
  t = await createTestApp({ config: { DISPUTE_WAIT_MINUTES: 0 } });
  f = tradeFixtures(t);
  ({ vendor, buyer } = await f.openMarket(10_000_000));
  offer = await f.createOffer(vendor);
});
afterEach(() => t?.close());

describe('GET /rest/v1/users/{username}/past-trades', () => {
  it('lists ended trades newest first, filtered by status and side; running ones stay out', async () => {
    const released = await f.startTrade(buyer, offer, '100');
    await vendor.post(`/rest/v1/trade/${released.hash}/release`);
    t.clock.now += 1000;
    const cancelled = await f.startTrade(buyer, offer, '60');
    await buyer.post(`/rest/v1/trade/${cancelled.hash}/cancel`);
    t.clock.now += 1000;
    const disputed = await f.startTrade(buyer, offer, '70');
    await buyer.post(`/rest/v1/trade/${disputed.hash}/paid`);
    const opened = await buyer.post(`/rest/v1/trade/${disputed.hash}/dispute`, {
      dispute_reason_id: 'seller_unresponsive',
      dispute_reason_text: 'No answer for hours.',
    });
    expect(opened.status, await opened.clone().text()).toBe(200);
    const moderator = await (await createUser(t, { role: 'moderator' })).signIn();
    const resolved = await moderator.post(`/rest/v1/moderation/trades/${disputed.hash}/resolve`, { winner: 'seller' });
    expect(resolved.status).toBe(200);
    t.clock.now += 1000;
    await f.startTrade(buyer, offer, '80');

    const all = await past(buyer, '?type=bought');
    expect(all.data.map((r) => [r.id, r.status])).toEqual([
      [disputed.hash, 'dispute_won_seller'],
      [cancelled.hash, 'cancelled_buyer'],
      [released.hash, 'released'],
    ]);
    expect(all.meta).toMatchObject({ currentPage: 1, lastPage: 1 });
    expect(all.data[2]).toMatchObject({
      link: `/trade/${released.hash}`,
      type: 'bought',
      partner: { username: 'vendor', profile: '/profile/vendor' },
      fiatAmountRequested: 100,
      currency: 'USD',
      btcAmount: { satoshi: 100_000, btc: '0.00100000' },
      cryptoCurrency: 'BTC',
      wasDisputed: false,
      startedAt: expect.any(Number),
      endedAt: expect.any(Number),
    });
    expect((await past(buyer, '?type=bought&status=successful')).data.map((r) => r.id)).toEqual([released.hash]);
    expect((await past(buyer, '?type=bought&status=cancelled')).data.map((r) => r.id)).toEqual([cancelled.hash]);
    expect((await past(buyer, '?type=bought&status=disputed')).data.map((r) => r.id)).toEqual([disputed.hash]);
    expect((await past(buyer, '?type=sold')).data).toEqual([]);
    const sold = await past(vendor, '?type=sold&status=successful', 'vendor');
    expect(sold.data).toEqual([
      expect.objectContaining({
        id: released.hash,
        type: 'sold',
        partner: expect.objectContaining({ username: 'buyer' }),
      }),
    ]);
    // Without a side: both.
    expect((await past(buyer)).data).toHaveLength(3);
  });

  it('pages by 50 with the last page in meta', async () => {
    await insertHistory(f.sql, { buyer: 'buyer', seller: 'vendor', count: 120, at: t.clock.now, feedback: 'none' });
    const first = await past(buyer, '?type=bought');
    expect(first.meta).toEqual({ currentPage: 1, lastPage: 3, total: 120 });
    expect(first.data).toHaveLength(50);
    const third = await past(buyer, '?type=bought&page=3');
    expect(third.meta).toMatchObject({ currentPage: 3, lastPage: 3 });
    expect(third.data).toHaveLength(20);
    expect(new Set([...first.data, ...third.data].map((r) => r.id)).size).toBe(70);
    expect((await past(buyer, '?type=bought&page=9')).data).toEqual([]);
  });

  it('is for the person and moderators only; visitors 401; bad filters 400 with the field', async () => {
    const stranger = await f.signedIn('affiliate@example.com');
    const other = await stranger.get('/rest/v1/users/buyer/past-trades');
    expect(other.status).toBe(403);
    const moderator = await (await createUser(t, { role: 'moderator' })).signIn();
    expect((await moderator.get('/rest/v1/users/buyer/past-trades')).status).toBe(200);
    expect((await t.send('/rest/v1/users/buyer/past-trades')).status).toBe(401);
    expect((await buyer.get('/rest/v1/users/nobody/past-trades')).status).toBe(404);
    for (const [query, field] of [
      ['?status=won', 'status'],
      ['?type=gifted', 'type'],
      ['?page=0', 'page'],
    ] as const) {
      const bad = await buyer.get(`/rest/v1/users/buyer/past-trades${query}`);
      expect(bad.status).toBe(400);
      expect(await errorOf(bad)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field });
    }
  });
});
