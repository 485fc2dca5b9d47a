import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorOf } from '../support/api-errors.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { type Browser, tradeFixtures } from '../support/trade-fixtures.ts';

// Public profiles (GET /rest/v1/users/{username}/profile) as visitors, trade partners and the
// person see them; trust and block (POST /rest/v1/users/{username}/trust) with what blocking
// changes elsewhere; and the current user's trading totals from real trades.

let t: TestApp;
let f: ReturnType<typeof tradeFixtures>;
let vendor: Browser;
let buyer: Browser;
let offer: Awaited<ReturnType<typeof f.createOffer>>;

const VENDOR = 'vendor@example.com';

const profileOf = async (who: Browser | undefined, username: string, query = '') => {
  const res = who
    ? await who.get(`/rest/v1/users/${username}/profile${query}`)
    : await t.send(`/rest/v1/users/${username}/profile${query}`);
  expect(res.status).toBe(200);
  return (await res.json()).data;
};

beforeEach(async () => {
  t = await createTestApp();
  f = tradeFixtures(t);
  ({ vendor, buyer } = await f.openMarket(10_000_000));
  offer = await f.createOffer(vendor);
});
afterEach(() => t?.close());

describe('GET /rest/v1/users/{username}/profile', () => {
  it('shows a visitor the spec’s profile fields, sharing no phone number and no full name', async () => {
    const profile = await profileOf(undefined, 'VENDOR');
    expect(profile).toMatchObject({
      username: 'vendor',
      fullName: null,
      ipLocation: null,
      detectedLocation: null,
      tradedWithYou: null,
      lastSeen: { text: 'Online now', level: 'online', at: t.clock.now / 1000 },
      phone: { verified: false },
      verification: { id: false, email: true },
      totalPartners: 0,
      btcTraded: '0.00000000',
      trustedCount: 0,
      blockedCount: 0,
      relation: null,
      isSelf: false,
    });
    expect(profile.registered).toEqual({
      year: expect.any(Number),
      month: expect.any(Number),
      day: expect.any(Number),
    });
    expect(Object.keys(profile.feedback)).toEqual(['positive', 'negative']);
    expect(JSON.stringify(profile)).not.toMatch(/@example\.com|\+\d{6}/);
  });

  it('counts completed trades with the reader, partners and BTC traded; the country of the newest sign-in', async () => {
    const trade = await f.startTrade(buyer, offer, '100');
    await vendor.post(`/rest/v1/trade/${trade.hash}/release`);
    const cancelled = await f.startTrade(buyer, offer, '60');
    await buyer.post(`/rest/v1/trade/${cancelled.hash}/cancel`);
    const before = (await profileOf(undefined, 'vendor')).totalTrades;
    const vendorId = await f.userId(VENDOR);
    await f.sql(
      `INSERT INTO devices (user_id, fingerprint, status, ip, country, created_at) VALUES (?, 'a', 'confirmed', '192.0.2.1', 'FR', ?),
         (?, 'b', 'confirmed', '192.0.2.2', 'DE', ?)`,
      vendorId,
      t.clock.now - 1000,
      vendorId,
      t.clock.now,
    );
    const seen = await profileOf(buyer, 'vendor');
    expect(seen).toMatchObject({
      tradedWithYou: 1,
      totalPartners: 1,
      totalTrades: before,
      btcTraded: '0.00100000',
      ipLocation: { iso: 'DE', name: 'Germany' },
      detectedLocation: { iso: 'DE', name: 'Germany' },
      relation: 'none',
    });
    expect((await profileOf(buyer, 'vendor', '?locale=de')).ipLocation).toEqual({ iso: 'DE', name: 'Deutschland' });
    const own = await profileOf(vendor, 'vendor');
    expect(own).toMatchObject({ isSelf: true, relation: null, tradedWithYou: null });
  });

  it('shows the verified name to the person and the partners of a completed trade, to nobody else (decision 122)', async () => {
    await f.sql('UPDATE users SET full_name = ? WHERE email = ?', 'Jane Q. Vendor', VENDOR);
    // Given with the documents but not verified yet: nobody sees it on the profile.
    expect((await profileOf(vendor, 'vendor')).fullName).toBeNull();
    await f.sql('UPDATE users SET id_verified_at = ? WHERE email = ?', t.clock.now, VENDOR);
    expect((await profileOf(vendor, 'vendor')).fullName).toBe('Jane Q. Vendor');
    expect((await (await vendor.get('/rest/v1/users/current_user')).json()).data.userFullName).toBe('Jane Q. Vendor');
    expect((await profileOf(undefined, 'vendor')).fullName).toBeNull();
    expect((await profileOf(buyer, 'vendor')).fullName).toBeNull();
    // A trade that starts is not enough (anyone could start one to learn the name); a release is.
    const trade = await f.startTrade(buyer, offer, '100');
    expect((await profileOf(buyer, 'vendor')).fullName).toBeNull();
    await vendor.post(`/rest/v1/trade/${trade.hash}/release`);
    expect((await profileOf(buyer, 'vendor')).fullName).toBe('Jane Q. Vendor');
    const stranger = await f.signedIn('affiliate@example.com');
    expect((await profileOf(stranger, 'vendor')).fullName).toBeNull();
  });

  it('says when the person was last seen, in the reader’s language', async () => {
    await f.sql('UPDATE users SET last_seen_at = ? WHERE email = ?', t.clock.now - 3 * 3600_000, VENDOR);
    expect((await profileOf(undefined, 'vendor')).lastSeen).toMatchObject({ text: 'Seen 3 hours ago', level: 'away' });
    expect((await profileOf(undefined, 'vendor', '?locale=de')).lastSeen.text).toMatch(/3 Stunden/);
  });

  it('answers 404 for unknown and banned people and 400 for a malformed name', async () => {
    expect((await t.send('/rest/v1/users/nobody/profile')).status).toBe(404);
    expect((await t.send('/rest/v1/users/banned/profile')).status).toBe(404);
    const bad = await t.send('/rest/v1/users/no_such!/profile');
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatchObject({ field: 'username' });
  });
});

