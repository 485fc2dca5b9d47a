import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { createRedisBus, type SharedEventBus } from '../../server/realtime/redis-bus.ts';
import { createServices } from '../../server/services/container.ts';
import { type AuthState, personContext, systemContext } from '../../server/services/context.ts';
import {
  type CryptoCode,
  createTickListeners,
  type PriceFeed,
  type PriceTick,
} from '../../server/services/price-feed/price-feed.ts';
import { createSharedPriceFeed, type SharedPriceFeed } from '../../server/services/price-feed/shared.ts';
import { publishQuotes } from '../../server/services/quotes/publish.ts';
import type { Quote } from '../../server/services/quotes/quotes.ts';
import { createRedisStore, type SharedStore } from '../../server/shared-store.ts';
import { fundPeople } from '../support/offer-funds.ts';
import { redisReachable, TEST_REDIS_URL } from '../support/redis.ts';
import { createTestDb, type TestDb } from '../support/test-db.ts';

// Two services instances on one database and one Redis stand for two server processes (issue 17):
// a quote issued by one is accepted by the other, the follower's price feed mirrors the leader's
// ticks, and an offer written through one drops the other's cached searches.

const REDIS_URL = TEST_REDIS_URL;
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const ctx = systemContext('test');

const reachable = await redisReachable();
if (!reachable) console.warn('Redis is not reachable at', REDIS_URL, ': the shared-state tests are skipped.');

/** A price source the test ticks by hand; `tick` resolves when its listeners are done. */
function manualSource(clock: { now: number }, usd: Record<CryptoCode, number>) {
  const listeners = createTickListeners();
  let running = false;
  const source: PriceFeed & { running(): boolean; tick(prices: Partial<Record<CryptoCode, number>>): Promise<void> } = {
    source: 'simulated',
    usdPrice: (crypto) => usd[crypto],
    fiatPerUsd: () => undefined,
    updatedAt: () => clock.now,
    resumeFrom: () => {},
    onTick: listeners.add,
    start: () => {
      running = true;
    },
    stop: () => {
      running = false;
    },
    running: () => running,
    tick(prices) {
      Object.assign(usd, prices);
      return listeners.emit({ at: clock.now, usd: { ...usd } } satisfies PriceTick);
    },
  };
  return source;
}

const closing: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** One "process": its own bus, store, feed and services, over the shared database. */
async function oneProcess(db: Database, prefix: string, clock: { now: number }, usd: Record<CryptoCode, number>) {
  const bus: SharedEventBus = await createRedisBus(REDIS_URL, { prefix: `${prefix}bus:` });
  const store: SharedStore = await createRedisStore(REDIS_URL, { prefix: `${prefix}store:` });
  const source = manualSource(clock, usd);
  const priceFeed: SharedPriceFeed = createSharedPriceFeed({ source, bus });
  const uploads = mkdtempSync(join(tmpdir(), 'coinfair-shared-'));
  const services = createServices({
    db,
    priceFeed,
    bus,
    store,
    now: () => clock.now,
    config: { AUTH_CHALLENGE: 'off', MAIL_FROM: 'Coinfair <no-reply@coinfair.test>', UPLOADS_DIR: uploads },
    log: { info() {}, error() {} },
    mailer: { send: async () => {} },
    smsSender: { send: async () => {} },
  });
  const stopQuotes = publishQuotes({ quotes: services.quotes, bus });
  closing.push(
    () => bus.close(),
    () => store.close(),
    () => priceFeed.close(),
    stopQuotes,
    () => rmSync(uploads, { recursive: true, force: true }),
  );
  await bus.subscribed();
  return { bus, store, source, priceFeed, services };
}

async function twoProcesses() {
  const testDb: TestDb = await createTestDb();
  closing.push(() => testDb.close());
  const prefix = `coinfair-test:${randomUUID()}:`;
  const clock = { now: T0 };
  // Each process's source starts elsewhere: whatever B shows or accepts came from A.
  const a = await oneProcess(testDb.db, prefix, clock, { BTC: 90_000, USDT: 1 });
  const b = await oneProcess(testDb.db, prefix, clock, { BTC: 50_000, USDT: 1 });
  return { db: testDb.db, clock, a, b };
}

