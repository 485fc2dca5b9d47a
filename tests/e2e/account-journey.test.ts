import { generateSync } from 'otplib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverAndBrowser } from './harness.ts';

// One person's first day, end to end in Chromium with the proof-of-work check on: register,
// confirm the e-mail from the outbox, turn on two-factor, sign out, sign in again with a code
// from the authenticator app, change a setting, sign out from the header.

const live = serverAndBrowser();
const PASSWORD = 'Tidal-Meadow-73!';

async function hydrated(page: Page) {
  await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
}

/** The header's sign-out: in the bar on wide screens, in the menu panel on narrow ones. */
async function signOutFromHeader(page: Page) {
  const toggle = page.locator('.menu-toggle');
  if (await toggle.isVisible()) await toggle.click();
  await page.locator('header a[data-logout]').click();
}

describe.each([375, 1440])('a new account at %i px', (width) => {
  it('registers, confirms the e-mail, signs in with two-factor, changes a setting and signs out', async () => {
    const context = await live.browser.newContext({ viewport: { width, height: 900 } });
    await context.addCookies([{ name: 'cookie_settings', value: '11111111', url: live.server.url }]);
    const page = await context.newPage();
    const email = `journey-${width}-${Date.now()}@example.com`;

    // Register: the helper shows the checks, the browser solves the security check.
    await page.goto(`${live.server.url}/register`);
    await page.locator('#register-email').fill(email);
    await page.locator('#register-password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${live.server.url}/`);
    const welcome = page.getByRole('dialog', { name: 'Welcome to Coinfair' });
    await expect.poll(() => welcome.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => welcome.isVisible()).toBe(false);

    // Confirm the address through the link in the mail.
    const mail = await live.server.latestMail(email);
    const link = /https?:\/\/\S+\/auth\/verify-email\?token=[\w-]+/.exec(mail?.text ?? '')?.[0];
    expect(link).toBeDefined();
    await page.goto(new URL(new URL(link ?? '').pathname + new URL(link ?? '').search, live.server.url).href);
    await expect
      .poll(() => page.locator('#email-notice [role="status"]').textContent())
      .toBe('Your e-mail address is confirmed.');

    // Two-factor from the settings screen, with the key the page shows.
    await page.goto(`${live.server.url}/settings`);
    await hydrated(page);
    expect(await page.getByText('Confirm your e-mail address', { exact: false }).count()).toBe(0);
    const twoFactor = page.locator('section#two-factor');
    await twoFactor.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const secret = ((await page.locator('#two-factor-secret').textContent()) ?? '').replace(/\s/g, '');
    await twoFactor.getByLabel('Enter the 6-digit code the app shows').fill(generateSync({ secret }));
    await twoFactor.getByRole('button', { name: 'Turn on' }).click();
    await twoFactor.getByRole('button', { name: 'I have saved them' }).click();
    await twoFactor.getByText('Two-factor authentication is on.', { exact: true }).waitFor();

    await signOutFromHeader(page);
    await page.waitForURL(`${live.server.url}/login?signedOut=1`);

    // Sign in again: password first, then the app's next code (the current one is used up).
    await page.locator('#login-email').fill(email);
    await page.locator('#login-password').fill(PASSWORD);
    await page.locator('form[data-auth-form] button[type="submit"]').click();
    await page.locator('#login-code').waitFor({ state: 'visible' });
    const nextStep = Math.floor(Date.now() / 1000) + 30;
    await page.locator('#login-code').fill(generateSync({ secret, epoch: nextStep }));
    await page.locator('form[data-auth-form] button[type="submit"]').click();
    await page.waitForURL(`${live.server.url}/`);
    await expect.poll(() => page.locator('html').getAttribute('class')).toContain('signed-in');

    // Change a setting and see it kept.
    await page.goto(`${live.server.url}/settings`);
    await hydrated(page);
    const profile = page.locator('section#profile');
    await profile.getByLabel('Trade message e-mails, minutes apart').fill('45');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await profile.getByRole('status').filter({ hasText: 'Your profile is saved.' }).waitFor();
    await page.reload();
    await hydrated(page);
    expect(await profile.getByLabel('Trade message e-mails, minutes apart').inputValue()).toBe('45');

    // Sign out: the session is gone on the server, the settings page sends to sign-in.
    await signOutFromHeader(page);
    await page.waitForURL(`${live.server.url}/login?signedOut=1`);
    expect((await context.cookies()).some((c) => c.name === 'session')).toBe(false);
    await page.goto(`${live.server.url}/settings`);
    await page.waitForURL(`${live.server.url}/login?back=%2Fsettings`);
    await context.close();
  });
});
