import { gzipSync } from 'node:zlib';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LEVEL_LIMITS_USD_CENTS, MAX_LEVEL } from '../../src/lib/shared/verification-rules.ts';
import { seriousViolations, serverAndBrowser } from './harness.ts';

// The static marketing pages as a person meets them in Chromium: header, menu, footer,
// language switcher, cookie consent, bell badge, tabs, slider, themes, accessibility, and the
// promise that they ship no React and at most 5 KB (gzip) of script.

const STATIC_PAGES = [
  '/',
  '/vendors',
  '/cookie-policy',
  '/peer-to-peer-map',
  '/media',
  '/fees',
  '/about',
  '/support',
  '/terms',
  '/privacy',
  '/developers',
  '/proof-of-reserves',
  '/de/',
  '/he/',
  '/tr/vendors',
];
/**
 * 5 KB of script. The inline script in Base.astro that names a script or CSS chunk that failed to
 * load (spec section 8, decision 129) shares one <script> with the pre-paint theme script, written
 * small, and the signed-in part of the header (src/scripts/account.ts) loads only for someone signed
 * in (decision 142), so every page is back within the 5 KB it had before issue 22.
 */
const SCRIPT_BUDGET_GZIP = 5 * 1024;
/**
 * The vendor landing page is the one static page with live widgets (price, weekly chart, the
 * rates of 154 currencies, in the visitor's own currency): it shares the islands' number
 * formatting (src/lib/shared/format.ts, one chunk) rather than keeping a copy of it, and the
 * vendor-terms dialog's script. 6.25 KB: the quarter KB the header on every page grew by in issues
 * 21 and 22 (following a new username or avatar from other tabs, kiosk entries), no more.
 */
const VENDOR_PAGE_BUDGET_GZIP = 6.25 * 1024;
const PAGE_BUDGETS_GZIP: Record<string, number> = {
  '/vendors': VENDOR_PAGE_BUDGET_GZIP,
  '/tr/vendors': VENDOR_PAGE_BUDGET_GZIP,
};
const live = serverAndBrowser();

/** A page in a fresh context. `consent` presets the cookie choice so the banner stays away. */
async function open(
  path: string,
  { width = 1440, consent = true, ...options }: BrowserContextOptions & { width?: number; consent?: boolean } = {},
) {
  const context = await live.browser.newContext({ viewport: { width, height: 900 }, ...options });
  if (consent) await context.addCookies([{ name: 'cookie_settings', value: '11111111', url: live.server.url }]);
  const page = await context.newPage();
  await page.goto(live.server.url + path, { waitUntil: 'networkidle' });
  return page;
}

async function close(page: Page) {
  await page.context().close();
}

const headerClasses = (page: Page) =>
  page.locator('#site-header').evaluate((el) => [...el.classList].filter((c) => c === 'scrolled' || c === 'short'));

describe('header', () => {
  it('gets `scrolled` past 0 px and `short` past 32 px, and loses them back at the top', async () => {
    const page = await open('/');
    expect(await headerClasses(page)).toEqual([]);

    await page.evaluate(() => window.scrollTo(0, 10));
    await expect.poll(() => headerClasses(page)).toEqual(['scrolled']);

    await page.evaluate(() => window.scrollTo(0, 100));
    await expect.poll(() => headerClasses(page)).toEqual(['scrolled', 'short']);

    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(() => headerClasses(page)).toEqual([]);
    await close(page);
  });

  it('opens and closes the mobile menu at 375 px, by button and by Escape', async () => {
    const page = await open('/', { width: 375 });
    const toggle = page.locator('button[aria-controls="site-menu"]');
    const vendorsLink = page.locator('#site-menu .nav-list a[href="/vendors"]');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await vendorsLink.isVisible()).toBe(false);

    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await vendorsLink.isVisible()).toBe(true);

    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await vendorsLink.isVisible()).toBe(false);

    await toggle.click();
    await page.keyboard.press('Escape');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await vendorsLink.isVisible()).toBe(false);
    await close(page);
  });

  it('groups the four trade links under Marketplace on wide screens', async () => {
    const page = await open('/');
    const buyTether = page.locator('#site-header .market a[href="/buy-tether"]');
    expect(await buyTether.isVisible()).toBe(false);
    await page.locator('#site-header .market summary').click();
    expect(await buyTether.isVisible()).toBe(true);
    await page.locator('main h1').click();
    expect(await buyTether.isVisible()).toBe(false);
    expect(await page.locator('#site-header .nav-bar a[href="/vendors"]').isVisible()).toBe(true);
    await close(page);
  });

  it('toggles the theme and remembers the choice', async () => {
    const page = await open('/', { colorScheme: 'light' });
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    expect(await theme()).toBe('light');
    await page.locator('[data-theme-toggle]').click();
    expect(await theme()).toBe('dark');
    expect(await page.locator('[data-theme-toggle]').getAttribute('aria-pressed')).toBe('true');
    await page.reload();
    expect(await theme()).toBe('dark');
    await close(page);
  });

  it('follows the system theme when nothing is stored', async () => {
    const page = await open('/', { colorScheme: 'dark' });
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await close(page);
  });
});

