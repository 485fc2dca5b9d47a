import { gzipSync } from 'node:zlib';
import type { BrowserContextOptions, Page, Response } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { rateFromUsd } from '../../src/components/calculator/convert.ts';
import { converterCurrencies } from '../../src/lib/site.ts';
import { fundOnServer } from '../support/offer-funds.ts';
import { serverAndBrowser } from './harness.ts';

// The calculator (spec sections 2, 4, 5) in Chromium at phone and desktop widths: numbers and
// offers rendered by the server, two-way conversion with the spec's decimals, the currency list
// (search, URL, back/forward), chart ranges, the live price, themes, no-JavaScript use, 404s and
// the JavaScript it ships. Prices tick every 2 s so the live price shows within the test.

const live = serverAndBrowser({ PRICE_TICK_SECONDS: '2' });
// The demo market is listed only while its vendors hold coins (decision 121), as on a fresh install.
beforeAll(() => fundOnServer(live.server));
const WIDTHS = [375, 1440] as const;

/** `path` in a fresh context with the cookie choice made; `before` sees the page before it loads. */
async function open(
  path: string,
  {
    width = 1440,
    height = 900,
    before,
    ...options
  }: BrowserContextOptions & { width?: number; height?: number; before?: (page: Page) => void } = {},
): Promise<Page> {
  const context = await live.browser.newContext({ viewport: { width, height }, ...options });
  await context.addCookies([{ name: 'cookie_settings', value: '11111111', url: live.server.url }]);
  const page = await context.newPage();
  before?.(page);
  await page.goto(live.server.url + path);
  return page;
}

const hydrated = (page: Page) => page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
const api = async <T>(path: string): Promise<T> =>
  ((await (await fetch(live.server.url + path)).json()) as { data: T }).data;

/** The rate the page converts with and both fields, read in one go (a tick may land any time). */
const snapshot = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector<HTMLElement>('[data-calculator]');
    const value = (id: string) => document.querySelector<HTMLInputElement>(id)?.value ?? '';
    return {
      code: root?.dataset.calculator,
      rate: Number(root?.dataset.rate),
      btc: value('#calc-btc'),
      fiat: value('#calc-fiat'),
    };
  });

async function typeInto(page: Page, selector: string, text: string) {
  const input = page.locator(selector);
  await input.click();
  await input.press('ControlOrMeta+a');
  await input.press('Backspace');
  if (text) await input.pressSequentially(text);
}

const chart = (page: Page) => page.locator('[data-chart]');

