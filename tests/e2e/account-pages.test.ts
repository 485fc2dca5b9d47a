import { generateSync } from 'otplib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  cookieValue,
  openConsented,
  postFromPage,
  registerThroughApi,
  seriousViolations,
  serverAndBrowser,
  solvedChallenge,
} from './harness.ts';

// Password reset, device review and the welcome popup as people meet them in Chromium, with
// JavaScript and without. Mails are read from the server's outbox; the proof-of-work challenge
// stays on (the no-JS forms wait the 3 s it asks of them).

const live = serverAndBrowser();
const STRONG = 'Quiet-Harbour-42!';
const NEW_PASSWORD = 'Lantern-Meadow-77#';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

let counter = 0;
const freshEmail = () => `account-page-${process.pid}-${Date.now()}-${counter++}@example.com`;

const open = (path: string, options?: Parameters<typeof openConsented>[2]) => openConsented(live, path, options);

const close = (page: Page) => page.context().close();

const post = (page: Page, path: string, data: Record<string, unknown>) => postFromPage(live, page, path, data);
const solved = (page: Page) => solvedChallenge(live, page);

/** An account made through the API in a context of its own; its first device is trusted. */
async function registerElsewhere(email: string): Promise<void> {
  const page = await open('/');
  await registerThroughApi(live, page, email, STRONG);
  await close(page);
}

/** A sign-in from another browser (user agent): a new device, whose review link is mailed. */
async function signInElsewhere(email: string, userAgent: string): Promise<{ page: Page; token: string }> {
  const page = await open('/login', { userAgent });
  const res = await post(page, '/rest/v1/auth/login', { email, password: STRONG });
  expect(res.status()).toBe(200);
  const text = await mailText(email, 'New sign-in to your Coinfair account');
  const token = /\/review-device\?token=([0-9a-f]{64})/.exec(text)?.[1];
  if (!token) throw new Error(`no review link in: ${text}`);
  return { page, token };
}

/** The newest mail to `email` with `subject` (mails may leave just after the answer). */
async function mailText(email: string, subject: string): Promise<string> {
  await expect.poll(async () => (await live.server.latestMail(email))?.subject, { timeout: 5_000 }).toBe(subject);
  return (await live.server.latestMail(email))?.text ?? '';
}

async function resetToken(email: string): Promise<string> {
  const text = await mailText(email, 'Reset your Coinfair password');
  const token = /\/reset-password\?token=([\w-]{43})/.exec(text)?.[1];
  if (!token) throw new Error(`no reset link in: ${text}`);
  return token;
}

async function isSignedIn(page: Page): Promise<boolean> {
  const res = await page.request.get(`${live.server.url}/rest/v1/users/current_user`);
  return Boolean(((await res.json()) as { data?: { isLogged?: boolean } }).data?.isLogged);
}

const submit = (page: Page) => page.locator('form[data-auth-form] button[type="submit"]').click();

