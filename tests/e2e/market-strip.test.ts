import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openConsented, serverAndBrowser } from './harness.ts';
import { overflowsSideways, screenshotter } from './screen-checks.ts';

// The home page's live market strip (issue 22, decision 136): bitcoin and tether in the currency
// of the search box with their 24 h change, the direction said by colour, arrow and sign; the
// slots painted at their size before the numbers come (no layout shift); a new poll every 20 s
// moves the numbers; a failed load says the prices are unavailable. Screenshots:
// test-results/market-strip-*.png.

const live = serverAndBrowser();
const shot = screenshotter('market-strip');

/**
 * Sums the layout shifts of the strip's own boxes from the page's first paint (its slots must not
 * move when the numbers come); `shiftLog` names every shift of the page, for the message.
 */
const watchShifts = (page: Page) =>
  page.addInitScript(() => {
    const win = window as unknown as { shifts: number; shiftLog: string[] };
    win.shifts = 0;
    win.shiftLog = [];
    type Shift = { value: number; hadRecentInput: boolean; sources?: { node?: Node }[] };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as Shift[]) {
        if (entry.hadRecentInput) continue;
        const nodes = (entry.sources ?? []).map((source) => source.node).filter((node) => node !== undefined);
        const names = nodes.map((node) =>
          node instanceof Element ? `${node.tagName}.${node.className}` : node.nodeName,
        );
        win.shiftLog.push(`${entry.value.toFixed(5)} ${names.join(' ')}`);
        const strip = document.querySelector('[data-market-strip]');
        if (nodes.some((node) => strip?.contains(node))) win.shifts += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });

/** `path` with the layout shifts watched and, when given, the rates' answers rewritten by `changes`. */
async function openStrip(
  path: string,
  options: {
    width?: number;
    colorScheme?: 'light' | 'dark';
    changes?: () => Record<string, unknown>;
    /** The page's timers are ours to move (the 20 s poll). */
    clock?: boolean;
  } = {},
) {
  const context = await live.browser.newContext({
    viewport: { width: options.width ?? 1440, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
  });
  await context.addCookies([{ name: 'cookie_settings', value: '11111111', url: live.server.url }]);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await watchShifts(page);
  if (options.clock) await page.clock.install();
  const { changes } = options;
  if (changes) {
    await page.route('**/rest/v1/crypto-fiat-rates', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: Record<string, unknown> };
      await route.fulfill({ response, json: { data: { ...body.data, ...changes() } } });
    });
  }
  await page.goto(live.server.url + path);
  await page.locator('[data-market-strip][data-state="ready"]').waitFor();
  return { page, problems };
}

const coin = (page: Page, code: 'btc' | 'usdt') => page.locator(`[data-market-strip] [data-coin="${code}"]`);
const shifts = async (page: Page) => {
  const { shifts, shiftLog } = await page.evaluate(() => {
    const win = window as unknown as { shifts: number; shiftLog: string[] };
    return { shifts: win.shifts, shiftLog: win.shiftLog };
  });
  return shifts === 0 ? 0 : `${shifts}: ${shiftLog.join('; ')}`;
};

/** What the strip shows for one coin: the price, the change's number, its sign and arrow. */
const shown = (page: Page, code: 'btc' | 'usdt') =>
  coin(page, code).evaluate((el) => {
    const change = el.querySelector('.market-change') as HTMLElement;
    return {
      price: el.querySelector('.market-price')?.textContent ?? '',
      change: change.lastElementChild?.textContent ?? '',
      trend: (el as HTMLElement).dataset.trend,
      arrow: getComputedStyle(change, '::before').content,
      colour: getComputedStyle(change).color,
    };
  });

