import { and, desc, eq, lte, max } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceHistory } from '../../db/schema/index.ts';
import { createTestApp, TEST_NOW } from '../support/test-app.ts';

const t = await createTestApp();
afterAll(() => t.close());

// The template database got its year of history when this test run began, ending then; read the
// charts as of that moment, whatever day the fixed test clock names. The feed stays at 90,000 USD.
let historyEnd = 0;
beforeAll(async () => {
  const latest = await t.db.get(
    t.db.orm
      .select({ at: max(priceHistory.at) })
      .from(priceHistory)
      .where(and(eq(priceHistory.crypto, 'BTC'), eq(priceHistory.resolution, 60))),
  );
  historyEnd = Number(latest?.at ?? 0);
  t.clock.now = (historyEnd + 30) * 1000;
});

async function json(res: Response) {
  return (await res.json()) as { data?: any; meta?: any; errors?: any[] };
}

function expectEvenlySpaced(chart: { date: number; rate: number }[], step: number) {
  for (let i = 1; i < chart.length; i++) expect((chart[i]?.date ?? 0) - (chart[i - 1]?.date ?? 0)).toBe(step);
}

const POINTS = { day: [289, 300], week: [169, 3_600], month: [181, 14_400], year: [366, 86_400] } as const;

describe('GET /rest/v1/calculator', () => {
  it('defaults to a month of USD: the currency, its BTC price, the chart and the price time', async () => {
    const res = await t.send('/rest/v1/calculator');
    expect(res.status).toBe(200);
    const { data, meta } = await json(res);
    expect(Object.keys(data).sort()).toEqual(['chart', 'currency', 'price', 'range', 'updatedAt']);
    expect(data.currency).toMatchObject({ code: 'USD', name: 'US Dollar', rate: { usd: 1, btc: 90_000, usdt: 1 } });
    expect(data.range).toBe('month');
    expect(data.price).toBe(90_000);
    expect(data.updatedAt).toBe(TEST_NOW / 1000);
    expect(data.chart).toHaveLength(181);
    expectEvenlySpaced(data.chart, 14_400);
    expect(data.chart.at(-1)).toEqual({ date: historyEnd - (historyEnd % 14_400), rate: 90_000 });
    expect(meta).toBeUndefined();
  });

  it.each(Object.entries(POINTS))('answers range=%s with %j points', async (range, [count, step]) => {
    const { data } = await json(await t.send(`/rest/v1/calculator?range=${range}&currency=eur`));
    expect(data.range).toBe(range);
    expect(data.currency.code).toBe('EUR');
    expect(data.chart).toHaveLength(count);
    expectEvenlySpaced(data.chart, step);
    expect(data.price).toBe(data.currency.rate.btc);
    expect(data.chart.at(-1).rate).toBe(data.price);
    // History in euros: the seeded walk's dollar closes at the euro's rate.
    expect(data.chart[0].rate).toBeLessThan(data.chart[0].rate / data.currency.rate.usd);
  });

  it('names the currency in the reader language', async () => {
    const { data } = await json(await t.send('/rest/v1/calculator?currency=USD&locale=de'));
    expect(data.currency.name).toBe('US-Dollar');
  });

  it('shows ticks as they are recorded', async () => {
    // The last minute of the previous five-minute step: its close is this tick.
    const step = historyEnd - (historyEnd % 300) - 300;
    await t.services.market.recordTick({ at: (step + 245) * 1000, usd: { BTC: 93_333.33, USDT: 1 } });
    const { data } = await json(await t.send('/rest/v1/calculator?range=day'));
    expect(data.chart.find((p: any) => p.date === step).rate).toBe(93_333.33);
  });

  it.each([
    ['range=hour', ['range']],
    ['range=', ['range']],
    ['currency=EURO', ['currency']],
    ['currency=€', ['currency']],
    ['range=decade&currency=12', ['range', 'currency']],
  ])('rejects %s with a field error', async (query, fields) => {
    const res = await t.send(`/rest/v1/calculator?${query}`);
    expect(res.status).toBe(400);
    const [error] = (await json(res)).errors ?? [];
    expect(error).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: fields[0] });
    expect(error.details.map((d: any) => d.field)).toEqual(fields);
  });

  it('answers 404 for a currency we do not trade', async () => {
    const res = await t.send('/rest/v1/calculator?currency=QQQ');
    expect(res.status).toBe(404);
    expect((await json(res)).errors?.[0]).toMatchObject({ code: 'NOT_FOUND', field: 'currency' });
  });
});

