import type { BrowserContextOptions, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { fundOnServer } from '../support/offer-funds.ts';
import { seriousViolations, serverAndBrowser } from './harness.ts';

// The vendor's offer pages in Chromium: a vendor creates an offer through /offers/new (meeting
// the field checks first, then an error only the server finds), sees it on /my-offers and in the
// public listing, switches it off and on, changes the margin and deletes it. Someone who is not a
// vendor is shown the way to the vendor terms instead of the editor.

const live = serverAndBrowser();
// Its offers are listed only while the vendor's wallet covers them (decision 121).
beforeAll(() => fundOnServer(live.server, `email = 'vendor@example.com'`));
const DEMO_PASSWORD = 'Coinfair-demo-2026!';
const CURRENCY = 'CHF';
const METHOD = 'amazon-gift-card';
/** A new context signed in as a demo account through the API, the cookie choice made. */
async function signedIn(
  email: string,
  path: string,
  { width = 1440, ...options }: BrowserContextOptions & { width?: number } = {},
): Promise<Page> {
  const context = await live.browser.newContext({ viewport: { width, height: 900 }, ...options });
  await context.addCookies([{ name: 'cookie_settings', value: '11111111', url: live.server.url }]);
  await context.request.get(`${live.server.url}/rest/v1/users/current_user`);
  const csrf = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await context.request.post(`${live.server.url}/rest/v1/auth/login`, {
    headers: { 'X-CSRF-Token': csrf, Origin: live.server.url },
    data: { email, password: DEMO_PASSWORD },
  });
  expect(res.status()).toBe(200);
  await context.clearCookies({ name: 'welcome' });
  const page = await context.newPage();
  await page.goto(live.server.url + path);
  return page;
}

/** Waits until the island has hydrated: Astro drops `ssr` from the island once it runs. */
async function hydrated(page: Page) {
  await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
}

/** Hashes of the public listing a buyer of CHF gift-card offers sees. */
async function listed(page: Page): Promise<string[]> {
  const res = await page.request.get(
    `${live.server.url}/rest/v1/offers?type=buy&currency=${CURRENCY}&payment-method=${METHOD}`,
  );
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: { hash: string }[] }).data.map((o) => o.hash);
}

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
const rowOf = (page: Page, hash: string) => page.locator(`[data-offer="${hash}"]`);
const statusOf = async (page: Page, hash: string) =>
  (await rowOf(page, hash).getByTestId('offer-status').textContent())?.trim();

