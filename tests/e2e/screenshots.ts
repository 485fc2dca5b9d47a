// Screenshots of the marketing pages for a person to look at (not a test: nothing is asserted).
//
//   npm run build && node tests/e2e/screenshots.ts [page-filter[,page-filter…]]
//
// Uses BASE_URL when set; otherwise starts the built server (BUILD_DIR, default build/, through
// its app/main.js) on port 4400 over a fresh demo database in a temporary folder.
// Writes screenshots/<page>-<width>[-dark].png (git-ignored; SCREENSHOTS_DIR writes elsewhere, e.g.
// to compare a before and an after build). The cookie choice is preset so the
// banner does not cover content, except on `home-banner`; `vendors-live` answers the price API
// with made-up data to show the loaded state.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import type { BrowserContext, Page } from 'playwright-core';
import { solveChallenge } from '../../src/lib/shared/proof-of-work.ts';
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
  ['developers', '/developers'],
  ['de-developers', '/de/developers'],
  ['he-developers', '/he/developers'],
  ['404', '/404'],
  ['he-home', '/he/'],
  ['de-vendors', '/de/vendors'],
  ['vendors-live', '/vendors'],
  ['tr-vendors-live', '/tr/vendors'],
  ['home-banner', '/'],
  ['login', '/login'],
  ['he-login', '/he/login'],
  ['register', '/register'],
  ['de-register', '/de/register?vendor=1'],
  ['forgot-password', '/forgot-password'],
  ['forgot-password-sent', '/forgot-password'],
  ['reset-password', '/reset-password?token={resetToken}'],
  ['reset-password-invalid', '/reset-password?token=dead'],
  ['review-device', '/review-device?token={deviceToken}'],
  ['de-review-device', '/de/review-device?token={deviceToken}'],
  ['review-device-invalid', '/review-device?token=dead'],
  ['approved-device', '/approved-device'],
  ['reported-device', '/reported-device'],
  ['welcome-dialog', '/'],
  ['email-verified', '/?email_verified=1'],
  ['email-verify-failed', '/?email_verified=0'],
  ['settings', '/settings'],
  ['settings-compromised', '/settings?compromised=1'],
  ['settings-2fa-setup', '/settings#two-factor'],
  ['he-settings', '/he/settings'],
  ['vendor-terms', '/vendor-terms'],
  ['vendor-terms-dialog', '/vendors'],
  ['he-vendor-terms-dialog', '/he/vendors'],
  ['offers-new', '/offers/new'],
  ['offers-new-errors', '/offers/new'],
  ['he-offers-new', '/he/offers/new'],
  ['offers-new-not-vendor', '/offers/new'],
  ['my-offers', '/my-offers'],
  ['my-offers-confirm', '/my-offers'],
  ['listing', '/buy-bitcoin'],
  ['listing-usd', '/buy-bitcoin/any/usd'],
  ['de-listing-sepa', '/de/sell-bitcoin/sepa/eur'],
  ['he-listing', '/he/buy-tether/any/usd'],
  ['listing-methods', '/buy-bitcoin/any/eur'],
  ['listing-relaxed', '/buy-bitcoin/any/usd?fiat-min=99999999'],
  ['offer', '/buy-bitcoin/any/usd'],
  ['offer-warning', '/buy-bitcoin/any/usd'],
  ['offer-tour', '/buy-bitcoin/any/usd'],
  ['calculator', '/calculator/btc-to-usd'],
  ['calculator-picker', '/calculator/btc-to-usd'],
  ['he-calculator', '/he/calculator/btc-to-ils'],
  ['de-calculator-nojs', '/de/calculator/btc-to-eur?q=peso'],
  ['wallet', '/wallet'],
  ['wallet-convert-dialog', '/wallet'],
  ['wallet-receive-dialog', '/wallet'],
  ['wallet-send-dialog', '/wallet'],
  ['he-wallet', '/he/wallet'],
];

