import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_VENDOR_DOMAIN, DEMO_VENDOR_FUNDS, readyDemoVendors } from '../../db/seed/demo.ts';
import { DEMO_BUYER_DOMAIN, DEMO_HISTORY_DAYS, seedDemoHistory } from '../../db/seed/demo-history.ts';
import { ledgerCommands } from '../../server/admin/ledger-commands.ts';
import { systemContext } from '../../server/services/context.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { tradeFixtures } from '../support/trade-fixtures.ts';

// A fresh install's demo market can be traded against (db/seed/demo.ts, readyDemoVendors): the
// demo vendors are fully verified and funded through the ledger, so a newcomer's first trade on a
// demo sell offer starts. The suite's template database leaves this step out (its ledger and
// phone tests count from zero); here it runs on a copy, and so does the demo history
// (db/seed/demo-history.ts): months of trades and feedback made by the services themselves.

const testContext = systemContext('test');
let t: TestApp;
afterEach(() => t?.close());

const demoVendorIds = async () =>
  (
    await t.db.sql.all<{ id: number }>('SELECT id FROM users WHERE email LIKE ? ORDER BY id', [
      `%${DEMO_VENDOR_DOMAIN}`,
    ])
  ).map((row) => row.id);

describe('demo vendors', () => {
  it('are verified to the highest level and funded, with the ledger whole', async () => {
    t = await createTestApp();
    const ids = await demoVendorIds();
    expect(await readyDemoVendors(t.db, t.clock.now)).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(30);
    for (const id of ids) {
      expect((await t.services.verification.tradeAllowance(testContext, { userId: id })).level).toBe(4);
      expect(await t.services.ledger.balances(testContext, { userId: id })).toEqual(DEMO_VENDOR_FUNDS);
    }
    expect(await ledgerCommands(t.db).verify()).toMatch(/^Ledger OK/);
  });

  it('let a newcomer start a trade on a demo sell offer', async () => {
    t = await createTestApp();
    await readyDemoVendors(t.db, t.clock.now);
    const f = tradeFixtures(t);
    await f.everyoneOnline();
    const candidates = (
      await t.db.sql.all<{ hash: string }>(
        `SELECT o.hash FROM offers o
           JOIN users u ON u.id = o.owner_id
           JOIN fiat_currencies f ON f.id = o.fiat_currency_id
           JOIN crypto_currencies c ON c.id = o.crypto_currency_id
           JOIN payment_methods m ON m.id = o.payment_method_id
         WHERE u.email LIKE ? AND o.status = 'active' AND o.type = 'sell' AND c.code = 'BTC'
           AND f.code = 'USD' AND m.slug NOT LIKE '%gift-card%' AND o.show_only_trusted_user = 0
           AND o.fiat_min_minor <= 100000 AND o.trade_requirements = '[]'
         ORDER BY o.id`,
        [`%${DEMO_VENDOR_DOMAIN}`],
      )
    ).map((row) => row.hash);
    const buyer = await f.signedIn('buyer@example.com');
    // The first one the offer page would let the newcomer start, as a person browsing would find it.
    let startable: { view: Parameters<typeof f.startTrade>[1]; min: number } | undefined;
    for (const hash of candidates) {
      const { data, meta } = await (await buyer.get(`/rest/v1/offers/${hash}`)).json();
      if (meta.canStartTrade && meta.limits.min <= 1000) {
        startable = { view: data, min: meta.limits.min };
        break;
      }
    }
    if (!startable) throw new Error(`none of ${candidates.length} demo USD sell offers can be started`);
    // Within the newcomer's level-1 limit (1,000 USD per 30 days).
    const trade = await f.startTrade(buyer, startable.view, String(startable.min));
    expect(trade.status).toBe('active_funded');
  });

  // Some 300 trades through the services: seconds on SQLite, half a minute of PostgreSQL's round trips.
  it('have a past made by the services: feedback lists match the counters, past trades exist, the ledger is whole', async () => {
    t = await createTestApp();
    const now = t.clock.now;
    // As prepareDatabase does it: funded a day before the history starts.
    await readyDemoVendors(t.db, now - (DEMO_HISTORY_DAYS + 1) * 86_400_000);
    const result = await seedDemoHistory(t.db, { now, seed: 7 });
    expect(result.buyers).toBe(12);
    expect(result.cancelled).toBeGreaterThan(0);
    expect(result.feedback).toBe(2 * result.completed);

    const f = tradeFixtures(t);
    const moderator = await f.signedIn('moderator@example.com');
    const vendors = (
      await t.db.sql.all<{ username: string }>('SELECT username FROM users WHERE email LIKE ? ORDER BY id', [
        `%${DEMO_VENDOR_DOMAIN}`,
      ])
    ).map((row) => row.username);
    let cancelled = 0;
    for (const username of vendors) {
      const list = await (await t.send(`/rest/v1/users/${username}/feedbacks`)).json();
      const { data: profile } = await (await t.send(`/rest/v1/users/${username}/profile`)).json();
      expect(list.total, username).toBeGreaterThan(0);
      expect(list.total, username).toBe(profile.feedback.positive + profile.feedback.negative);
      expect([list.positive, list.negative]).toEqual([profile.feedback.positive, profile.feedback.negative]);
      expect(list.data).toHaveLength(Math.min(list.total, 50));
      const past = await (await moderator.get(`/rest/v1/users/${username}/past-trades`)).json();
      const successful = await (await moderator.get(`/rest/v1/users/${username}/past-trades?status=successful`)).json();
      expect(successful.meta.total, username).toBe(profile.totalTrades);
      expect(profile.totalTrades, username).toBeGreaterThanOrEqual(4);
      expect(profile.totalTrades, username).toBeLessThanOrEqual(10);
      cancelled += past.meta.total - successful.meta.total;
      // Every trade of the history lies in its months, none after `now`.
      for (const trade of past.data as { startedAt: number; endedAt: number }[]) {
        expect(trade.startedAt * 1000).toBeGreaterThanOrEqual(now - DEMO_HISTORY_DAYS * 86_400_000);
        expect(trade.endedAt * 1000).toBeLessThan(now);
      }
    }
    expect(cancelled).toBe(result.cancelled);
    // The demo buyers' counters are the services' too.
    const mismatched = await t.db.sql.all<{ username: string }>(
      `SELECT u.username FROM users u WHERE (u.email LIKE ? OR u.email LIKE ?) AND (
           u.feedback_positive <> (SELECT count(*) FROM trade_feedback WHERE to_id = u.id AND rating = 'positive')
           OR u.feedback_negative <> (SELECT count(*) FROM trade_feedback WHERE to_id = u.id AND rating = 'negative')
           OR u.completed_trades <> (SELECT count(*) FROM trades WHERE status = 'released' AND u.id IN (buyer_id, seller_id)))`,
      [`%${DEMO_VENDOR_DOMAIN}`, `%${DEMO_BUYER_DOMAIN}`],
    );
    expect(mismatched).toEqual([]);
    // Gift-card offers are traded too (issue 18): paid with cards, every code opened before release.
    const giftTrades = await t.db.sql.all<{ status: string; cards: number; used: number }>(
      `SELECT t.status, (SELECT count(*) FROM gift_cards c WHERE c.trade_id = t.id) AS cards,
         (SELECT count(*) FROM gift_cards c WHERE c.trade_id = t.id AND c.state = 'used') AS used
       FROM trades t JOIN payment_methods m ON m.id = t.payment_method_id
         JOIN payment_groups g ON g.id = m.group_id
       WHERE g.slug = 'gift-cards'`,
    );
    const released = giftTrades.filter((trade) => trade.status === 'released');
    expect(released.length).toBeGreaterThan(0);
    for (const trade of released) expect(Number(trade.used)).toBe(Number(trade.cards));
    expect(released.every((trade) => Number(trade.cards) > 0)).toBe(true);
    const revealed = await t.db.sql.get<{ n: number }>(
      "SELECT count(*) AS n FROM gift_card_events WHERE action = 'revealed'",
    );
    expect(Number(revealed?.n)).toBeGreaterThanOrEqual(released.length);
    // The demo buyer people sign in as has free cards to try a gift-card trade with.
    const buyer = await f.signedIn('buyer@example.com');
    const cards = (await (await buyer.get('/rest/v1/gift-cards')).json()).data as { state: string }[];
    expect(cards.filter((card) => card.state === 'free').length).toBeGreaterThanOrEqual(4);
    expect(await ledgerCommands(t.db).verify()).toMatch(/^Ledger OK/);
  }, 180_000);
});
