import { and, asc, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { priceHistory } from '../../db/schema/index.ts';
import { seedPriceHistory } from '../../db/seed/price-history.ts';
import { systemContext } from '../../server/services/context.ts';
import {
  bucketCloses,
  bucketStart,
  CHART_RANGES,
  type ChartRange,
  pruneCutoffs,
} from '../../server/services/market/buckets.ts';
import { createMarketService } from '../../server/services/market/market.ts';
import { createMarketRepository } from '../../server/services/market/repository.ts';
import { sampleTimes, syntheticWalk } from '../../server/services/market/synthetic-history.ts';
import type { CryptoCode, PriceFeed } from '../../server/services/price-feed/price-feed.ts';
import { createSimulatedPriceFeed } from '../../server/services/price-feed/simulated.ts';
import { createTickerPriceFeed } from '../../server/services/price-feed/ticker.ts';
import { SIMULATED_MARKET } from '../../server/services/price-feed/walk.ts';
import { createReferenceService } from '../../server/services/reference/reference.ts';
import { createReferenceRepository } from '../../server/services/reference/repository.ts';
import { roundDecimal } from '../../src/lib/shared/money.ts';
import { createTestDb, type TestDb } from '../support/test-db.ts';

const DAY = 86_400;
/** 2026-11-24T12:00:00Z in unix seconds. */
const NOW = Date.UTC(2026, 10, 24, 12) / 1000;

const opened: TestDb[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
});

type FeedKind = 'simulated' | 'ticker';

/** The market service over a private database whose history is empty, or seeded to end at `historyEnd`. */
async function market({ historyEnd, feed = 'simulated' }: { historyEnd?: number; feed?: FeedKind } = {}) {
  const testDb = await createTestDb();
  opened.push(testDb);
  const { db } = testDb;
  await db.run(db.orm.delete(priceHistory));
  if (historyEnd !== undefined) await seedPriceHistory(db, historyEnd * 1000);
  const clock = { now: NOW * 1000 };
  const now = () => clock.now;
  const priceFeed: PriceFeed =
    feed === 'simulated'
      ? createSimulatedPriceFeed({ tickSeconds: 10, anchors: { BTC: 90_000, USDT: 1 }, now })
      : createTickerPriceFeed({ url: 'http://127.0.0.1:9/never-polled', pollSeconds: 10, now, log: console });
  const reference = createReferenceService({ repo: createReferenceRepository(db), priceFeed, now });
  const service = createMarketService({ repo: createMarketRepository(db), priceFeed, reference, now });
  const rows = (crypto: CryptoCode, resolution: number) =>
    db.all(
      db.orm
        .select({ at: priceHistory.at, usd: priceHistory.usd })
        .from(priceHistory)
        .where(and(eq(priceHistory.crypto, crypto), eq(priceHistory.resolution, resolution)))
        .orderBy(asc(priceHistory.at)),
    );
  return { db, clock, priceFeed, reference, service, rows };
}

describe('buckets', () => {
  it('puts a time in the bucket that starts at or before it', () => {
    expect(bucketStart(NOW + 59, 60)).toBe(NOW);
    expect(bucketStart(NOW + 60, 60)).toBe(NOW + 60);
    expect(bucketStart(NOW + 3_599, 3_600)).toBe(NOW);
    expect(bucketStart(NOW + 3_600 * 11, DAY)).toBe(NOW - 12 * 3_600);
  });

  it('keeps the last point of each bucket as its close, from `since` on', () => {
    const points = [
      { date: 100, usd: 1 },
      { date: 130, usd: 2 },
      { date: 170, usd: 3 },
      { date: 180, usd: 4 },
      { date: 239, usd: 5 },
      { date: 300, usd: 6 },
    ];
    expect(bucketCloses(points, 60, 0)).toEqual([
      { date: 60, usd: 1 },
      { date: 120, usd: 3 },
      { date: 180, usd: 5 },
      { date: 300, usd: 6 },
    ]);
    expect(bucketCloses(points, 60, 120)).toEqual([
      { date: 120, usd: 3 },
      { date: 180, usd: 5 },
      { date: 300, usd: 6 },
    ]);
  });

  it('prunes minute buckets after two days and hour buckets after 40, never day buckets', () => {
    expect(pruneCutoffs(NOW)).toEqual([
      { resolution: 60, before: NOW - 2 * DAY },
      { resolution: 3_600, before: NOW - 40 * DAY },
    ]);
  });

  it('keeps every chart at most ~400 points', () => {
    for (const { span, step, resolution } of Object.values(CHART_RANGES)) {
      expect(span / step + 1).toBeLessThanOrEqual(400);
      expect(step % resolution).toBe(0);
    }
  });
});