describe('GET /rest/v1/calculator/chart', () => {
  it('defaults to a month of bitcoin in US dollars', async () => {
    const res = await t.send('/rest/v1/calculator/chart');
    expect(res.status).toBe(200);
    const { data } = await json(res);
    expect(data).toHaveLength(181);
    expect(Object.keys(data[0]).sort()).toEqual(['date', 'rate']);
    expect(data.at(-1).rate).toBe(90_000);
    expect(data.every((p: any) => Number.isInteger(p.date) && p.rate === Math.round(p.rate * 100) / 100)).toBe(true);
  });

  it.each(Object.entries(POINTS))('answers range=%s with %j points', async (range, [count, step]) => {
    const { data } = await json(await t.send(`/rest/v1/calculator/chart?range=${range}&currency=NGN`));
    expect(data).toHaveLength(count);
    expectEvenlySpaced(data, step);
    const ngn = (await json(await t.send('/rest/v1/currencies/NGN'))).data;
    expect(data.at(-1).rate).toBe(ngn.rate.btc);
  });

  it('charts tether with crypto=usdt, to four decimals', async () => {
    const { data } = await json(await t.send('/rest/v1/calculator/chart?crypto=usdt&range=day&currency=EUR'));
    const eur = (await json(await t.send('/rest/v1/currencies/EUR'))).data;
    expect(data).toHaveLength(289);
    expect(data.at(-1).rate).toBe(eur.rate.usdt);
    for (const p of data) expect(p.rate / eur.rate.usd).toBeCloseTo(1, 1);
    expect(data.some((p: any) => p.rate !== Math.round(p.rate * 100) / 100)).toBe(true);
  });

  it.each([
    ['crypto=ETH', 'crypto'],
    ['range=quarter', 'range'],
    ['currency=usd1', 'currency'],
  ])('rejects %s', async (query, field) => {
    const res = await t.send(`/rest/v1/calculator/chart?${query}`);
    expect(res.status).toBe(400);
    expect((await json(res)).errors?.[0]).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field });
  });

  it('answers 404 for an unknown currency', async () => {
    const res = await t.send('/rest/v1/calculator/chart?currency=XXX');
    expect(res.status).toBe(404);
    expect((await json(res)).errors?.[0]).toMatchObject({ code: 'NOT_FOUND', field: 'currency' });
  });
});

