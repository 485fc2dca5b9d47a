import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../server/services/context.ts';
import { LISTING_SORTS } from '../../src/lib/shared/listing-sort.ts';
import type { browserSession } from '../support/browser-session.ts';
import { fundPeople } from '../support/offer-funds.ts';
import { createTestApp, TEST_NOW, type TestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';

// The listing's orders (GET /rest/v1/offers?sort=, decision 133): each keeps the featured list
// first and, in each list, the owners seen in the last two hours before the rest; no `sort` is the
// contract's order by price, unchanged. Amounts compare in US dollars across currencies.

let t: TestApp;
afterEach(() => t?.close());

type Browser = ReturnType<typeof browserSession>;

const sql = async (statement: string, ...params: unknown[]) => {
  await t.db.sql.run(statement, params);
  await t.services.offers.invalidateSearches(systemContext('test'));
};

interface Standing {
  positive?: number;
  negative?: number;
  trades?: number;
  /** Last seen, in ms before TEST_NOW. */
  seenAgo?: number;
}

/**
 * A funded, signed-in vendor; `settle()` gives them `standing` once their offers are made (every
 * request of theirs marks them as seen now).
 */
async function vendor(name: string, { positive = 0, negative = 0, trades = 0, seenAgo = 0 }: Standing = {}) {
  const user = await createUser(t, { vendor: true, username: name });
  await fundPeople({ db: t.db, ledger: t.services.ledger }, 'id = ?', [user.id]);
  const settle = () =>
    sql(
      'UPDATE users SET feedback_positive = ?, feedback_negative = ?, completed_trades = ?, last_seen_at = ? WHERE id = ?',
      positive,
      negative,
      trades,
      TEST_NOW - seenAgo,
      user.id,
    );
  return { ...user, settle, browser: await user.signIn() };
}

async function offer(b: Browser, fields: Record<string, unknown>) {
  const res = await b.post('/rest/v1/offers', {
    type: 'sell',
    crypto_currency_code: 'BTC',
    currency: 'USD',
    payment_method: 'bank-transfer',
    price_type: 'margin',
    payment_window: 60,
    terms: 'Send from an account in your own name.',
    ...fields,
  });
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return ((await res.json()).data as { hash: string }).hash;
}

const order = async (query: string) => {
  const res = await t.send(`/rest/v1/offers?type=buy${query}`);
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
  return ((await res.json()).data as { hash: string }[]).map((o) => o.hash);
};

beforeEach(async () => {
  t = await createTestApp();
  await sql(`UPDATE offers SET status = 'paused'`);
  await sql('UPDATE users SET last_seen_at = ?', TEST_NOW);
});

describe('GET /rest/v1/offers?sort=', () => {
  it('orders by limits, reputation and last seen inside each list, the price breaking ties', async () => {
    // Seen 1, 30 and 90 minutes ago: all among the recently active.
    const veteran = await vendor('veteranvendor', { positive: 990, negative: 10, trades: 1200, seenAgo: 90 * 60_000 });
    const newcomer = await vendor('newcomervendor', { positive: 1, trades: 1, seenAgo: 60_000 });
    const middling = await vendor('middlingvendor', { positive: 300, negative: 0, trades: 400, seenAgo: 30 * 60_000 });
    // 66.67 USD – 800 USD in yen: the smallest minimum and not the largest maximum once in dollars,
    // the other way round in raw minor units (10,000 yen against 8,000 cents).
    const yen = await offer(veteran.browser, { currency: 'JPY', margin: '3', fiat_min: '10000', fiat_max: '120000' });
    const cheap = await offer(newcomer.browser, { margin: '1', fiat_min: '80', fiat_max: '1000' });
    const mid = await offer(middling.browser, { margin: '2', fiat_min: '500', fiat_max: '900' });
    const twin = await offer(middling.browser, { margin: '1.5', fiat_min: '500', fiat_max: '900' });
    for (const v of [veteran, newcomer, middling]) await v.settle();

    // Cached answers are keyed by order: the default first, in the same 10-second bucket.
    const byPrice = [cheap, twin, mid, yen];
    expect(await order('')).toEqual(byPrice);
    expect(await order('&sort=price')).toEqual(byPrice);
    expect(await order('&sort=limit-min')).toEqual([yen, cheap, twin, mid]);
    expect(await order('&sort=limit-max')).toEqual([cheap, twin, mid, yen]);
    expect(await order('&sort=reputation')).toEqual([yen, twin, mid, cheap]);
    expect(await order('&sort=last-seen')).toEqual([cheap, twin, mid, yen]);

    // Reputation is net feedback: 300 good and none beats 990 good and 700 bad.
    await sql('UPDATE users SET feedback_negative = 700 WHERE id = ?', veteran.id);
    expect(await order('&sort=reputation')).toEqual([twin, mid, yen, cheap]);
  });

  it('keeps the featured list first and owners seen over two hours ago last, in every order', async () => {
    const fresh = await vendor('freshvendor', { positive: 1, seenAgo: 60_000 });
    const stale = await vendor('stalevendor', { positive: 500, trades: 600, seenAgo: 3 * 3_600_000 });
    const featured = await offer(fresh.browser, { margin: '9', fiat_min: '900', fiat_max: '1000' });
    await sql('UPDATE offers SET is_featured = 1 WHERE hash = ?', featured);
    const freshOffer = await offer(fresh.browser, { margin: '5', fiat_min: '300', fiat_max: '400' });
    const staleOffer = await offer(stale.browser, { margin: '0', fiat_min: '10', fiat_max: '5000' });
    for (const v of [fresh, stale]) await v.settle();
    for (const sort of LISTING_SORTS) {
      expect(await order(`&sort=${sort}`), sort).toEqual([featured, freshOffer, staleOffer]);
    }
    const found = await t.send('/rest/v1/offers?type=buy&sort=reputation');
    expect((await found.json()).meta).toMatchObject({ featuredOffersCount: 1, otherOffersCount: 2 });
  });

  it('sorts offers to a visitor who sells by price dearest first, and pages without overlap', async () => {
    const a = await vendor('bidderone', { positive: 5, seenAgo: 60_000 });
    const hashes: string[] = [];
    for (let i = 0; i < 53; i++) {
      hashes.push(await offer(a.browser, { type: 'buy', margin: String(-i / 10), fiat_min: '50', fiat_max: '1000' }));
    }
    await a.settle();
    // Same owner, same limits: the price decides, dearest first for a seller; then the id.
    const first = await t.send('/rest/v1/offers?type=sell&sort=limit-min');
    const second = await t.send('/rest/v1/offers?type=sell&sort=limit-min&page=2');
    const listed = [...(await first.json()).data, ...(await second.json()).data].map((o: { hash: string }) => o.hash);
    expect(listed).toEqual(hashes);
  });

  it.each(['cheapest', 'PRICE', '', 'price,reputation'])('refuses sort=%s with a field error', async (value) => {
    const res = await t.send(`/rest/v1/offers?type=buy&sort=${encodeURIComponent(value)}`);
    expect(res.status).toBe(400);
    const error = (await res.json()).errors[0];
    expect(error.code).toBe('ERROR_INPUT_VALIDATION');
    expect(error.details).toEqual([
      expect.objectContaining({ field: 'sort', message: expect.stringContaining('must be one of price') }),
    ]);
  });

  it('documents the parameter in the OpenAPI document', async () => {
    const doc = await (await t.send('/rest/v1/openapi.json')).json();
    const parameter = doc.paths['/rest/v1/offers'].get.parameters.find((p: { name: string }) => p.name === 'sort');
    expect(parameter.in).toBe('query');
    expect(parameter.required).not.toBe(true);
    expect(parameter.schema.enum).toEqual([...LISTING_SORTS]);
    expect(JSON.stringify(parameter)).toContain('net feedback');
  });
});