describe.each([375, 1440])('offer editor at %i px', (width) => {
  it('sends a person who is signed out to sign in, and one who is not a vendor to the vendor terms', async () => {
    const context = await live.browser.newContext({ viewport: { width, height: 900 } });
    const visitor = await context.newPage();
    await visitor.goto(`${live.server.url}/offers/new`);
    expect(visitor.url()).toBe(`${live.server.url}/login?back=%2Foffers%2Fnew`);
    await context.close();

    const page = await signedIn('buyer@example.com', '/offers/new', { width });
    const panel = page.getByTestId('vendor-required');
    await expect.poll(() => panel.isVisible()).toBe(true);
    expect(await page.locator('form.offer-editor').count()).toBe(0);
    await panel.getByRole('link', { name: 'Read the vendor terms' }).click();
    await page.waitForURL(`${live.server.url}/vendor-terms`);
    await page.goto(`${live.server.url}/my-offers`);
    expect(await page.getByTestId('vendor-required').isVisible()).toBe(true);
    await page.context().close();
  });

  it('creates an offer after fixing its fields, switches it off and on, edits the margin and deletes it', async () => {
    const page = await signedIn('vendor@example.com', '/offers/new', { width });
    await hydrated(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Create an offer');

    // Currency by search; the payment method from the gift-card group, open first (spec section 9).
    await page.locator('#offer-currency').fill('franc');
    await page.locator(`input[name="currency"][value="${CURRENCY}"]`).check();
    expect(await page.getByRole('tab', { name: 'Gift cards' }).getAttribute('aria-selected')).toBe('true');
    await page.locator(`input[name="payment_method"][value="${METHOD}"]`).check();
    expect(await page.locator('.method-note [role="note"]').textContent()).toContain('scammers');

    // The live preview: the market price of BTC in CHF, moved by the margin.
    await page.locator('#offer-margin').fill('3.5');
    const market = page.getByTestId('market-price');
    await expect.poll(() => market.textContent()).toMatch(/\d/);
    const price = await page.getByTestId('offer-price').textContent();
    expect(price).toMatch(/\d/);
    expect(price).not.toBe(await market.textContent());

    // Field errors: limits the wrong way round and an amount with too many decimals.
    await page.locator('#offer-fiat_min').fill('500');
    await page.locator('#offer-fiat_max').fill('100');
    await page.locator('#offer-predefined_amounts').click();
    await page.locator('#offer-predefined_amounts-0').fill('50.555');
    await page.getByRole('button', { name: 'Publish the offer' }).click();
    const maxField = page.locator('#offer-fiat_max');
    await expect.poll(() => maxField.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#offer-fiat_max-error').textContent()).toBe(
      'The maximum must not be below the minimum.',
    );
    expect(await maxField.getAttribute('aria-describedby')).toContain('offer-fiat_max-error');
    expect(await page.locator('#offer-predefined_amounts-0-error').textContent()).toBe(
      'Enter an amount above 0 with at most 2 decimals.',
    );
    expect(await page.getByRole('alert').first().textContent()).toContain('Some fields need your attention');
    await expect.poll(() => focusedId(page)).toBe('offer-fiat_max');
    expect(page.url()).toBe(`${live.server.url}/offers/new`);

    await page.locator('#offer-fiat_min').fill('20');
    await page.locator('#offer-fiat_max').fill('1000');
    await page.locator('#offer-predefined_amounts-0').fill('50');
    await expect.poll(() => maxField.getAttribute('aria-invalid')).toBeNull();
    await page.locator('#offer-terms').fill('Unused cards only; send a photo of the receipt.');

    // A problem only the server knows (an unknown country code) comes back onto its field.
    await page.route(
      (url) => url.pathname === '/rest/v1/offers',
      async (route) => {
        const body = route.request().postDataJSON() as Record<string, unknown>;
        await route.continue({ postData: JSON.stringify({ ...body, allowed_countries: ['ZZ'] }) });
      },
    );
    await page.getByRole('button', { name: 'Publish the offer' }).click();
    const countriesError = page.locator('#offer-allowed_countries-error');
    await expect.poll(() => countriesError.textContent()).toBe('Choose countries from the list.');
    expect(await page.locator('#offer-allowed_countries').getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => focusedId(page)).toBe('offer-allowed_countries');
    await page.unrouteAll();

    await page.getByRole('button', { name: 'Publish the offer' }).click();
    await page.waitForURL(`${live.server.url}/my-offers?done=created`);
    expect(await page.getByTestId('my-offers-notice').textContent()).toBe('Your offer is published.');
    const row = page.locator('[data-offer]', { hasText: 'Amazon gift card' }).filter({ hasText: CURRENCY }).first();
    const hash = (await row.getAttribute('data-offer')) ?? '';
    expect(hash).toMatch(/^[0-9A-Za-z]{6,32}$/);
    expect(await statusOf(page, hash)).toBe('On');
    expect(await rowOf(page, hash).textContent()).toContain('+3.5%');
    expect(await listed(page)).toContain(hash);

    // Off: out of the listing; on again: back in.
    await rowOf(page, hash).getByTestId('offer-toggle').click();
    await page.waitForURL(`${live.server.url}/my-offers?done=off`);
    expect(await statusOf(page, hash)).toBe('Off');
    expect(await listed(page)).not.toContain(hash);
    await rowOf(page, hash).getByTestId('offer-toggle').click();
    await page.waitForURL(`${live.server.url}/my-offers?done=on`);
    expect(await statusOf(page, hash)).toBe('On');
    expect(await listed(page)).toContain(hash);

    // Edit: the form starts from the offer; a new margin is saved.
    await rowOf(page, hash).getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`${live.server.url}/offers/${hash}/edit`);
    await hydrated(page);
    expect(await page.locator('#offer-margin').inputValue()).toBe('3.5');
    expect(await page.locator(`input[name="payment_method"][value="${METHOD}"]`).isChecked()).toBe(true);
    expect(await page.locator('#offer-predefined_amounts-0').inputValue()).toBe('50');
    await page.locator('#offer-margin').fill('-2.25');
    await page.getByRole('button', { name: 'Save the changes' }).click();
    await page.waitForURL(`${live.server.url}/my-offers?done=updated`);
    expect(await rowOf(page, hash).textContent()).toContain('-2.25%');
    const offer = await page.request.get(`${live.server.url}/rest/v1/offers/${hash}`);
    expect(((await offer.json()) as { data: { margin: number } }).data.margin).toBe(-2.25);

    // Delete asks first, then the offer leaves the page and the listing.
    await rowOf(page, hash).getByRole('link', { name: 'Delete' }).click();
    await page.waitForURL(`${live.server.url}/my-offers?delete=${hash}#offer-${hash}-confirm`);
    await rowOf(page, hash).getByRole('button', { name: 'Yes, delete it' }).click();
    await page.waitForURL(`${live.server.url}/my-offers?done=deleted`);
    expect(await rowOf(page, hash).count()).toBe(0);
    expect(await listed(page)).not.toContain(hash);
    expect((await page.request.get(`${live.server.url}/rest/v1/offers/${hash}`)).status()).toBe(404);
    await page.context().close();
  });
});

describe('offer pages without JavaScript and for assistive technology', () => {
  it('switches an offer off and on with plain form posts', async () => {
    const page = await signedIn('vendor@example.com', '/my-offers', { javaScriptEnabled: false });
    const row = page.locator('[data-offer]').first();
    const hash = (await row.getAttribute('data-offer')) ?? '';
    const before = await statusOf(page, hash);
    await rowOf(page, hash).getByTestId('offer-toggle').click();
    await page.waitForURL(/done=(on|off)$/);
    expect(await statusOf(page, hash)).not.toBe(before);
    await rowOf(page, hash).getByTestId('offer-toggle').click();
    await page.waitForURL(/done=(on|off)$/);
    expect(await statusOf(page, hash)).toBe(before);
    await page.context().close();
  });

  it.each(['light', 'dark'] as const)('the editor and my offers pass axe-core in the %s theme', async (scheme) => {
    // bypassCSP: axe is injected as an inline script, which the pages' policy rightly refuses.
    const page = await signedIn('vendor@example.com', '/offers/new', { colorScheme: scheme, bypassCSP: true });
    await hydrated(page);
    await page.getByRole('button', { name: 'Publish the offer' }).click();
    await page.locator('#offer-payment_method-error:not(:empty)').waitFor();
    const violations = () => seriousViolations(page);
    expect(await violations()).toEqual([]);
    await page.goto(`${live.server.url}/my-offers`);
    expect(await violations()).toEqual([]);
    await page.context().close();
  });
});