describe('GET /rest/v1/crypto-fiat-rates', () => {
  it('answers camelCase keys with camelCase=1', async () => {
    const res = await t.send('/rest/v1/crypto-fiat-rates?camelCase=1');
    expect(res.status).toBe(200);
    // toMatchObject: the answer also carries the conversion quote (tests/api/quotes.test.ts).
    expect((await json(res)).data).toMatchObject({
      btcToUsd: 90_000,
      usdtToUsd: 1,
      usdtToBtc: 0.00001111,
      btcToUsdt: 90_000,
      updatedAt: TEST_NOW / 1000,
    });
  });

  it('answers snake_case keys without it', async () => {
    for (const query of ['', '?camelCase=0']) {
      const { data } = await json(await t.send(`/rest/v1/crypto-fiat-rates${query}`));
      expect(data).toMatchObject({
        btc_to_usd: 90_000,
        usdt_to_usd: 1,
        usdt_to_btc: 0.00001111,
        btc_to_usdt: 90_000,
        updated_at: TEST_NOW / 1000,
      });
    }
  });

  it("adds each coin's 24 h change from the stored minute closes (decision 136)", async () => {
    // The reference: the last BTC minute close at or before 24 hours ago; the feed stands at 90,000.
    const dayAgo = Math.floor(t.clock.now / 1000) - 86_400;
    const then = await t.db.get(
      t.db.orm
        .select({ usd: priceHistory.usd })
        .from(priceHistory)
        .where(and(eq(priceHistory.crypto, 'BTC'), eq(priceHistory.resolution, 60), lte(priceHistory.at, dayAgo)))
        .orderBy(desc(priceHistory.at))
        .limit(1),
    );
    expect(then?.usd).toBeGreaterThan(0);
    const { data } = await json(await t.send('/rest/v1/crypto-fiat-rates?camelCase=1'));
    expect(data.btcChange24h).toBeCloseTo(90_000 / Number(then?.usd) - 1, 4);
    // A hundredth of a percent at most: a change the page shows as 0.00 % is 0 (no arrow).
    expect(Math.round(data.btcChange24h * 10_000) / 10_000).toBe(data.btcChange24h);
    // The seeded walk moves: a change of exactly 0 would mean the reference was never read.
    expect(data.btcChange24h).not.toBe(0);
    expect(typeof data.usdtChange24h).toBe('number');
    const snake = (await json(await t.send('/rest/v1/crypto-fiat-rates'))).data;
    expect(snake).toMatchObject({ btc_change24h: data.btcChange24h, usdt_change24h: data.usdtChange24h });
  });

  it('answers a null change when the history holds no price near 24 hours ago', async () => {
    const before = t.clock.now;
    // Three days after the history ends: its minute closes then are gone from the window.
    t.clock.now = before + 3 * 86_400_000;
    try {
      const { data } = await json(await t.send('/rest/v1/crypto-fiat-rates?camelCase=1'));
      expect(data).toMatchObject({ btcChange24h: null, usdtChange24h: null, btcToUsd: 90_000 });
    } finally {
      t.clock.now = before;
    }
  });

  it('rejects a camelCase flag other than 0 or 1', async () => {
    const res = await t.send('/rest/v1/crypto-fiat-rates?camelCase=true');
    expect(res.status).toBe(400);
    expect((await json(res)).errors?.[0]).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'camelCase' });
  });

  it('is public and never cached', async () => {
    const res = await t.app.request('http://localhost/rest/v1/crypto-fiat-rates?camelCase=1');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('GET /rest/v1/vendorlanding/graph', () => {
  it('answers a week of hourly persisted history ending at the current price', async () => {
    const { data } = await json(await t.send('/rest/v1/vendorlanding/graph?currency=EUR'));
    const eur = (await json(await t.send('/rest/v1/currencies/EUR'))).data;
    expect(data).toHaveLength(169);
    expectEvenlySpaced(data, 3_600);
    expect(data.at(-1)).toEqual({ date: historyEnd - (historyEnd % 3_600), rate: eur.rate.btc });
    const week = (await json(await t.send('/rest/v1/calculator/chart?range=week&currency=EUR'))).data;
    expect(data).toEqual(week);
  });

  it('defaults to USD', async () => {
    const { data } = await json(await t.send('/rest/v1/vendorlanding/graph'));
    expect(data.at(-1).rate).toBe(90_000);
  });

  it('answers 404 for an unknown currency and 400 for a malformed one', async () => {
    const missing = await t.send('/rest/v1/vendorlanding/graph?currency=QQQ');
    expect(missing.status).toBe(404);
    expect((await json(missing)).errors?.[0]).toMatchObject({ code: 'NOT_FOUND', field: 'currency' });
    const malformed = await t.send('/rest/v1/vendorlanding/graph?currency=E1');
    expect(malformed.status).toBe(400);
    expect((await json(malformed)).errors?.[0]).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'currency' });
  });
});