describe('POST /rest/v1/users/{username}/trust', () => {
  it('trusts, blocks and undoes; blocking hides offers and refuses trades both ways', async () => {
    await f.sql(`UPDATE offers SET status = 'active' WHERE hash = ?`, offer.hash);
    const search = async (who: Browser) =>
      ((await (await who.get('/rest/v1/offers?type=buy&currency=USD')).json()).data as { hash: string }[]).map(
        (o) => o.hash,
      );
    expect(await search(buyer)).toContain(offer.hash);

    const trusted = await buyer.post('/rest/v1/users/vendor/trust', { kind: 'trusted' });
    expect(trusted.status).toBe(200);
    expect((await trusted.json()).data).toEqual({ relation: 'trusted', trustedCount: 1, blockedCount: 0 });
    expect((await profileOf(buyer, 'vendor')).relation).toBe('trusted');

    const blocked = await buyer.post('/rest/v1/users/vendor/trust', { kind: 'blocked' });
    expect((await blocked.json()).data).toEqual({ relation: 'blocked', trustedCount: 0, blockedCount: 1 });
    expect(await search(buyer)).not.toContain(offer.hash);
    const start = await buyer.post('/rest/v1/trade', f.startBody(offer, '100'));
    expect(start.status).toBe(403);

    const undone = await buyer.post('/rest/v1/users/vendor/trust', { kind: 'none' });
    expect((await undone.json()).data).toEqual({ relation: 'none', trustedCount: 0, blockedCount: 0 });
    expect(await search(buyer)).toContain(offer.hash);
    expect((await profileOf(undefined, 'vendor')).blockedCount).toBe(0);
  });

  it('refuses visitors, missing CSRF tokens, oneself, unknown people and bad kinds', async () => {
    expect((await t.send('/rest/v1/users/vendor/trust', { method: 'POST', json: { kind: 'trusted' } })).status).toBe(
      401,
    );
    const cookie = [...buyer.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const noCsrf = await t.send('/rest/v1/users/vendor/trust', {
      method: 'POST',
      json: { kind: 'blocked' },
      headers: { cookie, 'x-csrf-token': 'B'.repeat(43) },
    });
    expect(noCsrf.status).toBe(403);
    const self = await buyer.post('/rest/v1/users/buyer/trust', { kind: 'trusted' });
    expect(self.status).toBe(400);
    expect(await errorOf(self)).toMatchObject({ field: 'username' });
    expect((await buyer.post('/rest/v1/users/nobody/trust', { kind: 'trusted' })).status).toBe(404);
    const bad = await buyer.post('/rest/v1/users/vendor/trust', { kind: 'friend' });
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'kind' });
    expect((await profileOf(undefined, 'vendor')).trustedCount).toBe(0);
  });
});

describe('the current user’s trading totals', () => {
  it('come from completed trades: the counter and the BTC of released trades', async () => {
    const me = async () => (await (await buyer.get('/rest/v1/users/me')).json()).data;
    const before = await me();
    expect(before.totalTradedBtc).toBe('0.00000000');
    const trade = await f.startTrade(buyer, offer, '250');
    expect((await me()).totalTradedBtc).toBe('0.00000000');
    await vendor.post(`/rest/v1/trade/${trade.hash}/release`);
    const after = await me();
    expect(after.completedTrades).toBe(before.completedTrades + 1);
    expect(after.totalTradedBtc).toBe('0.00250000');
    expect((await (await vendor.get('/rest/v1/users/current_user')).json()).data.totalTradedBtc).toBe('0.00250000');
  });
});

describe('the current user’s active offers', () => {
  it('counts the offers listed now: a new one adds, a paused one does not', async () => {
    const count = async () => (await (await vendor.get('/rest/v1/users/current_user')).json()).data.activeOffersCount;
    // openMarket paused the seeded offers; the test's own offer is the one active.
    expect(await count()).toBe(1);
    await f.createOffer(vendor);
    expect(await count()).toBe(2);
    expect((await vendor.post(`/rest/v1/offers/${offer.hash}/toggle`)).status).toBe(200);
    expect(await count()).toBe(1);
    expect((await (await buyer.get('/rest/v1/users/current_user')).json()).data.activeOffersCount).toBe(0);
  });
});