describe('server rendering', () => {
  for (const width of WIDTHS) {
    it(`shows 1 BTC, its price and the first offers without JavaScript at ${width} px`, async () => {
      const page = await open('/calculator/btc-to-usd', { width, javaScriptEnabled: false });
      const usd = await api<{ rate: { btc: number } }>('/rest/v1/currencies/USD');
      expect(await page.locator('#calc-btc').inputValue()).toBe('1');
      const fiat = await page.locator('#calc-fiat').inputValue();
      expect(fiat).toMatch(/^\d+\.\d{2}$/);
      expect(Math.abs(Number(fiat) / usd.rate.btc - 1)).toBeLessThan(0.05);
      expect(await page.locator('[data-price]').textContent()).toMatch(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);

      const offers = await api<{ hash: string }[]>('/rest/v1/offers?type=buy&currency=USD&crypto_currency_id=1');
      const links = page.locator('[data-offer]');
      expect(await links.count()).toBe(Math.min(10, offers.length));
      expect(await links.first().getAttribute('href')).toBe(`/offers/${offers[0]?.hash}`);
      expect(await page.locator('[data-all-offers]').getAttribute('href')).toBe('/buy-bitcoin/any/usd');
      // The server's own line stands in for the chart.
      expect(await page.locator('.calc-sparkline path.line').getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+L/);
      expect(Number(await chart(page).getAttribute('data-points'))).toBeGreaterThan(100);
      await page.context().close();
    });
  }

  it('puts the numbers in the HTML itself, in the page language', async () => {
    const res = await fetch(`${live.server.url}/de/calculator/btc-to-eur`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<html lang="de"');
    expect(html).toContain('BTC-in-EUR-Rechner');
    expect(html).toMatch(/id="calc-btc"[^>]*value="1"/);
    expect(html).toMatch(/data-price[^>]*>\d{1,3}(\.\d{3})*,\d{2}\s€</);
    expect(html).toContain('href="/de/offers/');
  });
});

describe('conversion', () => {
  for (const width of WIDTHS) {
    it(`converts both ways with 8 and 2 decimals, empty as 0, refusing other characters at ${width} px`, async () => {
      const errors: string[] = [];
      const page = await open('/calculator/btc-to-usd', {
        width,
        before: (p) => {
          p.on('pageerror', (e) => errors.push(e.message));
          p.on('console', (m) => {
            if (m.type() === 'error') errors.push(m.text());
          });
        },
      });
      await hydrated(page);
      await page.waitForLoadState('networkidle');
      expect(errors).toEqual([]); // hydration matched the server's HTML

      await typeInto(page, '#calc-fiat', '100');
      let s = await snapshot(page);
      expect(s.fiat).toBe('100');
      expect(s.btc).toMatch(/^0\.\d{8}$/);
      expect(s.btc).toBe((100 / s.rate).toFixed(8));

      await typeInto(page, '#calc-btc', '0.5');
      s = await snapshot(page);
      expect(s.btc).toBe('0.5');
      expect(s.fiat).toMatch(/^\d+\.\d{2}$/);
      expect(s.fiat).toBe((0.5 * s.rate).toFixed(2));

      await typeInto(page, '#calc-btc', '');
      expect((await snapshot(page)).fiat).toBe('0.00');
      await typeInto(page, '#calc-fiat', '');
      expect((await snapshot(page)).btc).toBe('0.00000000');

      await typeInto(page, '#calc-btc', '1a2.3.4x-');
      s = await snapshot(page);
      expect(s.btc).toBe('12.34');
      expect(s.fiat).toBe((12.34 * s.rate).toFixed(2));
      expect(await page.locator('#calc-refused').textContent()).toBe('Only digits and one decimal point.');
      await page.context().close();
    });
  }

  it('follows the live price of the rates channel: USD price × units per dollar', async () => {
    const ticks: number[] = [];
    const page = await open('/calculator/btc-to-eur', {
      before: (p) =>
        p.on('websocket', (ws) =>
          ws.on('framereceived', ({ payload }) => {
            const frame = JSON.parse(String(payload)) as {
              type: string;
              event?: { payload?: { usd?: { BTC?: number } } };
            };
            const usd = frame.event?.payload?.usd?.BTC;
            if (frame.type === 'event' && usd) ticks.push(usd);
          }),
        ),
    });
    await hydrated(page);
    const eur = await api<{ rate: { usd: number } }>('/rest/v1/currencies/EUR');
    await expect.poll(() => ticks.length, { timeout: 15_000 }).toBeGreaterThan(0);
    await expect
      .poll(async () => (await snapshot(page)).rate)
      .toBe(rateFromUsd(ticks[ticks.length - 1] ?? 0, eur.rate.usd));
    const s = await snapshot(page);
    expect(s.fiat).toBe(s.rate.toFixed(2)); // still 1 BTC
    await page.context().close();
  });
});

describe('currency list', () => {
  for (const width of WIDTHS) {
    it(`switches currency from the search at ${width} px: URL, rate, chart and offers; back and forward work`, async () => {
      const page = await open('/calculator/btc-to-usd', { width });
      await hydrated(page);
      const usdOffers = await page.locator('[data-offer]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      const requests: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/rest/v1/')) requests.push(new URL(r.url()).pathname + new URL(r.url()).search);
      });

      await page.locator('.calc-picker-button').click();
      await page.locator('#calc-currency-search').fill('euro');
      expect(await page.locator('.calc-options [data-currency]').first().getAttribute('data-currency')).toBe('EUR');
      await page.locator('#calc-currency-search').press('Enter');

      await page.waitForURL('**/calculator/btc-to-eur');
      await expect.poll(() => page.locator('[data-offers="EUR"]').getAttribute('data-state')).toBe('ready');
      await expect.poll(() => chart(page).getAttribute('data-state')).toBe('ready');
      expect(await page.locator('[data-current-currency]').textContent()).toBe('EUR');
      expect(await page.title()).toBe('BTC to EUR calculator · Coinfair');
      expect(requests.some((r) => r.startsWith('/rest/v1/calculator?currency=EUR&range=month'))).toBe(true);
      expect(requests.some((r) => r.startsWith('/rest/v1/offers?type=buy&currency=EUR&crypto_currency_id=1'))).toBe(
        true,
      );
      const eurOffers = await page.locator('[data-offer]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      const eurApi = await api<{ hash: string }[]>('/rest/v1/offers?type=buy&currency=EUR&crypto_currency_id=1');
      expect(eurOffers).toHaveLength(Math.min(10, eurApi.length));
      for (const href of eurOffers) expect(eurApi.map((o) => `/offers/${o.hash}`)).toContain(href);
      for (const href of eurOffers) expect(usdOffers).not.toContain(href);
      expect(await page.locator('[data-all-offers]').getAttribute('href')).toBe('/buy-bitcoin/any/eur');
      const eurRate = (await snapshot(page)).rate;
      const usdRate = (await api<{ rate: { btc: number } }>('/rest/v1/currencies/USD')).rate.btc;
      expect(eurRate).toBeLessThan(usdRate); // a euro is worth more than a dollar in the seed

      await page.goBack();
      await page.waitForURL('**/calculator/btc-to-usd');
      await expect.poll(async () => (await snapshot(page)).code).toBe('USD');
      await expect.poll(() => page.locator('[data-offers="USD"]').getAttribute('data-state')).toBe('ready');
      const backOffers = await page.locator('[data-offer]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      expect([...backOffers].sort()).toEqual([...usdOffers].sort());

      await page.goForward();
      await page.waitForURL('**/calculator/btc-to-eur');
      await expect.poll(async () => (await snapshot(page)).code).toBe('EUR');
      await page.context().close();
    });
  }

  it('works without JavaScript: a GET search narrows the list, a full code goes there', async () => {
    const page = await open('/de/calculator/btc-to-usd', { javaScriptEnabled: false });
    await page.locator('.calc-picker-button').click();
    await page.locator('#calc-currency-search').fill('peso');
    await page.locator('.calc-picker-search button[type="submit"]').click();
    await page.waitForURL('**/de/calculator/btc-to-usd?q=peso');
    const codes = await page
      .locator('.calc-options [data-currency]')
      .evaluateAll((as) => as.map((a) => a.getAttribute('data-currency')));
    expect(codes).toContain('MXN');
    expect(codes).not.toContain('EUR');
    await page.locator('.calc-options [data-currency="MXN"]').click();
    await page.waitForURL('**/de/calculator/btc-to-mxn');
    expect(await page.locator('[data-current-currency]').textContent()).toBe('MXN');

    await page.locator('.calc-picker-button').click();
    await page.locator('#calc-currency-search').fill('gbp');
    await page.locator('#calc-currency-search').press('Enter');
    await page.waitForURL('**/de/calculator/btc-to-gbp');

    // The converter's GET form: the field typed in wins.
    await page.locator('#calc-btc').fill('2');
    await page.locator('.calc-submit').click();
    await page.waitForURL(/btc=2/);
    const fiat = await page.locator('#calc-fiat').inputValue();
    expect(fiat).toMatch(/^\d+\.\d{2}$/);
    await page.locator('#calc-fiat').fill('100');
    await page.locator('.calc-submit').click();
    await page.waitForURL(/[?&]fiat=100(&|$)/);
    expect(await page.locator('#calc-btc').inputValue()).toMatch(/^0\.\d{8}$/);
    await page.context().close();
  });
});