describe.each([375, 1440])('at %i px', (width) => {
  it('resets a forgotten password with JavaScript: neutral confirmation, link, live helper, sign-in', async () => {
    const email = freshEmail();
    await registerElsewhere(email);

    const page = await open('/forgot-password', { width });
    await page.locator('#forgot-email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const sent = page.locator('[data-forgot-sent]');
    await expect.poll(() => sent.isVisible()).toBe(true);
    expect(await sent.textContent()).toContain(`If an account exists for ${email}`);
    expect(await page.locator('form[data-auth-form]').isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-forgot-sent'))).toBe(true);

    const token = await resetToken(email);
    await page.goto(`${live.server.url}/reset-password?token=${token}`);
    expect(await page.locator('h1').textContent()).toBe('Choose a new password');
    expect(await page.locator('.auth-lead').textContent()).toContain('a•••@example.com');
    expect(await page.locator('[data-code-field]').isVisible()).toBe(false);

    const password = page.locator('#reset-password');
    await password.fill('weak');
    await expect.poll(() => page.locator('.checks li.met').count()).toBe(1);
    await submit(page);
    await expect.poll(() => page.locator('[data-error-for="password"]').textContent()).not.toBe('');
    expect(await password.getAttribute('aria-invalid')).toBe('true');

    await password.fill(NEW_PASSWORD);
    await expect.poll(() => page.locator('.checks li.met').count()).toBe(5);
    await submit(page);
    await page.waitForURL(`${live.server.url}/login?reset=1`);
    expect(await page.locator('.alert-success').textContent()).toBe(
      'Your password has been changed. Log in with your new password.',
    );

    await page.locator('#login-email').fill(email);
    await page.locator('#login-password').fill(NEW_PASSWORD);
    await submit(page);
    await page.waitForURL(`${live.server.url}/`);
    expect(await isSignedIn(page)).toBe(true);

    // The link worked once.
    const again = await page.goto(`${live.server.url}/reset-password?token=${token}`);
    expect(again?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('This link no longer works');
    expect(await page.locator('[data-reset-invalid] a').getAttribute('href')).toBe('/forgot-password');
    await close(page);
  });

  it('resets a password without JavaScript, in German, and signs in without JavaScript', async () => {
    const email = freshEmail();
    await registerElsewhere(email);

    const page = await open('/de/forgot-password', { width, javaScriptEnabled: false });
    await page.locator('#forgot-email').fill(email);
    // The no-JS security check wants the challenge a few seconds old.
    await page.waitForTimeout(3_100);
    await submit(page);
    await page.waitForLoadState();
    expect(await page.locator('[data-forgot-sent]').isVisible()).toBe(true);
    expect(await page.locator('[data-sent-email]').textContent()).toBe(email);

    const token = await resetToken(email);
    await page.goto(`${live.server.url}/de/reset-password?token=${token}`);
    await page.locator('#reset-password').fill('alllowercase');
    await submit(page);
    await page.waitForLoadState();
    expect(await page.locator('[data-error-for="password"]').textContent()).not.toBe('');
    expect(await page.locator('#reset-password').getAttribute('aria-invalid')).toBe('true');

    await page.locator('#reset-password').fill(NEW_PASSWORD);
    await submit(page);
    await page.waitForURL(`${live.server.url}/de/login?reset=1`);
    expect(await page.locator('.alert-success').isVisible()).toBe(true);

    await page.locator('#login-email').fill(email);
    await page.locator('#login-password').fill(NEW_PASSWORD);
    await submit(page);
    await page.waitForURL(`${live.server.url}/de/`);
    expect(await isSignedIn(page)).toBe(true);
    await close(page);
  });

  it('confirms a new device with JavaScript, and the link then shows its dead state', async () => {
    const email = freshEmail();
    await registerElsewhere(email);
    const elsewhere = await signInElsewhere(email, FIREFOX);

    const page = await open(`/review-device?token=${elsewhere.token}`, { width });
    expect(await page.locator('h1').textContent()).toBe('Was this you?');
    const rows = await page
      .locator('[data-device] .row')
      .evaluateAll((els) =>
        els.map((el) => [el.querySelector('dt')?.textContent, el.querySelector('dd')?.textContent?.trim()]),
      );
    expect(rows.slice(0, 5)).toEqual([
      ['Browser', 'Firefox 128.0'],
      ['Operating system', 'Windows'],
      ['IP address', '127.0.0.1'],
      ['City', 'unknown'],
      ['Country', 'unknown'],
    ]);
    expect(rows[5]?.[0]).toBe('Date');
    expect(rows[5]?.[1]).toContain(String(new Date().getUTCFullYear()));

    await page.getByRole('button', { name: 'Yes, this was me' }).click();
    await page.waitForURL(`${live.server.url}/approved-device`);
    expect(await page.locator('h1').textContent()).toBe('Thanks, the device is trusted');
    // Confirming leaves that browser signed in.
    expect(await isSignedIn(elsewhere.page)).toBe(true);

    const again = await page.goto(`${live.server.url}/review-device?token=${elsewhere.token}`);
    expect(again?.status()).toBe(404);
    expect(await page.locator('[data-review-invalid]').isVisible()).toBe(true);
    await close(page);
    await close(elsewhere.page);
  });

  it('reports a new device with JavaScript: that browser is signed out, the page asks for a new password', async () => {
    const email = freshEmail();
    await registerElsewhere(email);
    const elsewhere = await signInElsewhere(email, SAFARI);
    expect(await isSignedIn(elsewhere.page)).toBe(true);

    const page = await open(`/review-device?token=${elsewhere.token}`, { width });
    expect(await page.locator('[data-device] dd').first().textContent()).toBe('Safari 17.5');
    await page.getByRole('button', { name: 'No, secure my account' }).click();
    await page.waitForURL(`${live.server.url}/reported-device`);
    expect(await page.locator('h1').textContent()).toBe('We signed that device out');
    expect(await page.getByRole('link', { name: 'Change your password' }).getAttribute('href')).toBe(
      '/settings#password',
    );
    expect(await page.getByRole('link', { name: 'Reset your password by e-mail' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
    expect(await isSignedIn(elsewhere.page)).toBe(false);
    await close(page);
    await close(elsewhere.page);
  });

  it('shows the welcome dialog once after registering, and not after a reload', async () => {
    const page = await open('/register', { width });
    await page.locator('#register-email').fill(freshEmail());
    await page.locator('#register-password').fill(STRONG);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${live.server.url}/`);

    const dialog = page.getByRole('dialog', { name: 'Welcome to Coinfair' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await page.locator('#welcome-dialog').evaluate((d: HTMLDialogElement) => d.open)).toBe(true);
    expect(await dialog.textContent()).toContain('open it to confirm your address');
    expect(await dialog.locator('.steps a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([
      '/buy-bitcoin',
      '/vendors',
      '/settings#two-factor',
    ]);
    // Modal: focus starts inside it; Escape closes it.
    expect(await page.evaluate(() => document.activeElement?.closest('dialog')?.id)).toBe('welcome-dialog');
    expect(await cookieValue(page, 'welcome')).toBeUndefined();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);

    await page.reload();
    await page.waitForLoadState('networkidle');
    expect(await page.locator('#welcome-dialog').evaluate((d: HTMLDialogElement) => d.open)).toBe(false);
    await close(page);
  });
});

describe('device review without JavaScript', () => {
  it('reports through the form and lands on the German page', async () => {
    const email = freshEmail();
    await registerElsewhere(email);
    const elsewhere = await signInElsewhere(email, FIREFOX);

    const page = await open(`/de/review-device?token=${elsewhere.token}`, { javaScriptEnabled: false });
    // Without the script the time stays in UTC, in the page's language.
    expect((await page.locator('[data-device] time').textContent())?.trim()).toMatch(
      /^\d+\. \p{L}+ \d{4} um \d\d:\d\d UTC$/u,
    );
    await page.locator('button[value="report"]').click();
    await page.waitForURL(`${live.server.url}/de/reported-device`);
    expect(await isSignedIn(elsewhere.page)).toBe(false);
    await close(page);
    await close(elsewhere.page);
  });

  it('confirms through the form; an unknown token is a clear error', async () => {
    const email = freshEmail();
    await registerElsewhere(email);
    const elsewhere = await signInElsewhere(email, SAFARI);

    const page = await open(`/review-device?token=${elsewhere.token}`, { javaScriptEnabled: false });
    await page.locator('button[value="confirm"]').click();
    await page.waitForURL(`${live.server.url}/approved-device`);

    const unknown = await page.goto(`${live.server.url}/review-device?token=${'0'.repeat(64)}`);
    expect(unknown?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('This link no longer works');
    await close(page);
    await close(elsewhere.page);
  });
});

describe('password reset with two-factor authentication', () => {
  it('asks for the code on the reset page and accepts a recovery code', async () => {
    const email = freshEmail();
    await registerElsewhere(email);
    const setup = await open('/login');
    expect((await post(setup, '/rest/v1/auth/login', { email, password: STRONG })).status()).toBe(200);
    const { secret } = (await (await post(setup, '/rest/v1/users/2fa/setup', {})).json()).data as { secret: string };
    const confirmed = await post(setup, '/rest/v1/users/2fa/confirm', { code: generateSync({ secret }) });
    const { recoveryCodes } = (await confirmed.json()).data as { recoveryCodes: string[] };
    await close(setup);

    const page = await open('/forgot-password');
    await page.locator('#forgot-email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const token = await resetToken(email);
    await page.goto(`${live.server.url}/reset-password?token=${token}`);
    expect(await page.locator('[data-code-field]').isVisible()).toBe(true);

    await page.locator('#reset-password').fill(NEW_PASSWORD);
    await submit(page);
    await expect
      .poll(() => page.locator('[data-error-for="code"]').textContent())
      .toBe('Enter the code from your authenticator app.');
    await page.locator('#reset-code').fill(recoveryCodes[0] ?? '');
    await submit(page);
    await page.waitForURL(`${live.server.url}/login?reset=1`);
    await close(page);
  });
});

describe('e-mail confirmation notice', () => {
  it('says the address is confirmed after the mailed link, then drops the parameter', async () => {
    const email = freshEmail();
    await registerElsewhere(email);
    const text = await mailText(email, 'Confirm your e-mail address for Coinfair');
    const path = /\/auth\/verify-email\?token=[\w-]+/.exec(text)?.[0];
    expect(path).toBeTruthy();
    const page = await open(path ?? '');
    await page.waitForURL(`${live.server.url}/`);
    const notice = page.locator('#email-notice');
    await expect.poll(() => notice.locator('[role="status"]').textContent()).toBe('Your e-mail address is confirmed.');
    expect(new URL(page.url()).search).toBe('');
    await notice.getByRole('button', { name: 'Close' }).click();
    expect(await notice.isVisible()).toBe(false);
    await close(page);
  });

  it('says a dead link failed and points to settings', async () => {
    const page = await open('/?email_verified=0');
    const status = page.locator('#email-notice [role="status"]');
    await expect.poll(() => status.textContent()).toContain('invalid or has expired');
    expect(await status.locator('a').getAttribute('href')).toBe('/settings');
    expect(page.url()).toBe(`${live.server.url}/`);
    await close(page);
  });
});

describe('accessibility (axe-core)', () => {
  const violations = (page: Page) => seriousViolations(page);

  it.each(['light', 'dark'] as const)(
    'the pages and the welcome dialog pass in the %s theme',
    async (scheme) => {
      const email = freshEmail();
      await registerElsewhere(email);
      const elsewhere = await signInElsewhere(email, FIREFOX);
      await close(elsewhere.page);
      const asker = await open('/');
      expect((await post(asker, '/rest/v1/auth/forgot-password', { email, ...(await solved(asker)) })).status()).toBe(
        200,
      );
      await close(asker);
      const token = await resetToken(email);

      const paths = [
        '/forgot-password',
        `/reset-password?token=${token}`,
        '/reset-password?token=dead',
        `/review-device?token=${elsewhere.token}`,
        '/review-device?token=dead',
        '/approved-device',
        '/reported-device',
        '/?email_verified=0',
      ];
      // bypassCSP: axe is injected as an inline script, which the pages' policy rightly refuses.
      for (const path of paths) {
        const page = await open(path, { colorScheme: scheme, bypassCSP: true });
        await page.waitForLoadState('networkidle');
        expect([path, await violations(page)]).toEqual([path, []]);
        await close(page);
      }

      const context = await live.browser.newContext({ colorScheme: scheme, bypassCSP: true });
      await context.addCookies([
        { name: 'cookie_settings', value: '11111111', url: live.server.url },
        { name: 'welcome', value: '1', url: live.server.url },
      ]);
      const page = await context.newPage();
      await page.goto(`${live.server.url}/`, { waitUntil: 'networkidle' });
      expect(await page.locator('#welcome-dialog').evaluate((d: HTMLDialogElement) => d.open)).toBe(true);
      expect(await violations(page)).toEqual([]);
      await context.close();
      // Nine pages, each to network idle and an axe run: over a minute on a loaded 2-core machine.
    },
    180_000,
  );
});