describe('roundDecimal', () => {
  it.each([
    [1.005, 2, 1.01],
    [2.675, 2, 2.68],
    [1.0049, 2, 1],
    [-1.005, 2, -1.01],
    [0.000012345, 8, 0.00001235],
    [92_412.554999, 2, 92_412.55],
    [1e-7, 8, 1e-7],
    [152_480_707.5, 0, 152_480_708],
  ])('rounds %d at %d places to %d', (value, decimals, rounded) => {
    expect(roundDecimal(value, decimals)).toBe(rounded);
  });

  it('leaves numbers beyond 2^53 at the scale alone and refuses NaN', () => {
    expect(roundDecimal(1e21, 2)).toBe(1e21);
    expect(() => roundDecimal(Number.NaN, 2)).toThrow(RangeError);
  });
});

describe('synthetic history', () => {
  it('samples a day apart long ago, hourly in the last 40 days and each minute in the last two', () => {
    const times = sampleTimes(NOW - 365 * DAY, NOW);
    expect(times[0]).toBe(NOW - 365 * DAY);
    expect(times.at(-1)).toBe(NOW);
    const gaps = times.slice(1).map((t, i) => ({ age: NOW - t, step: t - (times[i] ?? 0) }));
    expect(gaps.filter((g) => g.age >= 40 * DAY + DAY).every((g) => g.step === DAY || g.step < DAY)).toBe(true);
    expect(gaps.filter((g) => g.age < 40 * DAY && g.age >= 2 * DAY).every((g) => g.step === 3_600)).toBe(true);
    expect(gaps.filter((g) => g.age < 2 * DAY).every((g) => g.step === 60)).toBe(true);
    expect(times.length).toBeLessThan(4_200);
  });

  it('walks back from a pinned price, the same way for the same seed', () => {
    const walk = (seed: number) =>
      syntheticWalk({
        model: SIMULATED_MARKET.BTC,
        from: NOW - 10 * DAY,
        to: NOW,
        pinned: { side: 'to', usd: 92_400 },
        random: mulberry(seed),
      });
    const a = walk(1);
    expect(a.at(-1)).toEqual({ date: NOW, usd: 92_400 });
    expect(walk(1)).toEqual(a);
    expect(walk(2)).not.toEqual(a);
    const forward = syntheticWalk({
      model: SIMULATED_MARKET.USDT,
      from: NOW - 3_600,
      to: NOW,
      pinned: { side: 'from', usd: 1.001 },
      random: mulberry(1),
    });
    expect(forward[0]).toEqual({ date: NOW - 3_600, usd: 1.001 });
    expect(forward).toHaveLength(61);
  });
});