describe('chart', () => {
  it('defaults to month and redraws for each range with the points the API sent', async () => {
    const page = await open('/calculator/btc-to-usd');
    await hydrated(page);
    await page.locator('[data-chart][data-engine="ready"]').waitFor();
    expect(await chart(page).getAttribute('data-range')).toBe('month');
    expect(await page.locator('.calc-range[aria-current="true"]').getAttribute('data-range')).toBe('month');

    for (const range of ['week', 'year', 'day', 'month'] as const) {
      const answer = page.waitForResponse(
        (r: Response) => r.url().includes(`/rest/v1/calculator/chart?range=${range}&currency=USD`) && r.ok(),
      );
      await page.locator(`.calc-range[data-range="${range}"]`).click();
      const points = ((await (await answer).json()) as { data: unknown[] }).data.length;
      expect(points).toBeGreaterThan(range === 'week' ? 100 : 150);
      await expect.poll(() => chart(page).getAttribute('data-points')).toBe(String(points));
      expect(await chart(page).getAttribute('data-range')).toBe(range);
      expect(await chart(page).getAttribute('data-state')).toBe('ready');
    }
    expect(page.url()).toBe(`${live.server.url}/calculator/btc-to-usd`);
    await page.context().close();
  });

  it('follows the theme toggle', async () => {
    const page = await open('/calculator/btc-to-usd', { colorScheme: 'light' });
    await page.locator('[data-chart][data-engine="ready"]').waitFor();
    // The chart's background pixel, compared with the card's colour.
    const pixel = () =>
      page.evaluate(() => {
        const canvas = document.querySelector<HTMLCanvasElement>('[data-chart] canvas');
        const data = canvas?.getContext('2d')?.getImageData(4, 4, 1, 1).data;
        return data ? [data[0], data[1], data[2]] : [];
      });
    expect(await pixel()).toEqual([255, 255, 255]);
    await page.locator('[data-theme-toggle]').click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await expect.poll(pixel).toEqual([0x0f, 0x1b, 0x31]);
    await page.context().close();
  });
});

