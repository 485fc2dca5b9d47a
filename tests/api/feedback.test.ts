import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BusEvent, createInProcessBus, type EventBus } from '../../server/realtime/bus.ts';
import { errorOf } from '../support/api-errors.ts';
import { insertHistory } from '../support/history-fixtures.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { type Browser, tradeFixtures } from '../support/trade-fixtures.ts';
import { createUser } from '../support/users.ts';

// Feedback after a trade: who may rate which trade, once per side, replaced within 30 days with
// exact counters, the reply, both sides' view, a person's list with its filters and pages, and the
// feature-request form. The vendor sells 100 USD of BTC to the buyer and releases.

let t: TestApp;
let bus: EventBus;
let f: ReturnType<typeof tradeFixtures>;
let vendor: Browser;
let buyer: Browser;
let offer: Awaited<ReturnType<typeof f.createOffer>>;
let events: BusEvent[];

const VENDOR = 'vendor@example.com';
const BUYER = 'buyer@example.com';
const DAY = 86_400_000;

const counters = async (email: string) =>
  (await t.db.sql.get<{ positive: number; negative: number }>(
    'SELECT feedback_positive AS positive, feedback_negative AS negative FROM users WHERE email = ?',
    [email],
  )) as { positive: number; negative: number };

async function releasedTrade() {
  const trade = await f.startTrade(buyer, offer);
  const res = await vendor.post(`/rest/v1/trade/${trade.hash}/release`);
  expect(res.status, await res.clone().text()).toBe(200);
  return trade.hash;
}

beforeEach(async () => {
  bus = createInProcessBus();
  events = [];
  bus.subscribe('trades', (event) => {
    if (event.type === 'trade.feedback') events.push(event);
  });
  t = await createTestApp({ bus });
  f = tradeFixtures(t);
  ({ vendor, buyer } = await f.openMarket(10_000_000));
  offer = await f.createOffer(vendor);
});
afterEach(() => t?.close());

