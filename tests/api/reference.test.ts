import { and, eq, max } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceHistory } from '../../db/schema/index.ts';
import { createTestApp, TEST_NOW } from '../support/test-app.ts';

const t = await createTestApp();
afterAll(() => t.close());

async function json(res: Response) {
  return (await res.json()) as { data?: any; meta?: any; errors?: any[] };
}

describe('GET /rest/v1/currencies', () => {
  it('lists every active fiat currency with rates derived from the price feed', async () => {
    const res = await t.send('/rest/v1/currencies');
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.data.length).toBeGreaterThanOrEqual(150);
    const usd = body.data.find((c: any) => c.code === 'USD');
    expect(usd).toMatchObject({ code: 'USD', name: 'US Dollar', order: 1, rate: { usd: 1, btc: 90_000, usdt: 1 } });
    const eur = body.data.find((c: any) => c.code === 'EUR');
    expect(eur.rate.btc).toBeCloseTo(90_000 * eur.rate.usd, 0);
    expect(body.meta).toBeUndefined();
  });

  it('orders by popularity and adds meta.popularCurrencies with with-popular=1', async () => {
    const body = await json(await t.send('/rest/v1/currencies?with-popular=1'));
    expect(body.data[0].code).toBe('USD');
    expect(body.meta.popularCurrencies).toContain('USD');
    expect(body.meta.popularCurrencies).toContain('EUR');
    expect(body.meta.popularCurrencies.length).toBeLessThanOrEqual(10);
  });

  it('names currencies in the reader language', async () => {
    const body = await json(await t.send('/rest/v1/currencies?locale=de'));
    const usd = body.data.find((c: any) => c.code === 'USD');
    expect(usd.name).toBe('US-Dollar');
    expect(usd.originalName).toBe('US Dollar');
    const viaHeader = await json(
      await t.send('/rest/v1/currencies', { headers: { 'accept-language': 'fr-CH, fr;q=0.9, en;q=0.8' } }),
    );
    expect(viaHeader.data.find((c: any) => c.code === 'USD').name).toBe('dollar des États-Unis');
  });

  it('rejects a bad with-popular flag with a field error', async () => {
    const res = await t.send('/rest/v1/currencies?with-popular=yes');
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.errors?.[0]).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'with-popular' });
    expect(body.errors?.[0].details[0].field).toBe('with-popular');
  });
});

describe('GET /rest/v1/currencies/{code}', () => {
  it('answers code, name and rate, case-insensitively', async () => {
    const body = await json(await t.send('/rest/v1/currencies/ngn'));
    expect(body.data.code).toBe('NGN');
    expect(body.data.rate.btc).toBeGreaterThan(1_000_000);
    expect(body.data.rate.usdt).toBeGreaterThan(100);
  });

  it('answers 404 NOT_FOUND for an unknown code and 400 for a malformed one', async () => {
    const missing = await t.send('/rest/v1/currencies/QQQ');
    expect(missing.status).toBe(404);
    expect((await json(missing)).errors?.[0]).toMatchObject({ code: 'NOT_FOUND', field: 'code' });
    const malformed = await t.send('/rest/v1/currencies/US1');
    expect(malformed.status).toBe(400);
    expect((await json(malformed)).errors?.[0]).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'code' });
  });
});

describe('GET /rest/v1/calculator/currency', () => {
  it('answers currencies, popular and fastSearch', async () => {
    const body = await json(await t.send('/rest/v1/calculator/currency'));
    expect(body.data.currencies.length).toBeGreaterThanOrEqual(150);
    expect(body.data.popular.map((c: any) => c.code)).toContain('USD');
    expect(body.data.fastSearch).toHaveLength(6);
    expect(body.data.fastSearch[0]).toBe('USD');
  });
});

describe('GET /rest/v1/countries', () => {
  it('defaults to limit 500, offset 0 and lists all countries with popular payment methods', async () => {
    const body = await json(await t.send('/rest/v1/countries'));
    expect(body.meta).toEqual({ total: 249, limit: 500, offset: 0 });
    expect(body.data).toHaveLength(249);
    const nigeria = body.data.find((c: any) => c.iso === 'NG');
    expect(nigeria).toMatchObject({ name: 'Nigeria', currency: 'NGN', phoneCode: '234' });
    expect(nigeria.popularPaymentMethods.length).toBeGreaterThanOrEqual(3);
    expect(nigeria.popularPaymentMethods[0]).toHaveProperty('slug');
  });

  it('pages with limit and offset', async () => {
    const first = await json(await t.send('/rest/v1/countries?limit=10&offset=0'));
    const second = await json(await t.send('/rest/v1/countries?limit=10&offset=10'));
    expect(first.data).toHaveLength(10);
    expect(second.data).toHaveLength(10);
    expect(first.data[9].iso).not.toBe(second.data[0].iso);
  });

  it('localizes names', async () => {
    const body = await json(await t.send('/rest/v1/countries?locale=es&limit=500'));
    expect(body.data.find((c: any) => c.iso === 'DE').name).toBe('Alemania');
  });

  it('orders them by name in the reader language, before paging', async () => {
    const names = (await json(await t.send('/rest/v1/countries?locale=de&limit=500'))).data.map((c: any) => c.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('de').compare));
    // Ägypten is among the A's in German (as Egypt is among the E's in English).
    expect(names.indexOf('Ägypten')).toBeLessThan(names.indexOf('Albanien'));
    const second = (await json(await t.send('/rest/v1/countries?locale=de&limit=10&offset=10'))).data;
    expect(second.map((c: any) => c.name)).toEqual(names.slice(10, 20));
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
    ['limit=abc', 'limit'],
    ['offset=-1', 'offset'],
  ])('rejects %s', async (query, field) => {
    const res = await t.send(`/rest/v1/countries?${query}`);
    expect(res.status).toBe(400);
    expect((await json(res)).errors?.[0]).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field });
  });
});