describe('the market strip on the home page', () => {
  it("shows each coin's price and its 24 h change from the market, without moving the page", async () => {
    const { page, problems } = await openStrip('/');
    const usd = (await (await page.request.get(`${live.server.url}/rest/v1/currencies/USD`)).json()).data;
    const rates = (await (await page.request.get(`${live.server.url}/rest/v1/crypto-fiat-rates?camelCase=1`)).json())
      .data;
    const btc = await shown(page, 'btc');
    expect(btc.price).toMatch(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
    expect(Number(btc.price.replace(/[$,]/g, ''))).toBeCloseTo(usd.rate.btc, -2);
    const usdt = await shown(page, 'usdt');
    // A tether's price with four decimals.
    expect(usdt.price).toMatch(/^\$\d\.\d{4}$/);
    // The change the server measured from its stored history, with its sign.
    expect(typeof rates.btcChange24h).toBe('number');
    // The market may tick between the page's request and this one: a few hundredths at most.
    expect(btc.change).toMatch(/^[+-]?\d+\.\d{2}%$/);
    expect(Math.abs(Number.parseFloat(btc.change) - rates.btcChange24h * 100)).toBeLessThan(0.1);
    expect(btc.trend).toBe(String(Math.sign(Number.parseFloat(btc.change))));
    // Words for screen readers before the number.
    expect(await coin(page, 'btc').locator('.visually-hidden').textContent()).toBe('Change over 24 hours: ');
    expect(await shifts(page)).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('says up and down with colour, arrow and sign, and follows each new poll', async () => {
    let change = 0.0123;
    const { page } = await openStrip('/', {
      changes: () => ({ btc_change24h: change, usdt_change24h: 0 }),
      clock: true,
    });
    const up = await shown(page, 'btc');
    expect(up).toMatchObject({ change: '+1.23%', trend: '1' });
    expect(up.arrow).toContain('▲');
    const flat = await shown(page, 'usdt');
    expect(flat).toMatchObject({ change: '0.00%', trend: '0' });
    expect(flat.arrow).toBe('none');

    // The next poll (every 20 s) brings a fall: the arrow, sign and colour turn.
    change = -0.045;
    await page.clock.fastForward(21_000);
    await expect.poll(() => shown(page, 'btc').then((s) => s.trend)).toBe('-1');
    const down = await shown(page, 'btc');
    expect(down.change).toBe('-4.50%');
    expect(down.arrow).toContain('▼');
    expect(down.colour).not.toBe(up.colour);
    expect(await shifts(page)).toBe(0);
    await page.context().close();
  });

  it('shows the prices in the currency of the search box, without moving the page', async () => {
    const { page } = await openStrip('/');
    const euro = (await (await page.request.get(`${live.server.url}/rest/v1/currencies/EUR`)).json()).data;
    await page.locator('select[data-local-currency]').selectOption('EUR');
    await expect.poll(() => shown(page, 'btc').then((s) => s.price)).toMatch(/^€/);
    const price = (await shown(page, 'btc')).price;
    expect(Number(price.replace(/[€,]/g, ''))).toBeCloseTo(euro.rate.btc, -2);
    expect(await shifts(page)).toBe(0);
    await page.context().close();
  });

  it('says the prices are unavailable when the market cannot be read', async () => {
    const context = await live.browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await page.route('**/rest/v1/crypto-fiat-rates', (route) => route.fulfill({ status: 503, body: '' }));
    await page.goto(`${live.server.url}/`);
    await page.locator('[data-market-strip][data-state="error"]').waitFor();
    const said = await coin(page, 'btc')
      .locator('.market-price')
      .evaluate((el) => getComputedStyle(el, '::before').content);
    expect(said).toBe('"Prices unavailable right now"');
    await context.close();
  });

  it('paints its slots before the numbers, at their final size (no script: the slots stay)', async () => {
    const page = await openConsented(live, '/', { javaScriptEnabled: false });
    const box = await coin(page, 'btc').boundingBox();
    expect(await page.locator('[data-market-strip]').getAttribute('data-state')).toBe('loading');
    expect(box?.height).toBeGreaterThan(40);
    await page.context().close();
    const ready = (await openStrip('/')).page;
    expect((await coin(ready, 'btc').boundingBox())?.height).toBe(box?.height);
    await ready.context().close();
  });

  it('reads right to left in Hebrew and fits a phone, in both themes (screenshots)', async () => {
    for (const width of [375, 1440]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const lang of ['', 'de', 'he']) {
          const { page, problems } = await openStrip(`/${lang}`, { width, colorScheme });
          expect(await overflowsSideways(page)).toBe(false);
          if (lang === 'he') {
            expect(await page.locator('[data-market-strip]').evaluate((el) => getComputedStyle(el).direction)).toBe(
              'rtl',
            );
            // The price is its own island: its currency sign stays with its number.
            expect(
              await coin(page, 'btc')
                .locator('.market-price')
                .evaluate((el) => el.tagName),
            ).toBe('BDI');
          }
          expect(await shifts(page)).toBe(0);
          expect(problems).toEqual([]);
          await page.locator('[data-market-strip]').scrollIntoViewIfNeeded();
          await shot(page, `${lang || 'en'}-${width}-${colorScheme}`);
          await page.context().close();
        }
      }
    }
  }, 120_000);
});