/** Pages shown to a signed-in person: the context signs in as the demo buyer first. */
const signedInPages = new Set([
  'offer-warning',
  'settings',
  'settings-compromised',
  'settings-2fa-setup',
  'he-settings',
  'vendor-terms',
  'vendor-terms-dialog',
  'he-vendor-terms-dialog',
  'offers-new-not-vendor',
  'wallet',
  'wallet-convert-dialog',
  'wallet-receive-dialog',
  'wallet-send-dialog',
  'he-wallet',
]);

/** Pages of the vendor's own: the context signs in as the demo vendor. */
const vendorPages = new Set(['offers-new', 'offers-new-errors', 'he-offers-new', 'my-offers', 'my-offers-confirm']);

/** Signs a browser context in through the API, as the sign-in page's script does. */
async function signIn(context: BrowserContext, origin: string, email = 'buyer@example.com') {
  await context.request.get(`${origin}/rest/v1/users/current_user`);
  const csrf = (await context.cookies(origin)).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const answer = await context.request.post(`${origin}/rest/v1/auth/login`, {
    data: { email, password: 'Coinfair-demo-2026!' },
    headers: { 'x-csrf-token': csrf, origin },
  });
  if (!answer.ok()) throw new Error(`sign-in for screenshots failed: ${answer.status()}`);
}

/** The vendor terms dialog of the vendors page, as a signed-in person's click opens it. */
async function openVendorTerms(page: Page) {
  await page.locator('[data-cta="vendors-hero-register"]').click();
  await page.locator('#vendor-terms-dialog').waitFor({ state: 'visible' });
}