describe('addresses', () => {
  it('answers an unknown currency or pair with the localized 404 page', async () => {
    for (const [path, lang] of [
      ['/calculator/btc-to-xyz', 'en'],
      ['/de/calculator/btc-to-xyz', 'de'],
      ['/calculator/eth-to-usd', 'en'],
      ['/calculator/btc-to-usdt', 'en'],
    ] as const) {
      const res = await fetch(live.server.url + path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toContain(`<html lang="${lang}"`);
    }
    const page = await open('/he/calculator/btc-to-zzz');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.context().close();
  });

  it('sends an upper-case code to the lower-case address', async () => {
    const res = await fetch(`${live.server.url}/calculator/BTC-to-USD?range=week`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/calculator/btc-to-usd?range=week');
  });

  it('serves every "BTC to …" link of the footer', async () => {
    const page = await open('/');
    const hrefs = await page
      .locator('footer a[href*="/calculator/"]')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toHaveLength(converterCurrencies.length);
    for (const href of hrefs) expect((await fetch(live.server.url + href)).status, String(href)).toBe(200);
    await page.locator('footer a[href="/calculator/btc-to-gbp"]').click();
    await page.waitForURL('**/calculator/btc-to-gbp');
    expect(await page.locator('h1').textContent()).toBe('BTC to GBP calculator');
    await page.context().close();
  });
});

describe('weight', () => {
  it('ships React and the island at load, and the chart library as its own chunk once the chart is near', async () => {
    const scripts = new Map<string, number>();
    const record = async (r: Response) => {
      if (r.request().resourceType() === 'script')
        scripts.set(new URL(r.url()).pathname, gzipSync(await r.body()).length);
    };
    const page = await open('/calculator/btc-to-usd', {
      width: 375,
      height: 640,
      before: (p) => p.on('response', (r) => void record(r)),
    });
    await page.waitForLoadState('networkidle');
    await hydrated(page);
    const chartChunk = () => [...scripts.keys()].find((s) => s.includes('chart-engine'));
    // On a 375 × 640 phone the chart is below the fold: the library is not fetched yet.
    expect(chartChunk()).toBeUndefined();
    const initial = [...scripts.values()].reduce((a, b) => a + b, 0);

    await chart(page).scrollIntoViewIfNeeded();
    await page.locator('[data-chart][data-engine="ready"]').waitFor();
    await expect.poll(chartChunk).toBeDefined();
    await page.waitForLoadState('networkidle');
    const total = [...scripts.values()].reduce((a, b) => a + b, 0);
    console.log(
      `calculator JS (gzip): ${(initial / 1024).toFixed(1)} KB at load, ${(total / 1024).toFixed(1)} KB with the chart`,
    );
    expect(initial).toBeLessThan(90 * 1024);
    expect(total).toBeLessThan(140 * 1024);
    await page.context().close();
  });
});
