// Screenshots of the marketing pages for a person to look at (not a test: nothing is asserted).
//
//   npx astro build && node tests/e2e/screenshots.ts [page-filter]
//
// Uses BASE_URL when set (e.g. the real server); otherwise starts Astro's standalone server
// (ASTRO_ENTRY, default build/server/entry.mjs) on port 4400, where the API is absent and
// live widgets show their error state.
// Writes screenshots/<page>-<width>[-dark].png (git-ignored). The cookie choice is preset so the
// banner does not cover content, except on `home-banner`; `vendors-live` answers the price API
// with made-up data to show the loaded state.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../support/chromium.ts';

const pages: [name: string, path: string][] = [
  ['home', '/'],
  ['vendors', '/vendors'],
  ['cookie-policy', '/cookie-policy'],
  ['peer-to-peer-map', '/peer-to-peer-map'],
  ['media', '/media'],
  ['fees', '/fees'],
  ['about', '/about'],
  ['support', '/support'],
  ['terms', '/terms'],
  ['privacy', '/privacy'],
  ['404', '/404'],
  ['he-home', '/he/'],
  ['de-vendors', '/de/vendors'],
  ['vendors-live', '/vendors'],
  ['tr-vendors-live', '/tr/vendors'],
  ['home-banner', '/'],
];

/** Answers the vendor-landing API with plausible prices (BTC ≈ 91k USD, a wavy week). */
async function mockPrices(page: Page) {
  const currencies = [
    ['USD', 'US Dollar', 1],
    ['EUR', 'Euro', 0.92],
    ['GBP', 'British Pound', 0.79],
    ['NGN', 'Nigerian Naira', 1540],
    ['INR', 'Indian Rupee', 84.2],
    ['KES', 'Kenyan Shilling', 129.3],
    ['BRL', 'Brazilian Real', 5.65],
    ['ARS', 'Argentine Peso', 1010],
    ['TRY', 'Turkish Lira', 34.4],
    ['CAD', 'Canadian Dollar', 1.39],
  ] as const;
  const shape = (code: string, name: string, perUsd: number) => ({
    code,
    name,
    rate: { usd: 1 / perUsd, btc: 91234.56 * perUsd, usdt: 1.0002 * perUsd },
  });
  await page.route('**/rest/v1/**', async (route) => {
    const url = new URL(route.request().url());
    const json = (data: unknown) => route.fulfill({ json: { data } });
    if (url.pathname === '/rest/v1/vendorlanding/currency') {
      return json({ currencies: currencies.map(([c, n, r]) => shape(c, n, r)) });
    }
    const code = url.pathname.startsWith('/rest/v1/currencies/')
      ? url.pathname.split('/').pop()
      : url.searchParams.get('currency');
    const found = currencies.find(([c]) => c === code) ?? currencies[0];
    if (url.pathname === '/rest/v1/vendorlanding/graph') {
      const start = 1763769600;
      return json(
        Array.from({ length: 168 }, (_, h) => ({
          date: start + h * 3600,
          rate: found[2] * (88000 + h * 18 + Math.sin(h / 9) * 1400 + Math.sin(h / 2.3) * 350),
        })),
      );
    }
    if (url.pathname.startsWith('/rest/v1/currencies/')) return json(shape(found[0], found[1], found[2]));
    return route.fulfill({ status: 404, json: { errors: [{ code: 'NOT_FOUND', message: 'Not found' }] } });
  });
}
const widths = [375, 768, 1440];
const filter = process.argv[2];
const outDir = new URL('../../screenshots/', import.meta.url);

async function waitFor(url: string) {
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`server at ${url} did not start`);
}

let server: ChildProcess | undefined;
let base = process.env.BASE_URL;
if (!base) {
  base = 'http://127.0.0.1:4400';
  server = spawn(process.execPath, [process.env.ASTRO_ENTRY ?? 'build/server/entry.mjs'], {
    env: { ...process.env, PORT: '4400', HOST: '127.0.0.1' },
    stdio: 'ignore',
  });
  await waitFor(base);
}

mkdirSync(outDir, { recursive: true });
const browser = await launchBrowser();

try {
  for (const [name, path] of pages) {
    if (filter && !name.includes(filter)) continue;
    for (const width of widths) {
      for (const scheme of ['light', 'dark'] as const) {
        // Dark only at two widths: enough to judge the theme without tripling the run.
        if (scheme === 'dark' && width === 768) continue;
        const context = await browser.newContext({
          viewport: { width, height: 900 },
          colorScheme: scheme,
          deviceScaleFactor: 1,
        });
        if (name !== 'home-banner') {
          await context.addCookies([{ name: 'cookie_settings', value: '11111111', url: base }]);
        }
        const page = await context.newPage();
        if (name.endsWith('-live')) await mockPrices(page);
        await page.goto(base + path, { waitUntil: 'networkidle' });
        await page.waitForTimeout(150);
        const suffix = scheme === 'dark' ? '-dark' : '';
        await page.screenshot({
          path: new URL(`${name}-${width}${suffix}.png`, outDir).pathname,
          fullPage: true,
        });
        await context.close();
      }
    }
  }
} finally {
  await browser.close();
  server?.kill();
}
