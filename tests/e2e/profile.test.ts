import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { insertHistory } from '../support/history-fixtures.ts';
import { serverAndBrowser } from './harness.ts';

// The public profile in Chromium: the person's numbers and offers, the feedback list with its
// tabs, rating filter and "show more" (each change clears the list; pages append), and trust and
// block for signed-in people, with and without JavaScript.

const live = serverAndBrowser();
const PASSWORD = 'Coinfair-demo-2026!';

async function context(width: number, javaScriptEnabled = true): Promise<BrowserContext> {
  const ctx = await live.browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled });
  await ctx.addCookies([{ name: 'cookie_settings', value: '11111111', url: live.server.url }]);
  return ctx;
}

async function signIn(ctx: BrowserContext, email: string) {
  await ctx.request.get(`${live.server.url}/rest/v1/auth/challenge`);
  const csrf = (await ctx.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await ctx.request.post(`${live.server.url}/rest/v1/auth/login`, {
    headers: { 'X-CSRF-Token': csrf, Origin: live.server.url },
    data: { email, password: PASSWORD },
  });
  expect(res.status()).toBe(200);
}

let seeded = false;
async function seed() {
  if (seeded) return;
  seeded = true;
  // 60 ratings of the vendor from the buyer, half positive, newest "Trade 1".
  await insertHistory(live.server.sql, { buyer: 'buyer', seller: 'vendor', count: 60, at: Date.now() - 86_400_000 });
  live.server.sql(`UPDATE trade_feedback SET reply = 'Thank you!' WHERE message = 'Trade 2'`);
}

describe('the profile page', () => {
  it('shows a visitor the person, their numbers, offers and feedback; unknown names are 404', async () => {
    await seed();
    const ctx = await context(1280);
    const page = await ctx.newPage();
    const res = await page.goto(`${live.server.url}/profile/vendor`);
    expect(res?.status()).toBe(200);
    await expect(page.locator('h1').textContent()).resolves.toBe('vendor');
    expect(await page.locator('[data-stat="partners"] dd').textContent()).toBe('1');
    expect(await page.locator('[data-check="email"]').getAttribute('data-verified')).toBe('true');
    // Visitors get no trust buttons.
    expect(await page.locator('[data-trust]').count()).toBe(0);
    const items = page.getByTestId('feedback-item');
    expect(await items.count()).toBe(50);
    expect(await items.first().textContent()).toContain('Trade 1');
    expect(await page.locator('[data-filter="positive"]').textContent()).toContain('30');
    expect(await page.locator('.feedback-reply').first().textContent()).toContain('Thank you!');
    const missing = await page.goto(`${live.server.url}/profile/nobody`);
    expect(missing?.status()).toBe(404);
    await ctx.close();
  });

  it('filters by rating and tab (clearing the list) and appends the next page', async () => {
    await seed();
    const ctx = await context(375);
    const page = await ctx.newPage();
    await page.goto(`${live.server.url}/profile/vendor`);
    await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
    const items = page.getByTestId('feedback-item');
    await page.getByTestId('feedback-more').click();
    await expect.poll(() => items.count()).toBe(60);
    expect(await page.getByTestId('feedback-more').count()).toBe(0);

    await page.locator('[data-filter="negative"]').click();
    await expect.poll(() => items.count()).toBe(30);
    expect(await page.locator('[data-rating="positive"]').count()).toBe(0);
    expect(page.url()).toContain('feedback=negative');
    // From sellers: the vendor was never rated as a buyer.
    await page.locator('[data-tab="buy"]').click();
    await expect.poll(() => page.locator('[data-empty]').count()).toBe(1);
    expect(await items.count()).toBe(0);
    await page.locator('[data-tab="sell"]').click();
    await expect.poll(() => items.count()).toBe(30);
    await ctx.close();
  });

  it('pages and filters with links when JavaScript is off', async () => {
    await seed();
    const ctx = await context(1280, false);
    const page = await ctx.newPage();
    await page.goto(`${live.server.url}/profile/vendor?feedback=positive`);
    expect(await page.getByTestId('feedback-item').count()).toBe(30);
    await page.goto(`${live.server.url}/profile/vendor`);
    await page.getByTestId('feedback-more').click();
    await page.waitForURL(/f_page=2/);
    expect(await page.getByTestId('feedback-item').count()).toBe(60);
    await ctx.close();
  });

  it('lets a signed-in person trust, block and undo, without JavaScript too', async () => {
    for (const javaScriptEnabled of [true, false]) {
      const ctx = await context(1280, javaScriptEnabled);
      await signIn(ctx, 'buyer@example.com');
      const page = await ctx.newPage();
      await page.goto(`${live.server.url}/profile/vendor`);
      await page.locator('[data-trust="trusted"]').click();
      await page.waitForURL(/done=trusted/);
      expect(await page.getByTestId('profile-notice').textContent()).toContain('You now trust vendor');
      expect(await page.locator('[data-relation="trusted"]').count()).toBe(1);
      expect(await page.locator('[data-stat="trusted"] dd').textContent()).toBe('1');
      await page.locator('[data-trust="blocked"]').click();
      await page.waitForURL(/done=blocked/);
      expect(await page.locator('[data-relation="blocked"]').count()).toBe(1);
      await page.locator('[data-trust="none"]').click();
      await page.waitForURL(/done=none/);
      expect(await page.locator('[data-relation]').count()).toBe(0);
      expect(await page.locator('[data-stat="blocked"] dd').textContent()).toBe('0');
      // One's own profile has no such buttons.
      await page.goto(`${live.server.url}/profile/buyer`);
      expect(await page.locator('[data-trust]').count()).toBe(0);
      expect(await page.locator('.profile-self').count()).toBe(1);
      await ctx.close();
    }
  });
});

describe('the trades page', () => {
  it('sends visitors to sign in and links from the header for signed-in people', async () => {
    const ctx = await context(1280);
    const res = await ctx.request.get(`${live.server.url}/trades`, { maxRedirects: 0 });
    expect(res.status()).toBe(303);
    expect(res.headers().location).toBe('/login?back=%2Ftrades');
    await signIn(ctx, 'buyer@example.com');
    const page = await ctx.newPage();
    await page.goto(`${live.server.url}/`);
    await page.getByTestId('header-trades').click();
    await page.waitForURL(/\/trades$/);
    expect(await page.locator('h1').textContent()).toBe('Trades');
    await ctx.close();
  });

  it('shows active trades with the alarmed ones marked, and past trades by tab and filter; pages append', async () => {
    await seed();
    await insertHistory(live.server.sql, {
      buyer: 'buyer',
      seller: 'vendor',
      count: 3,
      at: Date.now() - 3 * 86_400_000,
      status: 'cancelled_buyer',
      feedback: 'none',
      prefix: 'cancelled',
    });
    // One running trade where the buyer (the reader) has paid and the seller must act: not alarmed
    // for the buyer; and one where the vendor sells to the buyer and the buyer must pay soon.
    await insertHistory(live.server.sql, {
      buyer: 'buyer',
      seller: 'vendor',
      count: 1,
      at: Date.now(),
      feedback: 'none',
      prefix: 'running',
    });
    live.server.sql(
      `UPDATE trades SET status = 'active_funded', ended_at = NULL, expires_at = ? WHERE hash = 'running1'`,
      Date.now() + 60_000,
    );
    const ctx = await context(1280);
    await signIn(ctx, 'buyer@example.com');
    const page = await ctx.newPage();
    await page.goto(`${live.server.url}/trades`);
    await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
    const active = page.getByTestId('active-trades');
    expect(await active.locator('[data-trade="running1"]').getAttribute('data-alarmed')).toBe('true');

    const rows = page.getByTestId('past-trades').locator('tbody tr');
    expect(await rows.count()).toBe(50);
    await page.getByTestId('past-more').click();
    await expect.poll(() => rows.count()).toBe(63);
    await page.locator('[data-filter="cancelled"]').click();
    await expect.poll(() => rows.count()).toBe(3);
    expect(page.url()).toContain('status=cancelled');
    await page.locator('[data-tab="sold"]').click();
    await expect.poll(() => page.getByTestId('past-trades').locator('[data-empty]').count()).toBe(1);
    await page.locator('[data-tab="bought"]').click();
    await page.locator('[data-filter="successful"]').click();
    await expect.poll(() => rows.count()).toBe(50);
    await ctx.close();
  });
});