describe.skipIf(!reachable)('shared state across processes (Redis)', () => {
  it("accepts on B a quote issued on A, at A's prices, and says 'expired' for it after its time", async () => {
    const { clock, a, b } = await twoProcesses();
    const quote = (await a.services.quotes.current(ctx)) as Quote;
    expect(quote.service_price_ask).toBe(90_225);
    expect(await b.services.quotes.get(ctx, { id: quote.id })).toEqual(quote);
    // 902.25 USDT at A's ask of 90,225.00 is 0.01 BTC (B's own source stands at 50,000).
    const input = { from: 'USDT' as const, to: 'BTC' as const, amountMinor: 902_250_000, quoteId: quote.id };
    expect((await b.services.quotes.convertAmount(ctx, input)).amountTo).toBe(1_000_000);
    clock.now = quote.expired_timestamp * 1000;
    await expect(b.services.quotes.convertAmount(ctx, input)).rejects.toMatchObject({ code: 'QUOTE_EXPIRED' });
    await expect(
      b.services.quotes.convertAmount(ctx, { ...input, quoteId: 'qt_0000000000000000' }),
    ).rejects.toMatchObject({ code: 'QUOTE_UNKNOWN' });
  });

  it("mirrors the leader's ticks on the follower; only the leader quotes them, and both show that quote", async () => {
    const { clock, a, b } = await twoProcesses();
    a.priceFeed.start();
    expect([a.priceFeed.leads(), b.priceFeed.leads()]).toEqual([true, false]);
    expect(b.source.running()).toBe(false);
    const heardOnB: PriceTick[] = [];
    b.priceFeed.onTick((tick) => heardOnB.push(tick));
    const issued = { a: [] as Quote[], b: [] as Quote[] };
    a.services.quotes.onQuote((q) => issued.a.push(q));
    b.services.quotes.onQuote((q) => issued.b.push(q));

    clock.now += 10_000;
    await a.source.tick({ BTC: 91_000 });
    await expect.poll(() => heardOnB.length).toBe(1);
    expect(heardOnB[0]).toEqual({ at: clock.now, usd: { BTC: 91_000, USDT: 1 } });
    expect([b.priceFeed.usdPrice('BTC'), b.priceFeed.updatedAt()]).toEqual([91_000, clock.now]);
    // One quote for the tick, the leader's; the follower shows it instead of issuing its own.
    await expect.poll(() => issued.a.length).toBe(1);
    const tickQuote = issued.a[0] as Quote;
    await expect.poll(async () => (await b.services.quotes.current(ctx))?.id).toBe(tickQuote.id);
    expect(issued.b).toEqual([]);
    expect(tickQuote.service_price_ask).toBe(91_227.5);

    // The lead moves: A stops, B runs its source and its ticks reach A.
    a.priceFeed.stop();
    b.priceFeed.start();
    clock.now += 10_000;
    await b.source.tick({ BTC: 92_000 });
    await expect.poll(() => a.priceFeed.usdPrice('BTC')).toBe(92_000);
    await expect.poll(() => issued.b.length).toBe(1);
    expect(issued.a).toHaveLength(1);
  });

  it('drops the cached searches of B when an offer is written through A', async () => {
    const { db, a, b } = await twoProcesses();
    const btc = await db.sql.get<{ id: number }>(`SELECT id FROM crypto_currencies WHERE code = 'BTC'`);
    const vendor = await db.sql.get<{ id: number }>(`SELECT id FROM users WHERE email = 'vendor@example.com'`);
    const owned = await db.sql.all<{ hash: string }>(
      `SELECT hash FROM offers WHERE owner_id = ? AND status = 'active' AND type = 'sell' AND crypto_currency_id = ?
        ORDER BY id LIMIT 2`,
      [vendor?.id, btc?.id],
    );
    // Only the vendor's two offers listed, the vendor funded and online: the first page shows both.
    await fundPeople({ db, ledger: a.services.ledger }, 'id = ?', [vendor?.id]);
    const listed = owned.map((row) => row.hash);
    await db.sql.run(`UPDATE offers SET status = 'paused' WHERE hash NOT IN (?, ?)`, listed);
    await db.sql.run('UPDATE users SET last_seen_at = ?', [T0]);
    expect(owned.length).toBeGreaterThanOrEqual(2);
    const input = { type: 'buy' as const, cryptoCurrencyId: btc?.id as number, locale: 'en' as const };
    const hashesOnB = async () =>
      new Set(
        (await b.services.offers.search(ctx, input)).offers.map((offer) => (offer as unknown as { hash: string }).hash),
      );
    const [first, second] = listed as [string, string];
    expect(await hashesOnB()).toEqual(new Set(listed));

    // Changed behind the services' back: B's cached answer still lists it.
    await db.sql.run(`UPDATE offers SET status = 'paused' WHERE hash = ?`, [second]);
    expect(await hashesOnB()).toContain(second);

    // A vendor's write through A: B forgets its cached searches and sees both changes.
    const { token } = await a.services.sessions.create(ctx, {
      userId: vendor?.id as number,
      client: { ip: '203.0.113.7', userAgent: 'test' },
    });
    const auth = (await a.services.sessions.validate(token)) as AuthState;
    // B's visitors' listing pages are keyed on the writes it has heard of (src/middleware.ts).
    const pagesOnB = b.services.offers.searchGeneration();
    await a.services.offers.toggle(personContext(auth), { hash: first, active: false, locale: 'en' });
    await expect.poll(async () => [...(await hashesOnB())]).toEqual([]);
    expect(b.services.offers.searchGeneration()).toBeGreaterThan(pagesOnB);
  });
});