describe('GET /location/search', () => {
  it('answers an empty list below three characters', async () => {
    for (const q of ['', 'l', 'la', ' la ']) {
      const body = await json(await t.send(`/location/search?q=${encodeURIComponent(q)}`));
      expect(body.data).toEqual([]);
    }
    expect((await json(await t.send('/location/search'))).data).toEqual([]);
  });

  it('finds cities by prefix, ignoring case and diacritics, prefix matches first', async () => {
    const lagos = await json(await t.send('/location/search?q=LAGOS'));
    expect(lagos.data[0]).toMatchObject({ cityName: 'Lagos', countryIso: 'NG', countryName: 'Nigeria' });
    expect(lagos.data[0].prettyName).toContain('Nigeria');
    expect(Object.keys(lagos.data[0]).sort()).toEqual(
      ['cityName', 'countryId', 'countryIso', 'countryName', 'id', 'prettyName', 'subdivisionName'].sort(),
    );
    const sao = await json(await t.send('/location/search?q=sao'));
    expect(sao.data.some((l: any) => l.cityName === 'São Paulo')).toBe(true);
    const infix = await json(await t.send('/location/search?q=paulo'));
    expect(infix.data.some((l: any) => l.cityName === 'São Paulo')).toBe(true);
  });

  it('answers nothing (not an error) for text that matches no city', async () => {
    const body = await json(await t.send('/location/search?q=zzzzzz'));
    expect(body.data).toEqual([]);
  });

  it('rejects over-long queries', async () => {
    const res = await t.send(`/location/search?q=${'a'.repeat(101)}`);
    expect(res.status).toBe(400);
    expect((await json(res)).errors?.[0].field).toBe('q');
  });
});

describe('GET /rest/v1/timezones', () => {
  it('lists IANA zones with their current offsets', async () => {
    const body = await json(await t.send('/rest/v1/timezones'));
    expect(body.data.length).toBeGreaterThan(300);
    const kolkata = body.data.find((z: any) => z.name === 'Asia/Kolkata');
    expect(kolkata).toEqual({ name: 'Asia/Kolkata', region: 'Asia', offset: '+05:30', offsetMinutes: 330 });
    // 22 November: no daylight-saving time in New York.
    expect(body.data.find((z: any) => z.name === 'America/New_York').offset).toBe('-05:00');
  });
});

describe('vendor landing', () => {
  // The weekly chart reads the history the template got when the run began: look from then.
  beforeAll(async () => {
    const latest = await t.db.get(
      t.db.orm
        .select({ at: max(priceHistory.at) })
        .from(priceHistory)
        .where(and(eq(priceHistory.crypto, 'BTC'), eq(priceHistory.resolution, 3_600))),
    );
    t.clock.now = Number(latest?.at ?? 0) * 1000 + 30_000;
  });
  afterAll(() => {
    t.clock.now = TEST_NOW;
  });

  it('GET /rest/v1/vendorlanding/currency answers data.currencies', async () => {
    const body = await json(await t.send('/rest/v1/vendorlanding/currency'));
    expect(body.data.currencies.length).toBeGreaterThanOrEqual(150);
  });

  it('GET /rest/v1/vendorlanding/graph answers seven days of hourly persisted points ending at the current price', async () => {
    const body = await json(await t.send('/rest/v1/vendorlanding/graph?currency=EUR'));
    expect(body.data).toHaveLength(7 * 24 + 1);
    const last = body.data.at(-1);
    const eur = (await json(await t.send('/rest/v1/currencies/EUR'))).data;
    expect(last.rate).toBeCloseTo(eur.rate.btc, 0);
    expect(body.data[1].date - body.data[0].date).toBe(3600);
  });

  it('defaults to USD and rejects unknown currencies', async () => {
    expect((await t.send('/rest/v1/vendorlanding/graph')).status).toBe(200);
    expect((await t.send('/rest/v1/vendorlanding/graph?currency=QQQ')).status).toBe(404);
  });
});
