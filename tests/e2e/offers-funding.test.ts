import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverAndBrowser } from './harness.ts';
import { browserPeople, sepaOffer } from './people.ts';

// A sell offer its vendor cannot fund (decision 121) in Chromium: the vendor is warned on My offers
// and in the editor, with the way to deposit; a buyer who opens it by link is told the vendor lacks
// the coins; a deposit puts it in the listing and takes the warnings away. Screenshots of each
// screen go to test-results/offers-funding/ for a person to look at.

const live = serverAndBrowser();
const people = browserPeople(live);
const SHOTS = join(import.meta.dirname, '..', '..', 'test-results', 'offers-funding');
mkdirSync(SHOTS, { recursive: true });

const listed = async (ctx: BrowserContext) =>
  (await people.api<{ hash: string }[]>(ctx, '/rest/v1/offers?type=buy&currency=EUR&payment-method=sepa')).map(
    (o) => o.hash,
  );

/** The page at 375 and 1440 px, light and dark, in `locales`, saved as test-results/offers-funding/<name>-…png. */
async function shots(name: string, path: string, email: string, locales: string[] = ['']) {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [375, 1440]) {
      const ctx = await people.signedIn(email, width, { colorScheme });
      for (const locale of locales) {
        const page = await ctx.newPage();
        await page.goto(`${live.server.url}${locale ? `/${locale}` : ''}${path}`);
        if ((await page.locator('astro-island').count()) > 0) await hydrated(page);
        const file = `${name}${locale ? `-${locale}` : ''}-${width}-${colorScheme}.png`;
        await page.screenshot({ path: join(SHOTS, file), fullPage: true });
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      }
      await ctx.close();
    }
  }
}

/** `path` in a new page of `ctx`, its islands (if any) hydrated; console errors go to `problems`. */
async function load(ctx: BrowserContext, path: string, problems: string[]): Promise<Page> {
  const page = await ctx.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(live.server.url + path);
  if ((await page.locator('astro-island').count()) > 0) await hydrated(page);
  return page;
}

const hydrated = (page: Page) => page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });

const warningOf = (page: Page, hash: string) => page.locator(`[data-offer="${hash}"] [data-testid="offer-no-coins"]`);

describe('a sell offer its vendor cannot fund', () => {
  it('warns the vendor with a way to deposit, tells the buyer why not, and is listed once funded', async () => {
    const problems: string[] = [];
    const vendor = await people.signedIn('vendor@example.com', 1440);
    const { hash } = await people.api<{ hash: string }>(vendor, '/rest/v1/offers', sepaOffer());
    expect(await listed(vendor)).not.toContain(hash);

    // My offers: the offer's own warning, what the wallet holds and needs, and the deposit link.
    const mine = await load(vendor, '/my-offers', problems);
    const warning = warningOf(mine, hash);
    expect(await warning.locator('.funding-warning-title').textContent()).toBe('Buyers do not see this offer');
    // 50 EUR at 90,000: 55,556 satoshi, and the 1 % fee 556.
    expect(await warning.textContent()).toContain('0.00056112 BTC');
    expect(await warning.getByRole('link', { name: 'Deposit BTC' }).getAttribute('href')).toBe('/wallet');

    // The editor says the same while the offer is a sell offer, and nothing once it buys.
    const editor = await load(vendor, `/offers/${hash}/edit`, problems);
    const editorWarning = editor.getByTestId('offer-no-coins');
    expect(await editorWarning.getByRole('link', { name: 'Deposit BTC' }).getAttribute('href')).toBe('/wallet');
    await editor.locator('input[name="type"][value="buy"]').check();
    await expect.poll(() => editorWarning.count()).toBe(0);
    await editor.locator('input[name="type"][value="sell"]').check();
    await expect.poll(() => editorWarning.count()).toBe(1);

    // A buyer who has the link: the reason, a way to similar offers, and no start.
    const buyer = await people.signedIn('buyer@example.com', 375);
    const offerPage = await load(buyer, `/offers/${hash}`, problems);
    const block = offerPage.locator('[data-block="vendor_no_coins"]');
    expect(await block.textContent()).toContain('The vendor does not have enough BTC for this offer right now');
    expect(await block.getByRole('link', { name: 'See similar offers' }).getAttribute('href')).toBe(
      '/buy-bitcoin/sepa/eur',
    );
    expect(await offerPage.locator('.start-submit').isDisabled()).toBe(true);

    await shots('my-offers', '/my-offers', 'vendor@example.com', ['', 'de', 'he']);
    await shots('editor', `/offers/${hash}/edit`, 'vendor@example.com', ['', 'de']);
    await shots('offer', `/offers/${hash}`, 'buyer@example.com', ['', 'de', 'he']);

    // A deposit confirmed on the chain: listed at once, and the warnings are gone.
    await people.fund(vendor, 'vendor@example.com', '0.001');
    await expect.poll(() => listed(vendor), { timeout: 15_000 }).toContain(hash);
    await mine.reload();
    expect(await warningOf(mine, hash).count()).toBe(0);
    await offerPage.reload();
    expect(await offerPage.locator('[data-block="vendor_no_coins"]').count()).toBe(0);
    expect(problems).toEqual([]);
    await vendor.close();
    await buyer.close();
  });
});
