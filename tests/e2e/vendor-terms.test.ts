import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { solveChallenge } from '../../src/lib/shared/proof-of-work.ts';
import { seriousViolations, serverAndBrowser } from './harness.ts';

// The vendor terms as people meet them in Chromium: the dialog of the vendors page for a
// signed-in person (accept, decline, the error of a suspended account), the link for visitors,
// and the /vendor-terms page without JavaScript. Each test signs in a fresh account (or a demo
// one) through the API in its own browser context.

const live = serverAndBrowser();
const STRONG = 'Amber-Lighthouse-58!';
const DEMO_PASSWORD = 'Coinfair-demo-2026!';
const SUSPENDED = 'suspended@example.com';

let counter = 0;
const freshEmail = () => `vendor-terms-${process.pid}-${Date.now()}-${counter++}@example.com`;

/**
 * `path` in a new context, signed in as `email` (a demo account) or as a new account registered
 * through the API, with the cookie choice made and no welcome dialog in the way.
 */
async function signedIn(
  path: string,
  { email, width = 1440, ...options }: BrowserContextOptions & { email?: string; width?: number } = {},
): Promise<Page> {
  const context = await live.browser.newContext({ viewport: { width, height: 900 }, ...options });
  await context.addCookies([{ name: 'cookie_settings', value: '11111111', url: live.server.url }]);
  const issued = await context.request.get(`${live.server.url}/rest/v1/auth/challenge`);
  const csrf = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const headers = { 'X-CSRF-Token': csrf, Origin: live.server.url };
  if (email) {
    const res = await context.request.post(`${live.server.url}/rest/v1/auth/login`, {
      headers,
      data: { email, password: DEMO_PASSWORD },
    });
    expect(res.status()).toBe(200);
  } else {
    const { challenge, difficulty } = (await issued.json()).data as { challenge: string; difficulty: number };
    const { nonce, seccode } = await solveChallenge(challenge, difficulty);
    const res = await context.request.post(`${live.server.url}/rest/v1/auth/register`, {
      headers,
      data: {
        email: freshEmail(),
        password: STRONG,
        geetest_challenge: challenge,
        geetest_validate: nonce,
        geetest_seccode: seccode,
      },
    });
    expect(res.status()).toBe(201);
    await context.clearCookies({ name: 'welcome' });
  }
  const page = await context.newPage();
  await page.goto(live.server.url + path);
  return page;
}

async function isVendor(page: Page): Promise<boolean | undefined> {
  const res = await page.context().request.get(`${live.server.url}/rest/v1/users/current_user`);
  return ((await res.json()) as { data: { isVendor?: boolean } }).data.isVendor;
}

const close = (page: Page) => page.context().close();
const dialogOf = (page: Page) => page.getByRole('dialog', { name: 'Vendor terms' });
const statusText = (page: Page) => page.locator('#vendor-terms-status [role="status"]').textContent();

