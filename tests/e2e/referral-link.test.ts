import { describe, expect, it } from 'vitest';
import { cookieValue, openConsented, serverAndBrowser } from './harness.ts';

// A referral link as a newcomer follows it (issue 20): `/?ref=<code>` on any page is remembered
// for 30 days, so signing up a few pages later still binds them to the affiliate; a code the
// server refuses is forgotten, and the next try signs up without it.

const live = serverAndBrowser();
const STRONG = 'Quiet-Harbour-42!';
let counter = 0;
const freshEmail = () => `referral-link-${process.pid}-${Date.now()}-${counter++}@example.com`;

const affiliate = () =>
  live.server.row<{ id: number; code: string }>(
    'SELECT id, referral_code AS code FROM users WHERE email = ?',
    'affiliate@example.com',
  ) as { id: number; code: string };
const referrerOf = (email: string) =>
  live.server.row<{ referredById: number | null }>(
    'SELECT referred_by_id AS referredById FROM users WHERE email = ?',
    email,
  )?.referredById;

describe('a referral link', () => {
  it('is remembered while the newcomer browses, and binds them when they sign up', async () => {
    const { id, code } = affiliate();
    const page = await openConsented(live, `/?ref=${code.toUpperCase()}`);
    await expect.poll(() => cookieValue(page, 'ref')).toBe(code);
    const cookie = (await page.context().cookies()).find((c) => c.name === 'ref');
    // 30 days, first-party, sent on top-level navigations only.
    expect(Math.round(((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000)).toBe(30);
    expect(cookie?.sameSite).toBe('Lax');
    await page.goto(`${live.server.url}/fees`);
    await page.goto(`${live.server.url}/register`);
    expect(await page.locator('input[name="referral_code"]').inputValue()).toBe(code);
    const email = freshEmail();
    await page.locator('#register-email').fill(email);
    await page.locator('#register-password').fill(STRONG);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${live.server.url}/`);
    expect(referrerOf(email)).toBe(id);
    await page.context().close();
  });

  it('that the server refuses is forgotten: the message says so and the next try signs up', async () => {
    const page = await openConsented(live, '/?ref=nobody4242');
    await expect.poll(() => cookieValue(page, 'ref')).toBe('nobody4242');
    await page.goto(`${live.server.url}/register`);
    const email = freshEmail();
    await page.locator('#register-email').fill(email);
    await page.locator('#register-password').fill(STRONG);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.locator('[data-form-error]').textContent()).toMatch(/referral link/i);
    await expect.poll(() => cookieValue(page, 'ref')).toBeUndefined();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${live.server.url}/`);
    expect(referrerOf(email)).toBeNull();
    await page.context().close();
  });

  it('is not written when the visitor turned the account cookies off', async () => {
    const context = await live.browser.newContext();
    await context.addCookies([{ name: 'cookie_settings', value: '11110111', url: live.server.url }]);
    const page = await context.newPage();
    await page.goto(`${live.server.url}/?ref=${affiliate().code}`);
    await page.waitForLoadState('load');
    expect(await cookieValue(page, 'ref')).toBeUndefined();
    await context.close();
  });
});