describe('footer', () => {
  it('collapses its columns at 375 px and opens and closes each one', async () => {
    const page = await open('/', { width: 375 });
    const button = page.locator('button[data-expander][aria-controls="footer-company"]');
    const list = page.locator('#footer-company');
    await expect.poll(() => button.getAttribute('aria-expanded')).toBe('false');
    expect(await list.isVisible()).toBe(false);

    await button.click();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(await list.isVisible()).toBe(true);

    await button.click();
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await list.isVisible()).toBe(false);
    await close(page);
  });

  it('shows every column open from 768 px', async () => {
    const page = await open('/', { width: 1024 });
    for (const id of ['marketplace', 'company', 'help', 'legal']) {
      expect(await page.locator(`#footer-${id}`).isVisible()).toBe(true);
    }
    await close(page);
  });
});

describe('languages', () => {
  it('switches /vendors to the same page in German', async () => {
    const page = await open('/vendors');
    await page.locator('#site-header details.lang summary').click();
    await page.locator('#site-header a[hreflang="de"]').click();
    await page.waitForURL(`${live.server.url}/de/vendors`);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    expect(await page.locator('#site-header a[hreflang="de"]').getAttribute('aria-current')).toBe('true');
    await close(page);
  });

  it('lists every language as an alternate of the page', async () => {
    const page = await open('/fees');
    const alternates = await page
      .locator('link[rel="alternate"][hreflang]')
      .evaluateAll((links) => links.map((l) => `${l.getAttribute('hreflang')} ${l.getAttribute('href')}`));
    // Absolute, from the server's origin (decision 141; tests/e2e/page-delivery.test.ts checks every page).
    expect(alternates).toContain(`de ${live.server.url}/de/fees`);
    expect(alternates).toContain(`nb ${live.server.url}/no/fees`);
    expect(alternates).toContain(`x-default ${live.server.url}/fees`);
    expect(alternates).toHaveLength(20);
    await close(page);
  });

  // Long words (German, Russian, Portuguese) in the narrowest phone and the four-column footer
  // width: a page that scrolls sideways has a box that does not let its text wrap.
  it.each(['de', 'ru', 'pt'])('never scrolls sideways in %s (320 and 1000 px)', async (lang) => {
    for (const width of [320, 1000]) {
      const context = await live.browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      for (const path of ['/', '/vendors', '/buy-bitcoin', '/sell-tether', '/calculator/btc-to-usd']) {
        await page.goto(`${live.server.url}/${lang}${path}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
        expect(overflow, `/${lang}${path} at ${width} px`).toBeLessThanOrEqual(0);
      }
      await context.close();
    }
  });

  it('renders Hebrew right to left', async () => {
    const page = await open('/he/');
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      'he',
      'rtl',
    ]);
    await close(page);
  });
});

describe('cookie consent', () => {
  it('keeps two categories off after saving and reloading, with the banner gone', async () => {
    const page = await open('/cookie-policy', { consent: false });
    const banner = page.locator('#cookie-banner');
    const dialog = page.locator('#cookie-dialog');
    expect(await banner.isVisible()).toBe(true);

    await page.locator('main [data-cookie="settings"]').first().click();
    expect(await dialog.isVisible()).toBe(true);
    await page.locator('#cookie-newsletter').uncheck();
    await page.locator('#cookie-thirdParty').uncheck();
    await page.locator('[data-testid="cookie-save"]').click();
    expect(await dialog.isVisible()).toBe(false);
    expect(await banner.isVisible()).toBe(false);

    const cookie = (await page.context().cookies()).find((c) => c.name === 'cookie_settings');
    expect(cookie?.value).toBe('10111110');
    expect(cookie?.path).toBe('/');
    // One year (spec section 9), allowing for the seconds this test takes.
    expect((cookie?.expires ?? 0) - Date.now() / 1000).toBeGreaterThan(364 * 24 * 3600);

    await page.reload({ waitUntil: 'networkidle' });
    expect(await banner.isVisible()).toBe(false);
    await page.locator('main [data-cookie="settings"]').first().click();
    const checked = await page
      .locator('#cookie-dialog input[type="checkbox"]')
      .evaluateAll((inputs) =>
        Object.fromEntries(inputs.map((i) => [(i as HTMLInputElement).name, (i as HTMLInputElement).checked])),
      );
    expect(checked).toEqual({
      login: true,
      newsletter: false,
      survey: true,
      site: true,
      account: true,
      orderProcessing: true,
      forms: true,
      thirdParty: false,
    });
    await close(page);
  });

  it('accepts everything from the banner on any page', async () => {
    const page = await open('/media', { consent: false });
    await page.locator('#cookie-banner [data-cookie="accept"]').click();
    expect(await page.locator('#cookie-banner').isVisible()).toBe(false);
    const cookie = (await page.context().cookies()).find((c) => c.name === 'cookie_settings');
    expect(cookie?.value).toBe('11111111');
    await close(page);
  });
});

describe('notification bell', () => {
  it('shows the count from `notifications:count`, 99+ from 100, nothing at 0', async () => {
    const page = await open('/');
    const badge = page.locator('[data-testid="notification-bell"] [data-testid="notification-badge"]');
    const send = (count: number) =>
      page.evaluate(
        (n) => window.dispatchEvent(new CustomEvent('notifications:count', { detail: { count: n } })),
        count,
      );
    expect(await badge.isVisible()).toBe(false);

    await send(100);
    expect(await badge.textContent()).toBe('99+');
    expect(await badge.isVisible()).toBe(true);

    await send(7);
    expect(await badge.textContent()).toBe('7');

    await send(0);
    expect(await badge.isVisible()).toBe(false);
    await close(page);
  });
});

describe('progressive widgets', () => {
  it('switches payment method tabs on the home page', async () => {
    const page = await open('/');
    expect(await page.locator('#pm-panel-bank-transfers').isVisible()).toBe(true);
    expect(await page.locator('#pm-panel-gift-cards').isVisible()).toBe(false);
    await page.locator('#pm-tab-gift-cards').click();
    expect(await page.locator('#pm-panel-gift-cards').isVisible()).toBe(true);
    expect(await page.locator('#pm-panel-bank-transfers').isVisible()).toBe(false);
    await page.keyboard.press('ArrowDown');
    expect(await page.locator('#pm-tab-cash-deposits').getAttribute('aria-selected')).toBe('true');
    await close(page);
  });

  it('selects a peer level on the map page', async () => {
    const page = await open('/peer-to-peer-map');
    expect(await page.locator('#level-panel-1').isVisible()).toBe(true);
    await page.locator('#level-tab-3').click();
    expect(await page.locator('#level-panel-3').isVisible()).toBe(true);
    expect(await page.locator('#level-panel-1').isVisible()).toBe(false);
    await close(page);
  });

  it('shows one peer level per verification step, with the limits the product enforces', async () => {
    const page = await open('/peer-to-peer-map');
    expect(await page.locator('#levels [role="tab"]').count()).toBe(MAX_LEVEL);
    const usd = new Intl.NumberFormat('en', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
    for (let n = 1; n <= MAX_LEVEL; n++) {
      expect(await page.locator(`#level-panel-${n} .limit-value`).textContent()).toBe(
        `Up to ${usd.format((LEVEL_LIMITS_USD_CENTS[n] ?? 0) / 100)} per 30 days`,
      );
    }
    expect(await page.locator('#levels a[href="/verification"]').count()).toBe(1);
    await close(page);

    const he = await open('/he/peer-to-peer-map');
    expect(await he.locator('#levels a[href="/he/verification"]').count()).toBe(1);
    await close(he);
  });

  it('moves the testimonials slider with its buttons and dots', async () => {
    const page = await open('/', { width: 375 });
    const current = () =>
      page
        .locator('[data-dot][aria-current="true"]')
        .evaluate((dot) => [...(dot.parentElement?.children ?? [])].indexOf(dot));
    expect(await current()).toBe(0);
    expect(await page.locator('[data-prev]').isDisabled()).toBe(true);
    await page.locator('[data-next]').click();
    await expect.poll(current).toBe(1);
    await page.locator('[data-dot]').nth(4).click();
    await expect.poll(current).toBe(4);
    await close(page);
  });

  const widgetStates = (page: Page) =>
    page.locator('[data-widget]').evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.state));

  it('fills the vendor price widgets with live data from the API', async () => {
    const page = await open('/vendors');
    await expect.poll(() => widgetStates(page), { timeout: 10_000 }).toEqual(['ready', 'ready', 'ready']);
    const price = (await page.locator('[data-widget="price"]').textContent()) ?? '';
    expect(price).toMatch(/\$\d{2,3},\d{3}\.\d{2}/);
    expect(
      await page.locator('[data-widget="chart"] svg polyline, [data-widget="chart"] svg path').count(),
    ).toBeGreaterThan(0);
    expect(await page.locator('[data-widget="rates"] tbody tr').count()).toBeGreaterThan(10);
    await close(page);
  });

  it('shows a clear error, never an endless skeleton, when prices cannot be loaded', async () => {
    const context = await live.browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.route('**/rest/v1/**', (route) => route.fulfill({ status: 503, body: '{}' }));
    const page = await context.newPage();
    await page.goto(`${live.server.url}/vendors`, { waitUntil: 'networkidle' });
    await expect.poll(() => widgetStates(page), { timeout: 10_000 }).toEqual(['error', 'error', 'error']);
    await close(page);
  });

  it('keeps every page readable and navigable without JavaScript', async () => {
    const page = await open('/', { width: 375, javaScriptEnabled: false });
    expect(await page.locator('#site-menu .nav-list a[href="/vendors"]').isVisible()).toBe(true);
    expect(await page.locator('#footer-legal').isVisible()).toBe(true);
    expect(await page.locator('#pm-panel-gift-cards').isVisible()).toBe(true);
    expect(await page.locator('#cookie-banner').isVisible()).toBe(false);
    await close(page);
  });
});

