import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cookieValue, openConsented, registerThroughApi, serverAndBrowser } from './harness.ts';

// Sign-in and registration as people meet them in Chromium, with JavaScript (live password
// helper, proof of work solved in the page, errors in place) and without (the forms post to the
// server-rendered pages, which call the same API). The proof-of-work challenge stays on.

const live = serverAndBrowser();
const STRONG = 'Quiet-Harbour-42!';
const de = JSON.parse(readFileSync(new URL('../../locales/de.json', import.meta.url), 'utf8')) as Record<
  string,
  string
>;

let counter = 0;
const freshEmail = () => `auth-page-${process.pid}-${Date.now()}-${counter++}@example.com`;

const open = (path: string, options?: Parameters<typeof openConsented>[2]) => openConsented(live, path, options);

describe.each([375, 1440])('account pages at %i px', (width) => {
  it('registers with JavaScript: the helper ticks the five checks, errors show in place, the header signs in', async () => {
    const page = await open('/register', { width });
    const password = page.locator('#register-password');
    await password.fill('short');
    await expect.poll(() => page.locator('.checks li.met').count()).toBe(1); // lower case only
    await page.locator('#register-email').fill('not-an-address');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect
      .poll(() => page.locator('[data-error-for="email"]').textContent())
      .toBe('Enter a valid e-mail address.');
    await expect.poll(() => page.locator('#register-email').getAttribute('aria-invalid')).toBe('true');

    const email = freshEmail();
    await page.locator('#register-email').fill(email);
    await password.fill(STRONG);
    await expect.poll(() => page.locator('.checks li.met').count()).toBe(5);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${live.server.url}/`);
    expect(await cookieValue(page, 'session')).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    // The account menu replaces the sign-in buttons and names the generated username.
    await expect
      .poll(() => page.locator('[data-account-name]').first().textContent())
      .toMatch(
        new RegExp(
          `^${email
            .split('@')[0]
            ?.replace(/[^A-Za-z0-9]/g, '')
            .slice(0, 14)}\\d+$`,
        ),
      );
    await page.context().close();
  });

  it('signs in and out without JavaScript, with errors in the page language', async () => {
    const email = freshEmail();
    const setup = await open('/', { width });
    await registerThroughApi(live, setup, email, STRONG);
    await setup.context().close();

    const page = await open('/de/login', { width, javaScriptEnabled: false });
    await page.locator('#login-email').fill(email);
    await page.locator('#login-password').fill('Wrong-Password-1!');
    await page.locator('form[data-auth-form] button[type="submit"]').click();
    await page.waitForLoadState();
    expect(await page.locator('[data-error-for="password"]').textContent()).toBe(de['errors.invalid_credentials']);
    expect(await page.locator('#login-email').inputValue()).toBe(email);

    await page.locator('#login-password').fill(STRONG);
    await page.locator('form[data-auth-form] button[type="submit"]').click();
    await page.waitForURL(/\/de\/?$/);
    expect(await cookieValue(page, 'session')).toBeTruthy();

    await page.goto(`${live.server.url}/de/logout`);
    await page.locator('main form button[type="submit"]').click();
    await page.waitForURL(/\/de\/login\?signedOut=1$/);
    expect(await page.locator('.alert-success').textContent()).toBe(de['auth.login.signedOut']);
    expect(await cookieValue(page, 'session')).toBeFalsy();
    await page.context().close();
  });
});

describe('security checks', () => {
  it('registers without JavaScript once the challenge has aged, and refuses a hasty submit', async () => {
    const page = await open('/register', { javaScriptEnabled: false });
    await page.locator('#register-email').fill(freshEmail());
    await page.locator('#register-password').fill(STRONG);
    await page.locator('form[data-auth-form] button[type="submit"]').click();
    await page.waitForLoadState();
    expect(await page.locator('[data-form-error]').textContent()).toBe(
      'The security check failed or expired. Please try again.',
    );

    // The re-rendered form carries a new challenge; a person takes longer than 3 s to retype.
    await page.locator('#register-password').fill(STRONG);
    await page.waitForTimeout(3_100);
    await page.locator('form[data-auth-form] button[type="submit"]').click();
    await page.waitForURL(`${live.server.url}/`);
    expect(await cookieValue(page, 'session')).toBeTruthy();
    await page.context().close();
  });

  it('asks for the second factor after the right password, with JavaScript and without', async () => {
    const email = freshEmail();
    const setup = await open('/');
    await registerThroughApi(live, setup, email, STRONG);
    const headers = { 'X-CSRF-Token': (await cookieValue(setup, 'XSRF-TOKEN')) ?? '', Origin: live.server.url };
    const started = await setup.request.post(`${live.server.url}/rest/v1/users/2fa/setup`, { headers });
    const { secret } = (await started.json()).data as { secret: string };
    const { generateSync } = await import('otplib');
    const confirmed = await setup.request.post(`${live.server.url}/rest/v1/users/2fa/confirm`, {
      headers: { 'X-CSRF-Token': (await cookieValue(setup, 'XSRF-TOKEN')) ?? '', Origin: live.server.url },
      data: { code: generateSync({ secret }) },
    });
    const { recoveryCodes } = (await confirmed.json()).data as { recoveryCodes: string[] };
    await setup.context().close();

    for (const javaScriptEnabled of [true, false]) {
      const page = await open('/login', { javaScriptEnabled });
      const codeField = page.locator('#login-code');
      expect(await codeField.isVisible()).toBe(false);
      await page.locator('#login-email').fill(email);
      await page.locator('#login-password').fill(STRONG);
      await page.locator('form[data-auth-form] button[type="submit"]').click();
      await codeField.waitFor({ state: 'visible' });
      expect(await page.locator('[data-error-for="code"]').textContent()).toBe(
        'Enter the code from your authenticator app.',
      );
      await codeField.fill(recoveryCodes[javaScriptEnabled ? 0 : 1] ?? '');
      await page.locator('form[data-auth-form] button[type="submit"]').click();
      await page.waitForURL(`${live.server.url}/`);
      expect(await cookieValue(page, 'session')).toBeTruthy();
      await page.context().close();
    }
  });
});