function mulberry(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('seeded price history', () => {
  it('is already in every copy of the test template (prepared with the database)', async () => {
    const testDb = await createTestDb();
    opened.push(testDb);
    const rows = await testDb.db.all(testDb.db.orm.select().from(priceHistory));
    const now = Date.now() / 1000;
    for (const crypto of ['BTC', 'USDT'] as const) {
      for (const resolution of [60, 3_600, 86_400]) {
        const mine = rows.filter((r) => r.crypto === crypto && r.resolution === resolution);
        expect(mine.length).toBeGreaterThan(300);
        const latest = Math.max(...mine.map((r) => r.at));
        expect(latest).toBeLessThanOrEqual(now);
        expect(latest).toBeGreaterThan(now - 12 * 3_600 - resolution);
      }
    }
  });

  it('writes a year of days, 40 days of hours and two days of minutes ending at the anchors, fast', async () => {
    const { db, rows } = await market();
    const started = performance.now();
    const count = await seedPriceHistory(db, NOW * 1000);
    const elapsed = performance.now() - started;
    expect(count).toBe(2 * (366 + 961 + 2_881));
    for (const crypto of ['BTC', 'USDT'] as const) {
      const days = await rows(crypto, 86_400);
      const hours = await rows(crypto, 3_600);
      const minutes = await rows(crypto, 60);
      expect(days).toHaveLength(366);
      expect(days[0]?.at).toBe(NOW - 12 * 3_600 - 365 * DAY);
      expect(hours).toHaveLength(961);
      expect(hours[0]?.at).toBe(NOW - 40 * DAY);
      expect(minutes).toHaveLength(2_881);
      expect(minutes[0]?.at).toBe(NOW - 2 * DAY);
      for (const series of [days, hours, minutes]) expect(series.at(-1)?.usd).toBe(SIMULATED_MARKET[crypto].anchor);
      const { anchor, bound } = SIMULATED_MARKET[crypto];
      for (const row of days) {
        expect(row.usd).toBeGreaterThanOrEqual(anchor * (1 - bound));
        expect(row.usd).toBeLessThanOrEqual(anchor * (1 + bound));
      }
    }
    // Minute, hour and day closes of one walk agree where they meet.
    const hourAt = NOW - 5 * 3_600;
    const lastMinuteOfHour = (await rows('BTC', 60)).filter((r) => r.at >= hourAt && r.at < hourAt + 3_600);
    expect((await rows('BTC', 3_600)).find((r) => r.at === hourAt)?.usd).toBe(lastMinuteOfHour.at(-1)?.usd);
    // Tens of milliseconds on a laptop; generous for a busy shared machine.
    expect(elapsed).toBeLessThan(1_500);
  });

  it('draws the same history for the same time', async () => {
    const a = await market({ historyEnd: NOW });
    const b = await market({ historyEnd: NOW });
    expect(await b.rows('BTC', 86_400)).toEqual(await a.rows('BTC', 86_400));
    expect(await b.rows('USDT', 60)).toEqual(await a.rows('USDT', 60));
  });
});

describe('recording ticks', () => {
  it('writes each tick as the close of its minute, hour and day, for both currencies', async () => {
    const { service, rows } = await market();
    await service.recordTick({ at: (NOW + 5) * 1000, usd: { BTC: 91_000, USDT: 1.0001 } });
    await service.recordTick({ at: (NOW + 15) * 1000, usd: { BTC: 91_100, USDT: 1.0002 } });
    await service.recordTick({ at: (NOW + 65) * 1000, usd: { BTC: 91_200, USDT: 1.0003 } });
    expect(await rows('BTC', 60)).toEqual([
      { at: NOW, usd: 91_100 },
      { at: NOW + 60, usd: 91_200 },
    ]);
    expect(await rows('BTC', 3_600)).toEqual([{ at: NOW, usd: 91_200 }]);
    expect(await rows('BTC', 86_400)).toEqual([{ at: NOW - 12 * 3_600, usd: 91_200 }]);
    expect(await rows('USDT', 60)).toEqual([
      { at: NOW, usd: 1.0002 },
      { at: NOW + 60, usd: 1.0003 },
    ]);
  });

  it('drops minute buckets older than two days and hour buckets older than 40, at most every ten minutes', async () => {
    const { service, rows } = await market();
    const tick = (at: number) => service.recordTick({ at: at * 1000, usd: { BTC: 90_000, USDT: 1 } });
    await tick(NOW - 41 * DAY);
    await tick(NOW - 3 * DAY);
    expect((await rows('BTC', 60)).map((r) => r.at)).toEqual([NOW - 3 * DAY]);
    expect((await rows('BTC', 3_600)).map((r) => r.at)).toEqual([NOW - 41 * DAY, NOW - 3 * DAY]);
    await tick(NOW);
    expect((await rows('BTC', 60)).map((r) => r.at)).toEqual([NOW]);
    expect((await rows('BTC', 3_600)).map((r) => r.at)).toEqual([NOW - 3 * DAY, NOW]);
    expect(await rows('BTC', 86_400)).toHaveLength(3);
    // Within ten minutes of the last pruning, an old bucket stays until the next one.
    await tick(NOW - 3 * DAY);
    await tick(NOW + 300);
    expect((await rows('BTC', 60)).map((r) => r.at)).toEqual([NOW - 3 * DAY, NOW, NOW + 300]);
    await tick(NOW + 600);
    expect((await rows('BTC', 60)).map((r) => r.at)).toEqual([NOW, NOW + 300, NOW + 600]);
  });
});

describe('charts', () => {
  const ranges: [ChartRange, number, number][] = [
    ['day', 289, 300],
    ['week', 169, 3_600],
    ['month', 181, 4 * 3_600],
    ['year', 366, DAY],
  ];

  it.each(ranges)('%s: %d evenly spaced points ending at the live price', async (range, count, step) => {
    const { service, clock, priceFeed } = await market({ historyEnd: NOW });
    clock.now = (NOW + 42) * 1000;
    const chart = await service.chart(systemContext('test'), { crypto: 'BTC', range, code: 'USD' });
    expect(chart).toHaveLength(count);
    expect(chart.every((p, i) => i === 0 || p.date - (chart[i - 1]?.date ?? 0) === step)).toBe(true);
    expect(chart.at(-1)).toEqual({ date: bucketStart(NOW, step), rate: priceFeed.usdPrice('BTC') });
    expect(chart[0]?.date).toBe(bucketStart(NOW, step) - CHART_RANGES[range].span);
    // The seeded walk, not the live price, before the end.
    expect(new Set(chart.map((p) => p.rate)).size).toBeGreaterThan(count / 2);
  });

  it('converts with the currency rate and rounds to cents; tether to four decimals', async () => {
    const { service, reference } = await market({ historyEnd: NOW });
    const usd = await service.chart(systemContext('test'), { crypto: 'BTC', range: 'week', code: 'USD' });
    const eur = await service.chart(systemContext('test'), { crypto: 'BTC', range: 'week', code: 'EUR' });
    const eurPerUsd = await reference.fiatPerUsd(systemContext('test'), { code: 'EUR' });
    expect(eur[10]?.rate).toBe(roundDecimal((usd[10]?.rate ?? 0) * eurPerUsd, 2));
    expect(eur.every((p) => Number.isInteger(Math.round(p.rate * 100)))).toBe(true);
    const usdt = await service.chart(systemContext('test'), { crypto: 'USDT', range: 'day', code: 'USD' });
    expect(usdt.some((p) => p.rate !== roundDecimal(p.rate, 2))).toBe(true);
    expect(usdt.every((p) => p.rate === roundDecimal(p.rate, 4))).toBe(true);
  });

  it('shows the close of the last tick in each step, and shows missing history as missing points', async () => {
    const { service, clock, db } = await market({ historyEnd: NOW });
    clock.now = (NOW + 20 * 60) * 1000;
    await service.recordTick({ at: (NOW + 7 * 60) * 1000, usd: { BTC: 95_555.5, USDT: 1 } });
    const day = await service.chart(systemContext('test'), { crypto: 'BTC', range: 'day', code: 'USD' });
    expect(day.find((p) => p.date === NOW + 300)?.rate).toBe(95_555.5);
    // The server was down between NOW + 8 min and NOW + 20 min: no invented points in a chart.
    expect(day.slice(-3).map((p) => p.date)).toEqual([NOW, NOW + 300, NOW + 1_200]);
    expect((await db.all(db.orm.select().from(priceHistory))).length).toBeGreaterThan(8_000);
  });

  it('is just the live price with no history at all', async () => {
    const { service } = await market();
    expect(await service.chart(systemContext('test'), { crypto: 'BTC', range: 'month', code: 'USD' })).toEqual([
      { date: bucketStart(NOW, 4 * 3_600), rate: 90_000 },
    ]);
  });

  it('refuses an unknown currency, naming the field', async () => {
    const { service } = await market();
    await expect(
      service.chart(systemContext('test'), { crypto: 'BTC', range: 'day', code: 'QQQ', field: 'currency' }),
    ).rejects.toThrow(expect.objectContaining({ code: 'NOT_FOUND', field: 'currency' }));
  });
});

describe('resuming after a restart', () => {
  it('leaves the feed alone on an empty history', async () => {
    const { service, priceFeed } = await market();
    expect(await service.resume()).toEqual({ from: undefined, filledSeconds: 0 });
    expect(priceFeed.usdPrice('BTC')).toBe(90_000);
  });

  it('simulated: continues from the last persisted price, not the anchor, inventing the time it was down', async () => {
    const { service, priceFeed, clock, rows } = await market({ historyEnd: NOW });
    await service.recordTick({ at: NOW * 1000, usd: { BTC: 101_000, USDT: 1.002 } });
    clock.now = (NOW + 3 * 3_600 + 30) * 1000;
    expect(await service.resume()).toEqual({ from: NOW, filledSeconds: 3 * 3_600 + 30 });
    const minutes = (await rows('BTC', 60)).filter((r) => r.at >= NOW);
    expect(minutes).toHaveLength(3 * 60 + 1);
    expect(minutes.at(-1)?.usd).toBe(priceFeed.usdPrice('BTC'));
    // Three hours of a 2.3 %-a-day walk from 101,000: nowhere near the 90,000 anchor of the feed.
    expect(Math.abs(priceFeed.usdPrice('BTC') / 101_000 - 1)).toBeLessThan(0.05);
    expect(priceFeed.updatedAt()).toBe(clock.now);
    expect((await rows('BTC', 3_600)).filter((r) => r.at >= NOW)).toHaveLength(4);
  });

  it('simulated: the same database resumes the same way', async () => {
    const resumed = async () => {
      const m = await market({ historyEnd: NOW });
      m.clock.now = (NOW + DAY) * 1000;
      await m.service.resume();
      return m.priceFeed.usdPrice('BTC');
    };
    expect(await resumed()).toBe(await resumed());
  });

  it('simulated: after three days away, the oldest minute buckets are pruned and hours fill the rest', async () => {
    const { service, clock, rows } = await market({ historyEnd: NOW });
    clock.now = (NOW + 3 * DAY) * 1000;
    await service.resume();
    const minutes = await rows('BTC', 60);
    expect(minutes[0]?.at).toBe(NOW + DAY);
    expect(minutes).toHaveLength(2 * 24 * 60 + 1);
    expect((await rows('BTC', 3_600)).filter((r) => r.at > NOW)).toHaveLength(3 * 24);
  });

  it('simulated: a restart within the minute changes no history', async () => {
    const { service, priceFeed, clock, rows } = await market({ historyEnd: NOW });
    const before = (await rows('BTC', 60)).length;
    clock.now = (NOW + 30) * 1000;
    expect(await service.resume()).toEqual({ from: NOW, filledSeconds: 0 });
    expect(await rows('BTC', 60)).toHaveLength(before);
    expect(priceFeed.usdPrice('BTC')).toBe(SIMULATED_MARKET.BTC.anchor);
  });

  it('ticker: starts from the last persisted price, marked as old, and invents nothing', async () => {
    const { service, priceFeed, clock, rows } = await market({ historyEnd: NOW, feed: 'ticker' });
    const before = (await rows('BTC', 60)).length;
    clock.now = (NOW + 3 * 3_600) * 1000;
    expect(await service.resume()).toEqual({ from: NOW, filledSeconds: 0 });
    expect(await rows('BTC', 60)).toHaveLength(before);
    expect(priceFeed.usdPrice('BTC')).toBe(SIMULATED_MARKET.BTC.anchor);
    expect(priceFeed.updatedAt()).toBe(NOW * 1000);
    expect((await service.cryptoFiatRates(systemContext('test'))).updatedAt).toBe(NOW);
  });
});

describe('crypto-fiat rates', () => {
  it('answers both prices and their cross rates, rounded for display', async () => {
    const { service, priceFeed } = await market();
    priceFeed.resumeFrom({ at: NOW * 1000, usd: { BTC: 92_412.555, USDT: 1.00025 } });
    expect(await service.cryptoFiatRates(systemContext('test'))).toEqual({
      btcToUsd: 92_412.56,
      usdtToUsd: 1.0003,
      usdtToBtc: 0.00001082,
      btcToUsdt: 92_389.46,
      // No stored price a day back in this history: no change to show (decision 136).
      btcChange24h: null,
      usdtChange24h: null,
      updatedAt: NOW,
    });
  });
});