describe('static pages ship no React and little script', () => {
  it.each(STATIC_PAGES)('%s', async (path) => {
    const context = await live.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const scripts: { url: string; body: Promise<Buffer> }[] = [];
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push({ url: response.url(), body: response.body() });
    });
    const response = await page.goto(live.server.url + path, { waitUntil: 'networkidle' });
    expect(response?.status()).toBe(200);

    const html = await page.content();
    expect(html).not.toContain('astro-island');
    expect(requests.filter((url) => /react/i.test(url))).toEqual([]);
    expect(await page.locator('script[src*="react" i]').count()).toBe(0);

    const inline = await page.locator('script:not([src])').evaluateAll((els) => els.map((el) => el.textContent ?? ''));
    const external = await Promise.all(scripts.map((s) => s.body));
    const gzipped = [...inline.map((code) => Buffer.from(code)), ...external].reduce(
      (sum, code) => sum + gzipSync(code).length,
      0,
    );
    expect(gzipped).toBeLessThanOrEqual(PAGE_BUDGETS_GZIP[path] ?? SCRIPT_BUDGET_GZIP);
    await context.close();
  });
});

describe('accessibility (axe-core)', () => {
  const cases = ['/', '/vendors', '/cookie-policy', '/peer-to-peer-map'].flatMap((path) =>
    (['light', 'dark'] as const).map((scheme) => [path, scheme] as const),
  );

  it.each(cases)('%s in the %s theme has no serious or critical violations', async (path, scheme) => {
    // No consent cookie: the banner is part of what a first-time visitor meets.
    // bypassCSP: axe is injected as an inline script, which the pages' policy rightly refuses.
    const page = await open(path, { colorScheme: scheme, consent: false, bypassCSP: true });
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);
    const violations = await seriousViolations(page);
    expect(violations).toEqual([]);
    await close(page);
  });
});