/** The calculator's chart library loads when the chart nears the screen: bring it there. */
async function showCalculatorChart(page: Page) {
  await page.locator('[data-chart]').scrollIntoViewIfNeeded();
  await page.locator('[data-chart][data-engine="ready"]').waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** What some pages do after loading, so the screenshot shows that state. */
/** From a listing to its first offer, as a click on its button does. */
async function openFirstOffer(page: Page) {
  await page.locator('[data-offer] .offer-action a').first().click();
  await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
}

const actions: Record<string, (page: Page) => Promise<void>> = {
  'listing-methods': async (page) => {
    await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
    await page.locator('.listing-method-button').click();
    await page.getByRole('dialog').waitFor();
  },
  offer: openFirstOffer,
  // The first offer the demo buyer may start (some ask for trades or trust the buyer lacks).
  'offer-warning': async (page) => {
    const listing = page.url();
    const links = await page
      .locator('[data-offer] .offer-action a')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    for (const href of links) {
      await page.goto(new URL(href ?? '/', listing).href);
      await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
      if (await page.locator('.start-submit').isDisabled()) continue;
      await page.locator('.start-submit').click();
      const opened = await page
        .locator('.offer-modal')
        .waitFor({ timeout: 2000 })
        .then(
          () => true,
          () => false,
        );
      if (opened) return;
    }
  },
  'offer-tour': async (page) => {
    await openFirstOffer(page);
    await page.getByRole('button', { name: 'Take a tour' }).click();
    await page.locator('[data-tour-popover]').waitFor();
  },
  'forgot-password-sent': async (page) => {
    await page.locator('#forgot-email').fill('vendor@example.com');
    await page.locator('form[data-auth-form] button[type="submit"]').click();
    await page.locator('[data-forgot-sent]').waitFor();
  },
  'settings-2fa-setup': async (page) => {
    await page.getByRole('button', { name: /Set up two-factor|Start the setup again/ }).click();
    await page.locator('#two-factor-secret').waitFor();
  },
  // Accepted through the page's own form (the demo buyer becomes a vendor in this database).
  'vendor-terms': async (page) => {
    await page.locator('button[value="accept"]').click();
    await page.waitForURL(/done=accepted/);
  },
  'vendor-terms-dialog': openVendorTerms,
  'wallet-convert-dialog': async (page) => {
    await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
    await page.locator('.wallet-actions button').nth(3).click();
    await page.getByRole('dialog').locator('input').fill('100');
    await page.getByRole('dialog').locator('[data-countdown]').waitFor();
  },
  'wallet-send-dialog': async (page) => {
    await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
    await page.locator('.wallet-actions button').first().click();
    await page.locator('#send-address').fill('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5');
    await page.locator('#send-amount').fill('0.004');
    await page.getByRole('dialog').locator('button[type="submit"]').click();
    await page.locator('#send-address-error:not(:empty)').waitFor();
  },
  'wallet-receive-dialog': async (page) => {
    await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
    await page.locator('.wallet-actions button').nth(1).click();
    await page.getByRole('dialog').locator('[data-address]').waitFor();
  },
  // Published without a payment method and with the limits the wrong way round.
  'offers-new-errors': async (page) => {
    await page.locator('astro-island:not([ssr])').waitFor({ state: 'attached' });
    await page.locator('#offer-fiat_min').fill('500');
    await page.locator('#offer-fiat_max').fill('100');
    await page.getByRole('button', { name: 'Publish the offer' }).click();
    await page.locator('#offer-fiat_max-error').waitFor();
  },
  'my-offers-confirm': async (page) => {
    const first = page.locator('[data-offer]').first();
    if ((await first.count()) === 0) return;
    await page.goto(`${page.url()}?delete=${await first.getAttribute('data-offer')}`, { waitUntil: 'networkidle' });
  },
  'he-vendor-terms-dialog': openVendorTerms,
  calculator: showCalculatorChart,
  'he-calculator': showCalculatorChart,
  'calculator-picker': async (page) => {
    await page.locator('.calc-picker-button').click();
    await page.locator('#calc-currency-search').fill('peso');
  },
  'welcome-dialog': async (page) => {
    await page.context().addCookies([{ name: 'welcome', value: '1', url: page.url() }]);
    await page.reload({ waitUntil: 'networkidle' });
  },
};

/**
 * A live reset link and device review link for a demo account, read from the outbox of the
 * database this script's server uses: two sign-ins from different browsers make the second a new
 * device; a solved security check asks for the reset mail.
 */
async function accountTokens(origin: string, database: string): Promise<Record<string, string>> {
  const email = 'buyer@example.com';
  const first = await fetch(`${origin}/rest/v1/auth/challenge`);
  const csrf = /XSRF-TOKEN=([^;]+)/.exec(first.headers.getSetCookie().join('\n'))?.[1] ?? '';
  const post = (path: string, body: unknown, userAgent = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Firefox/128.0') =>
    fetch(origin + path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: `XSRF-TOKEN=${csrf}`,
        'x-csrf-token': csrf,
        origin,
        'user-agent': userAgent,
      },
      body: JSON.stringify(body),
    });
  const password = 'Coinfair-demo-2026!';
  await post('/rest/v1/auth/login', { email, password });
  await post(
    '/rest/v1/auth/login',
    { email, password },
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  );
  const { challenge, difficulty } = ((await first.json()) as { data: { challenge: string; difficulty: number } }).data;
  const { nonce, seccode } = await solveChallenge(challenge, difficulty);
  await post('/rest/v1/auth/forgot-password', {
    email,
    geetest_challenge: challenge,
    geetest_validate: nonce,
    geetest_seccode: seccode,
  });
  await new Promise((r) => setTimeout(r, 300));
  const db = new Database(database, { readonly: true });
  const mails = db.prepare('SELECT text FROM outbox WHERE recipient = ? ORDER BY id DESC').all(email) as {
    text: string;
  }[];
  db.close();
  const find = (pattern: RegExp) => mails.map((m) => pattern.exec(m.text)?.[1]).find(Boolean) ?? 'missing';
  return {
    resetToken: find(/reset-password\?token=([\w-]+)/),
    deviceToken: find(/review-device\?token=([0-9a-f]+)/),
  };
}

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
const filters = process.argv[2]?.split(',').filter(Boolean) ?? [];
const wanted = (name: string) => filters.length === 0 || filters.some((filter) => name.includes(filter));
const outDir = process.env.SCREENSHOTS_DIR
  ? pathToFileURL(`${resolve(process.env.SCREENSHOTS_DIR)}/`)
  : new URL('../../screenshots/', import.meta.url);
