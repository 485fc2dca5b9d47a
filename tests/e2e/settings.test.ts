import { generateSync } from 'otplib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { solveChallenge } from '../../src/lib/shared/proof-of-work.ts';
import { serverAndBrowser } from './harness.ts';

// The account settings screen as a person uses it in Chromium: signed in through the sign-in
// form, the profile saved and read back, another device signed out, two-factor set up with a code
// computed from the key on the page, and the password changed without losing the session.

const live = serverAndBrowser();
const DEMO_PASSWORD = 'Coinfair-demo-2026!';
const NEW_PASSWORD = 'Lantern-Orchard-58?';

async function newContext(browser: Browser, width: number): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await context.addCookies([{ name: 'cookie_settings', value: '11111111', url: live.server.url }]);
  return context;
}

/** Waits until the island has hydrated: Astro drops `ssr` from the island once it runs. */
async function hydrated(page: Page) {
  await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
}

/** A second browser of the same person, signed in through the API as the sign-in script does. */
async function signInElsewhere(context: BrowserContext, email: string) {
  await context.request.get(`${live.server.url}/rest/v1/users/current_user`);
  const csrf = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await context.request.post(`${live.server.url}/rest/v1/auth/login`, {
    headers: { 'X-CSRF-Token': csrf, Origin: live.server.url },
    data: { email, password: DEMO_PASSWORD },
  });
  expect(res.status()).toBe(200);
}

/** What a sign-in with `password` answers: the error code, or 'OK'. */
async function signInResult(email: string, password: string): Promise<string> {
  const context = await live.browser.newContext();
  await context.request.get(`${live.server.url}/rest/v1/users/current_user`);
  const csrf = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await context.request.post(`${live.server.url}/rest/v1/auth/login`, {
    headers: { 'X-CSRF-Token': csrf, Origin: live.server.url },
    data: { email, password },
  });
  const body = (await res.json()) as { errors?: { code: string }[] };
  await context.close();
  return res.ok() ? 'OK' : (body.errors?.[0]?.code ?? String(res.status()));
}

const section = (page: Page, id: string) => page.locator(`section#${id}`);
/** The name and the photo in the header's two account slots (bar and menu). */
const headerNames = (page: Page) => page.locator('header [data-account-name]').allTextContents();
const headerAvatars = (page: Page) =>
  page
    .locator('header [data-account-avatar]')
    .evaluateAll((slots) => slots.map((s) => s.querySelector('img')?.getAttribute('src') ?? null));