describe.each([375, 1440])('the vendor terms dialog at %i px', (width) => {
  it('opens from the calls to action for a signed-in person; accept and decline are saved', async () => {
    const page = await signedIn('/vendors', { width });
    expect(await isVendor(page)).toBe(false);
    const dialog = dialogOf(page);
    expect(await dialog.isVisible()).toBe(false);

    await page.locator('[data-cta="vendors-hero-register"]').click();
    await dialog.waitFor({ state: 'visible' });
    expect(page.url()).toBe(`${live.server.url}/vendors`);
    expect(await dialog.getByRole('listitem').count()).toBe(10);
    expect(await dialog.getByRole('link', { name: 'fees page' }).getAttribute('href')).toBe('/fees');
    await dialog.getByRole('button', { name: 'Accept the terms' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => statusText(page)).toBe('You are a vendor now — publish your first offer.');
    expect(await page.locator('#vendor-terms-status').getAttribute('data-state')).toBe('success');
    expect(await isVendor(page)).toBe(true);

    // The closing call to action opens it too; Escape closes it without a change.
    await page.locator('[data-cta="vendors-cta-register"]').click();
    await dialog.waitFor({ state: 'visible' });
    expect(await page.locator('#vendor-terms-status').isVisible()).toBe(false);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await isVendor(page)).toBe(true);

    await page.locator('[data-cta="vendors-cta-register"]').click();
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(() => statusText(page))
      .toBe('You declined the vendor terms. Your account is not a vendor account.');
    expect(await isVendor(page)).toBe(false);
    await close(page);
  });

  it('closes with the error for a suspended account', async () => {
    const page = await signedIn('/vendors', { width, email: SUSPENDED });
    await page.locator('[data-cta="vendors-hero-register"]').click();
    const dialog = dialogOf(page);
    await dialog.getByRole('button', { name: 'Accept the terms' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => statusText(page)).toBe('This account cannot become a vendor account now. Contact support.');
    expect(await page.locator('#vendor-terms-status').getAttribute('data-state')).toBe('error');
    expect(await isVendor(page)).toBe(false);
    await close(page);
  });

  it('sends visitors to the vendor registration', async () => {
    const context = await live.browser.newContext({ viewport: { width, height: 900 } });
    await context.addCookies([{ name: 'cookie_settings', value: '11111111', url: live.server.url }]);
    const page = await context.newPage();
    await page.goto(`${live.server.url}/vendors`);
    await page.locator('[data-cta="vendors-hero-register"]').click();
    await page.waitForURL(`${live.server.url}/register?vendor=1&back=%2Fvendor-terms`);
    expect(await page.locator('input[name="vendors_terms_accepted"]').isVisible()).toBe(true);
    expect(await dialogOf(page).count()).toBe(0);
    await context.close();
  });
});

describe('the /vendor-terms page without JavaScript', () => {
  it('is reached from the vendors page link, and accepts and declines', async () => {
    const page = await signedIn('/vendors', { javaScriptEnabled: false });
    // The plain link: registration sends a signed-in person on to the terms page.
    await page.locator('[data-cta="vendors-hero-register"]').click();
    await page.waitForURL(`${live.server.url}/vendor-terms`);
    expect(await page.locator('h1').textContent()).toBe('Vendor terms');
    expect(await page.locator('[data-vendor-state]').getAttribute('data-vendor-state')).toBe('not-vendor');
    expect(await page.locator('.vendor-terms li').count()).toBe(10);

    await page.getByRole('button', { name: 'Accept the terms' }).click();
    await page.waitForURL(`${live.server.url}/vendor-terms?done=accepted`);
    expect(await page.locator('[data-vendor-terms-notice]').textContent()).toBe(
      'You are a vendor now — publish your first offer.',
    );
    expect(await page.locator('[data-vendor-state]').getAttribute('data-vendor-state')).toBe('vendor');
    expect(await isVendor(page)).toBe(true);

    await page.getByRole('button', { name: 'Decline' }).click();
    await page.waitForURL(`${live.server.url}/vendor-terms?done=declined`);
    expect(await page.locator('[data-vendor-terms-notice]').textContent()).toBe(
      'You declined the vendor terms. Your account is not a vendor account.',
    );
    expect(await page.locator('[data-vendor-state]').getAttribute('data-vendor-state')).toBe('not-vendor');
    expect(await isVendor(page)).toBe(false);
    await close(page);
  });

  it('shows a suspended account the error, in the page language', async () => {
    const page = await signedIn('/de/vendor-terms', { javaScriptEnabled: false, email: SUSPENDED });
    const answer = page.waitForResponse((r) => r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Bedingungen akzeptieren' }).click();
    expect((await answer).status()).toBe(403);
    await page.waitForLoadState();
    expect(await page.locator('[data-vendor-terms-error]').textContent()).toBe(
      'Dieses Konto kann derzeit kein Händlerkonto werden. Wende dich an den Support.',
    );
    expect(await page.locator('[data-vendor-state]').getAttribute('data-vendor-state')).toBe('not-vendor');
    expect(await isVendor(page)).toBe(false);
    await close(page);
  });

  it('sends a signed-out reader to sign in, and back', async () => {
    const context = await live.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${live.server.url}/de/vendor-terms`);
    await page.waitForURL(`${live.server.url}/de/login?back=%2Fde%2Fvendor-terms`);
    await context.close();
  });
});

describe('accessibility (axe-core)', () => {
  const violations = seriousViolations;

  it.each(['light', 'dark'] as const)('the page and the open dialog pass in the %s theme', async (scheme) => {
    // bypassCSP: axe is injected as an inline script, which the pages' policy rightly refuses.
    const page = await signedIn('/vendor-terms?done=accepted', { colorScheme: scheme, bypassCSP: true });
    expect(await violations(page)).toEqual([]);

    await page.goto(`${live.server.url}/vendors`);
    await page.locator('[data-cta="vendors-hero-register"]').click();
    await dialogOf(page).waitFor({ state: 'visible' });
    expect(await violations(page, '#vendor-terms-dialog')).toEqual([]);
    await close(page);
  });
});