const buildDir = resolve(process.env.BUILD_DIR ?? 'build');

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
let database: string | undefined;
if (!base) {
  base = 'http://127.0.0.1:4400';
  database = join(mkdtempSync(join(tmpdir(), 'coinfair-shots-')), 'demo.db');
  const entry = JSON.stringify(pathToFileURL(join(buildDir, 'app/main.js')).href);
  server = spawn(process.execPath, ['-e', `import(${entry}).then((m) => m.main(${JSON.stringify(buildDir)}))`], {
    env: { ...process.env, PORT: '4400', HOST: '127.0.0.1', DATABASE_URL: database },
    stdio: 'ignore',
  });
  await waitFor(base);
}

mkdirSync(outDir, { recursive: true });
// The wallet pages show the demo buyer with coins: deposits from the simulated chain, as
// `npm run admin -- chain:deposit` makes them (two credited, one still incoming).
if (database && pages.some(([name]) => wanted(name) && name.includes('wallet'))) {
  const { chainCommands } = await import('../../server/admin/chain-commands.ts');
  const { openDatabase, closeDatabase } = await import('../../db/client.ts');
  const db = openDatabase(database);
  const chain = chainCommands(db);
  await chain.deposit('buyer@example.com', '0.015', 'BTC');
  await chain.deposit('buyer@example.com', '250', 'USDT');
  await chain.mine('2');
  await chain.deposit('buyer@example.com', '0.0025', 'BTC');
  closeDatabase(db);
}
const browser = await launchBrowser();
// Links from mails only where this script's own server (and its database) runs.
const tokens: Record<string, string> =
  database && pages.some(([name, path]) => wanted(name) && path.includes('{'))
    ? await accountTokens(base, database)
    : {};

try {
  for (const [name, path] of pages) {
    if (!wanted(name)) continue;
    for (const width of widths) {
      for (const scheme of ['light', 'dark'] as const) {
        // Dark only at two widths: enough to judge the theme without tripling the run.
        if (scheme === 'dark' && width === 768) continue;
        const context = await browser.newContext({
          viewport: { width, height: 900 },
          colorScheme: scheme,
          deviceScaleFactor: 1,
          javaScriptEnabled: !name.endsWith('-nojs'),
        });
        if (name !== 'home-banner') {
          await context.addCookies([{ name: 'cookie_settings', value: '11111111', url: base }]);
        }
        if (signedInPages.has(name)) await signIn(context, base);
        if (vendorPages.has(name)) await signIn(context, base, 'vendor@example.com');
        const page = await context.newPage();
        if (name.endsWith('-live')) await mockPrices(page);
        await page.goto(base + path.replace(/\{(\w+)\}/g, (_, key: string) => tokens[key] ?? 'missing'), {
          waitUntil: 'networkidle',
        });
        await actions[name]?.(page);
        await page.waitForTimeout(150);
        const suffix = scheme === 'dark' ? '-dark' : '';
        await page.screenshot({
          path: new URL(`${name}-${width}${suffix}.png`, outDir).pathname,
          // A dialog or a notice is about the viewport it covers, not the page below it.
          fullPage: !(
            name.startsWith('welcome') ||
            name.startsWith('email') ||
            name.endsWith('-dialog') ||
            ['listing-methods', 'offer-warning', 'offer-tour'].includes(name)
          ),
        });
        await context.close();
      }
    }
  }
} finally {
  await browser.close();
  server?.kill();
}