describe.each([
  [375, 'buyer@example.com'],
  [1440, 'affiliate@example.com'],
])('settings at %i px', (width, email) => {
  it('edits the profile, signs out other devices, turns on two-factor and changes the password', async () => {
    const context = await newContext(live.browser, width);
    const page = await context.newPage();
    const violations: string[] = [];
    await page.exposeFunction('__cspViolation', (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { __cspViolation(t: string): void }).__cspViolation(
          `${e.violatedDirective} ${e.blockedURI}`,
        ),
      );
    });

    // Signed out, the page sends the person to sign in and back.
    await page.goto(`${live.server.url}/settings`);
    await page.waitForURL(`${live.server.url}/login?back=%2Fsettings`);
    await page.locator('#login-email').fill(email);
    await page.locator('#login-password').fill(DEMO_PASSWORD);
    await page.locator('form[data-auth-form] button[type="submit"]').click();
    await page.waitForURL(`${live.server.url}/settings`);
    await hydrated(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Account settings');
    const nav = page.getByRole('navigation', { name: 'Settings sections' });
    expect(await nav.getByRole('link').allTextContents()).toEqual([
      'Profile',
      'Phone',
      'Telegram',
      'Password',
      'Two-factor',
      'Devices',
      'API keys',
      'Export',
      'Cookies',
    ]);

    // Profile: a bio with a phone number is refused on the field; a clean one is saved.
    const profile = section(page, 'profile');
    const bio = profile.getByLabel('About you');
    await bio.fill('Fast trades, call me on +44 7700 900123 any time.');
    await expect.poll(() => profile.getByText('49/500 characters, 1/10 lines').count()).toBe(1);
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await expect.poll(() => page.locator('#settings-bio-error').textContent()).toContain('Leave contact details out');
    expect(await bio.getAttribute('aria-invalid')).toBe('true');

    const cleanBio = 'Fast and friendly.\nOnline most evenings.';
    await bio.fill(cleanBio);
    await profile.getByLabel('Trade message e-mails, minutes apart').fill('25');
    await profile.getByLabel('Text me when someone starts a trade with me').check();
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await profile.getByRole('status').filter({ hasText: 'Your profile is saved.' }).waitFor();
    expect(await page.locator('#settings-bio-error').textContent()).toBe('');

    await page.reload();
    await hydrated(page);
    expect(await bio.inputValue()).toBe(cleanBio);
    expect(await profile.getByLabel('Trade message e-mails, minutes apart').inputValue()).toBe('25');
    expect(await profile.getByLabel('Text me when someone starts a trade with me').isChecked()).toBe(true);
    expect(await profile.getByLabel('Play a sound for new notifications').isChecked()).toBe(true);

    // Devices: another browser of the same person appears and is signed out from here.
    const other = await newContext(live.browser, width);
    await signInElsewhere(other, email);
    await page.reload();
    await hydrated(page);
    const devices = section(page, 'devices');
    const rows = devices.getByRole('listitem');
    expect(await rows.count()).toBe(2);
    expect(await rows.filter({ hasText: 'This device' }).count()).toBe(1);
    await devices.getByRole('button', { name: 'Sign out all other devices' }).click();
    await devices.getByRole('status').filter({ hasText: 'Other devices signed out: 1.' }).waitFor();
    expect(await rows.count()).toBe(1);
    expect((await other.request.get(`${live.server.url}/rest/v1/users/me`)).status()).toBe(401);
    await other.close();

    // Two-factor: the key on the page gives the code an authenticator app would show.
    const twoFactor = section(page, 'two-factor');
    await twoFactor.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const secret = ((await page.locator('#two-factor-secret').textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await twoFactor.getByRole('img', { name: 'QR code for your authenticator app' }).isVisible()).toBe(true);
    await twoFactor.getByLabel('Enter the 6-digit code the app shows').fill(generateSync({ secret }));
    await twoFactor.getByRole('button', { name: 'Turn on' }).click();
    const codes = twoFactor.locator('[data-recovery-codes] li');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    const recoveryCodes = await codes.allTextContents();
    expect(recoveryCodes.every((code) => /^[a-z0-9]{5}-[a-z0-9]{5}$/.test(code))).toBe(true);
    await twoFactor.getByRole('button', { name: 'I have saved them' }).click();
    await twoFactor.getByText('Two-factor authentication is on.', { exact: true }).waitFor();
    expect(await twoFactor.getByText('Recovery codes left: 10.').count()).toBe(1);

    // Password: with two-factor on sign-in, the form asks for a code; a recovery code serves.
    const password = section(page, 'password');
    await password.getByLabel('Current password').fill(DEMO_PASSWORD);
    await password.getByLabel('New password').fill(NEW_PASSWORD);
    await expect.poll(() => password.locator('.checks li.met').count()).toBe(5);
    await password.getByLabel('Authenticator code').fill(recoveryCodes[0] ?? '');
    await password.getByRole('button', { name: 'Change password' }).click();
    await password.getByRole('status').filter({ hasText: 'Your password is changed.' }).waitFor();
    expect(await password.getByLabel('Current password').inputValue()).toBe('');

    // The session was renewed, not lost: the page still loads signed in.
    await page.reload();
    await hydrated(page);
    expect(page.url()).toBe(`${live.server.url}/settings`);
    expect(await section(page, 'devices').getByRole('listitem').count()).toBe(1);
    // The old password is gone; the new one passes and asks for the second factor.
    expect(await signInResult(email, DEMO_PASSWORD)).toBe('INVALID_CREDENTIALS');
    expect(await signInResult(email, NEW_PASSWORD)).toBe('TWO_FACTOR_REQUIRED');

    expect(violations).toEqual([]);
    await context.close();
  });
});