describe('POST /rest/v1/feedback/{id}/give', () => {
  it('lets each party rate the other once: the buyer’s is type sell, the seller’s type buy', async () => {
    const hash = await releasedTrade();
    const before = await counters(VENDOR);
    const res = await buyer.post(`/rest/v1/feedback/${hash}/give`, {
      rating: 'positive',
      message: ' Fast and friendly. ',
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toMatchObject({
      type: 'sell',
      rating: 'positive',
      message: 'Fast and friendly.',
      reply: null,
      from: { username: 'buyer', profile: '/profile/buyer' },
      currency: 'USD',
    });
    expect(await counters(VENDOR)).toEqual({ positive: before.positive + 1, negative: before.negative });
    const back = await vendor.post(`/rest/v1/feedback/${hash}/give`, { rating: 'negative', message: 'Paid late.' });
    expect(back.status).toBe(200);
    expect((await back.json()).data).toMatchObject({ type: 'buy', rating: 'negative' });
    expect(await counters(BUYER)).toMatchObject({ negative: 1 });
    expect(events.map((e) => e.payload)).toEqual([
      {
        tradeHash: hash,
        fromId: await f.userId(BUYER),
        toId: await f.userId(VENDOR),
        fromUsername: 'buyer',
        rating: 'positive',
        link: '/profile/vendor',
        at: t.clock.now,
      },
      expect.objectContaining({ fromUsername: 'vendor', rating: 'negative', link: '/profile/buyer' }),
    ]);
  });

  it('replaces a rating within 30 days, moving the counters exactly, and refuses it later', async () => {
    const hash = await releasedTrade();
    const before = await counters(VENDOR);
    await buyer.post(`/rest/v1/feedback/${hash}/give`, { rating: 'negative', message: 'Slow.' });
    await vendor.post(`/rest/v1/feedback/${hash}/reply`, { reply: 'The bank was slow, sorry.' });
    t.clock.now += 29 * DAY;
    const again = await buyer.post(`/rest/v1/feedback/${hash}/give`, { rating: 'positive', message: 'All good now.' });
    expect(again.status).toBe(200);
    // The reply answered the old words: it goes with them, and may be written again.
    expect((await again.json()).data).toMatchObject({ rating: 'positive', message: 'All good now.', reply: null });
    expect(await counters(VENDOR)).toEqual({ positive: before.positive + 1, negative: before.negative });
    // The same rating again changes the words only.
    await buyer.post(`/rest/v1/feedback/${hash}/give`, { rating: 'positive', message: 'Great.' });
    expect(await counters(VENDOR)).toEqual({ positive: before.positive + 1, negative: before.negative });
    t.clock.now += 2 * DAY;
    const late = await buyer.post(`/rest/v1/feedback/${hash}/give`, {
      rating: 'negative',
      message: 'Changed my mind.',
    });
    expect(late.status).toBe(403);
    expect(await errorOf(late)).toMatchObject({ code: 'FORBIDDEN' });
    expect(await counters(VENDOR)).toEqual({ positive: before.positive + 1, negative: before.negative });
    expect(events).toHaveLength(3);
  });

  it('refuses running and cancelled trades, strangers, moderators, visitors, missing CSRF and bad input', async () => {
    const running = await f.startTrade(buyer, offer);
    const early = await buyer.post(`/rest/v1/feedback/${running.hash}/give`, { rating: 'positive', message: 'Hi' });
    expect(early.status).toBe(403);
    expect((await errorOf(early))?.message).toMatch(/released/);
    await buyer.post(`/rest/v1/trade/${running.hash}/cancel`);
    for (const who of [buyer, vendor]) {
      const cancelled = await who.post(`/rest/v1/feedback/${running.hash}/give`, {
        rating: 'negative',
        message: 'No.',
      });
      expect(cancelled.status).toBe(403);
    }

    const hash = await releasedTrade();
    const moderator = await (await createUser(t, { role: 'moderator' })).signIn();
    const stranger = await f.signedIn('affiliate@example.com');
    for (const who of [moderator, stranger]) {
      expect((await who.post(`/rest/v1/feedback/${hash}/give`, { rating: 'positive', message: 'x' })).status).toBe(404);
    }
    const visitor = await t.send(`/rest/v1/feedback/${hash}/give`, {
      method: 'POST',
      json: { rating: 'positive', message: 'x' },
    });
    expect(visitor.status).toBe(401);
    const cookie = [...buyer.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const noCsrf = await t.send(`/rest/v1/feedback/${hash}/give`, {
      method: 'POST',
      json: { rating: 'positive', message: 'x' },
      headers: { cookie, 'x-csrf-token': 'B'.repeat(43) },
    });
    expect(noCsrf.status).toBe(403);
    const badRating = await buyer.post(`/rest/v1/feedback/${hash}/give`, { rating: 'great', message: 'x' });
    expect(badRating.status).toBe(400);
    expect(await errorOf(badRating)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'rating' });
    for (const message of ['   ', 'x'.repeat(501)]) {
      const bad = await buyer.post(`/rest/v1/feedback/${hash}/give`, { rating: 'positive', message });
      expect(bad.status).toBe(400);
      expect(await errorOf(bad)).toMatchObject({ field: 'message', message: expect.stringContaining('500') });
    }
    expect(events).toEqual([]);
  });

  it('rates a trade whose dispute a moderator decided', async () => {
    const trade = await f.startTrade(buyer, offer);
    await buyer.post(`/rest/v1/trade/${trade.hash}/paid`);
    await f.sql(
      'UPDATE trades SET status = ?, ended_at = ? WHERE hash = ?',
      'dispute_won_seller',
      t.clock.now,
      trade.hash,
    );
    const res = await buyer.post(`/rest/v1/feedback/${trade.hash}/give`, { rating: 'negative', message: 'Disputed.' });
    expect(res.status).toBe(200);
  });
});

describe('POST /rest/v1/feedback/{id}/reply', () => {
  it('lets the person rated answer once; no one else, and nothing before there is feedback', async () => {
    const hash = await releasedTrade();
    const none = await vendor.post(`/rest/v1/feedback/${hash}/reply`, { reply: 'Thanks!' });
    expect(none.status).toBe(404);
    await buyer.post(`/rest/v1/feedback/${hash}/give`, { rating: 'positive', message: 'Smooth.' });
    // The buyer received no feedback to reply to.
    expect((await buyer.post(`/rest/v1/feedback/${hash}/reply`, { reply: 'Me?' })).status).toBe(404);
    const stranger = await f.signedIn('affiliate@example.com');
    expect((await stranger.post(`/rest/v1/feedback/${hash}/reply`, { reply: 'Hi' })).status).toBe(404);
    const bad = await vendor.post(`/rest/v1/feedback/${hash}/reply`, { reply: '' });
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatchObject({ field: 'reply' });
    const res = await vendor.post(`/rest/v1/feedback/${hash}/reply`, { reply: 'Thanks, come again!' });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toMatchObject({ reply: 'Thanks, come again!', repliedAt: t.clock.now / 1000 });
    const twice = await vendor.post(`/rest/v1/feedback/${hash}/reply`, { reply: 'Again' });
    expect(twice.status).toBe(403);
    expect(await errorOf(twice)).toMatchObject({ code: 'FORBIDDEN' });
    expect((await t.send(`/rest/v1/feedback/${hash}/reply`, { method: 'POST', json: { reply: 'x' } })).status).toBe(
      401,
    );
  });
});

describe('GET /rest/v1/feedback/{id}', () => {
  it('shows both sides to the parties with what each may still do; 404 to others, 401 to visitors', async () => {
    const hash = await releasedTrade();
    expect((await (await buyer.get(`/rest/v1/feedback/${hash}`)).json()).data).toEqual({
      given: null,
      received: null,
      canGive: true,
      editableUntil: null,
      canReply: false,
    });
    await buyer.post(`/rest/v1/feedback/${hash}/give`, { rating: 'positive', message: 'Smooth.' });
    const seller = (await (await vendor.get(`/rest/v1/feedback/${hash}`)).json()).data;
    expect(seller).toMatchObject({ given: null, received: { rating: 'positive' }, canGive: true, canReply: true });
    const mine = (await (await buyer.get(`/rest/v1/feedback/${hash}`)).json()).data;
    expect(mine).toMatchObject({ given: { message: 'Smooth.' }, editableUntil: (t.clock.now + 30 * DAY) / 1000 });
    const stranger = await f.signedIn('affiliate@example.com');
    expect((await stranger.get(`/rest/v1/feedback/${hash}`)).status).toBe(404);
    expect((await t.send(`/rest/v1/feedback/${hash}`)).status).toBe(401);
    expect((await buyer.get('/rest/v1/feedback/no')).status).toBe(400);
  });
});

describe('GET /rest/v1/users/{username}/feedbacks', () => {
  it('lists a person’s feedback for anyone, filtered by side and rating, 50 a page', async () => {
    const hash = await releasedTrade();
    await vendor.post(`/rest/v1/feedback/${hash}/give`, { rating: 'positive', message: 'Paid fast.' });
    await insertHistory(f.sql, { buyer: 'buyer', seller: 'vendor', count: 60, at: t.clock.now });

    const all = await (await t.send('/rest/v1/users/vendor/feedbacks')).json();
    expect(all).toMatchObject({ total: 60, positive: 30, negative: 30 });
    expect(all.data).toHaveLength(50);
    expect(all.data[0]).toMatchObject({ type: 'sell', from: { username: 'buyer' }, message: 'Trade 1' });
    expect(all.nextPageUrl).toBe('/rest/v1/users/vendor/feedbacks?f_page=2&offer_type=all&feedback=all');
    const second = await (await t.send(all.nextPageUrl)).json();
    expect(second.data).toHaveLength(10);
    expect(second.nextPageUrl).toBeNull();

    const negative = await (await t.send('/rest/v1/users/vendor/feedbacks?feedback=negative')).json();
    expect(negative).toMatchObject({ total: 60, positive: 30, negative: 30, nextPageUrl: null });
    expect(negative.data).toHaveLength(30);
    expect(negative.data.every((r: { rating: string }) => r.rating === 'negative')).toBe(true);

    // The buyer was rated once, as a buyer (type buy): from sellers.
    const fromSellers = await (await t.send('/rest/v1/users/BUYER/feedbacks?offer_type=buy')).json();
    expect(fromSellers).toMatchObject({ total: 1, positive: 1, negative: 0 });
    expect(fromSellers.data[0]).toMatchObject({ type: 'buy', message: 'Paid fast.' });
    const fromBuyers = await (await t.send('/rest/v1/users/buyer/feedbacks?offer_type=sell')).json();
    expect(fromBuyers).toMatchObject({ total: 0, data: [], nextPageUrl: null });
  });

  it('answers 404 for unknown and banned people and 400 for bad filters', async () => {
    expect((await t.send('/rest/v1/users/nobody/feedbacks')).status).toBe(404);
    expect((await t.send('/rest/v1/users/banned/feedbacks')).status).toBe(404);
    const bad = await t.send('/rest/v1/users/vendor/feedbacks?feedback=good');
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatchObject({ field: 'feedback' });
    expect(await errorOf(await t.send('/rest/v1/users/vendor/feedbacks?f_page=0'))).toMatchObject({ field: 'f_page' });
    expect(await errorOf(await t.send('/rest/v1/users/vendor/feedbacks?offer_type=x'))).toMatchObject({
      field: 'offer_type',
    });
  });
});

describe('POST /rest/v1/feedback/feature-request', () => {
  it('stores the request of a signed-in person, ten a day', async () => {
    const res = await buyer.post('/rest/v1/feedback/feature-request', { text: '  Please add Lightning.  ' });
    expect(res.status).toBe(201);
    expect((await res.json()).data).toEqual({ success: true });
    expect(await t.db.sql.all('SELECT text, locale FROM feature_requests')).toEqual([
      { text: 'Please add Lightning.', locale: 'en' },
    ]);
    for (let i = 0; i < 9; i += 1) await buyer.post('/rest/v1/feedback/feature-request', { text: `Idea ${i}` });
    const limited = await buyer.post('/rest/v1/feedback/feature-request', { text: 'One more' });
    expect(limited.status).toBe(429);
    t.clock.now += DAY;
    expect((await buyer.post('/rest/v1/feedback/feature-request', { text: 'Next day' })).status).toBe(201);
  });

  it('holds the limit when many requests arrive at once', async () => {
    const sent = await Promise.all(
      Array.from({ length: 15 }, (_, i) => buyer.post('/rest/v1/feedback/feature-request', { text: `Idea ${i}` })),
    );
    expect(sent.filter((res) => res.status === 201)).toHaveLength(10);
    expect(sent.filter((res) => res.status === 429)).toHaveLength(5);
    expect((await t.db.sql.get<{ n: number }>('SELECT count(*) AS n FROM feature_requests'))?.n).toBe(10);
  });

  it('refuses visitors, missing CSRF tokens and empty or long text', async () => {
    expect((await t.send('/rest/v1/feedback/feature-request', { method: 'POST', json: { text: 'x' } })).status).toBe(
      401,
    );
    const cookie = [...buyer.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const noCsrf = await t.send('/rest/v1/feedback/feature-request', {
      method: 'POST',
      json: { text: 'x' },
      headers: { cookie, 'x-csrf-token': 'B'.repeat(43) },
    });
    expect(noCsrf.status).toBe(403);
    for (const text of ['', 'x'.repeat(2001)]) {
      const bad = await buyer.post('/rest/v1/feedback/feature-request', { text });
      expect(bad.status).toBe(400);
      expect(await errorOf(bad)).toMatchObject({ field: 'text' });
    }
    const missing = await buyer.post('/rest/v1/feedback/feature-request', {});
    expect(await errorOf(missing)).toMatchObject({ field: 'text' });
  });
});