describe('settings page', () => {
  it('warns about a leaked password at the top and links to the password form', async () => {
    const context = await newContext(live.browser, 1440);
    await signInElsewhere(context, 'merchant@example.com');
    const page = await context.newPage();
    await page.goto(`${live.server.url}/settings?compromised=1`);
    const warning = page.getByRole('alert').filter({ hasText: 'Change your password now.' });
    await warning.waitFor();
    expect(await warning.getByRole('link', { name: 'Change password' }).getAttribute('href')).toBe('#password');
    // Rendered by the server: the warning is there before any script runs.
    const html = await (await context.request.get(`${live.server.url}/settings?compromised=1`)).text();
    expect(html).toContain('Change your password now.');
    await context.close();
  });

  it('checks the photo type before sending, then uploads a PNG as the new avatar', async () => {
    const context = await newContext(live.browser, 375);
    await signInElsewhere(context, 'kiosk@example.com');
    const page = await context.newPage();
    await page.goto(`${live.server.url}/settings`);
    await hydrated(page);
    const input = section(page, 'profile').locator('input[type="file"]');

    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect.poll(() => page.locator('#avatar-error').textContent()).toBe('Choose a JPEG or PNG image.');

    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#0b7a4b' } })
      .png()
      .toBuffer();
    await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await section(page, 'profile').getByRole('status').filter({ hasText: 'Your profile photo is updated.' }).waitFor();
    const src = await page.getByRole('img', { name: 'Profile photo of kiosk' }).getAttribute('src');
    expect(src).toMatch(/^\/uploads\/avatars\/[0-9a-f]{32}\.jpg$/);
    expect((await context.request.get(`${live.server.url}${src}`)).headers()['content-type']).toBe('image/jpeg');
    // The header shows the new photo without a reload (src/lib/account-change.ts).
    await expect.poll(() => headerAvatars(page)).toEqual([src, src]);
    await context.close();
  });

  it('shows a new username in the header without a reload, in this tab and in another', async () => {
    const context = await newContext(live.browser, 1440);
    await signInElsewhere(context, 'lagosbtc@vendors.example.com');
    const page = await context.newPage();
    await page.goto(`${live.server.url}/settings`);
    await hydrated(page);
    const other = await context.newPage();
    await other.goto(`${live.server.url}/fees`);
    await expect.poll(() => headerNames(page)).toEqual(['LagosBTC', 'LagosBTC']);
    await expect.poll(() => headerNames(other)).toEqual(['LagosBTC', 'LagosBTC']);
    // A reload would forget this.
    await page.evaluate(() => Object.assign(window, { stillHere: true }));

    await section(page, 'profile').locator('#settings-username').fill('LagosBTC2');
    await section(page, 'profile').getByRole('button', { name: 'Change username' }).click();
    await section(page, 'profile').getByRole('button', { name: 'Yes, change it' }).click();
    await section(page, 'profile').getByText('Your username is changed.').waitFor();
    await expect.poll(() => headerNames(page)).toEqual(['LagosBTC2', 'LagosBTC2']);
    await expect.poll(() => headerNames(other)).toEqual(['LagosBTC2', 'LagosBTC2']);
    expect(await page.evaluate(() => (window as { stillHere?: boolean }).stillHere)).toBe(true);
    await context.close();
  });

  it('asks a new account to confirm its e-mail address and sends the link again', async () => {
    const context = await newContext(live.browser, 1440);
    await context.request.get(`${live.server.url}/rest/v1/users/current_user`);
    const csrf = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
    const issued = await context.request.get(`${live.server.url}/rest/v1/auth/challenge`);
    const { challenge, difficulty } = (await issued.json()).data as { challenge: string; difficulty: number };
    const { nonce, seccode } = await solveChallenge(challenge, difficulty);
    const email = `settings-${process.pid}-${Date.now()}@example.com`;
    const registered = await context.request.post(`${live.server.url}/rest/v1/auth/register`, {
      headers: { 'X-CSRF-Token': csrf, Origin: live.server.url },
      data: {
        email,
        password: NEW_PASSWORD,
        geetest_challenge: challenge,
        geetest_validate: nonce,
        geetest_seccode: seccode,
      },
    });
    expect(registered.status()).toBe(201);
    // The welcome popup of new accounts (site.ts) is another page's business.
    await context.clearCookies({ name: 'welcome' });

    const page = await context.newPage();
    await page.goto(`${live.server.url}/settings`);
    await hydrated(page);
    await page.getByText('Confirm your e-mail address.').waitFor();
    await page.getByRole('button', { name: 'Resend the confirmation e-mail' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `A new confirmation e-mail is on its way to ${email}.` })
      .waitFor();
    await context.close();
  });
});
