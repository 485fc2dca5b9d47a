import { generateSync } from 'otplib';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations, serverAndBrowser, untranslatedKeys } from './harness.ts';
import { browserPeople, type PersonBrowser, type StartableOffer, sepaOffer } from './people.ts';
import { messageKeys, overflowsSideways, problemsBut, screenshotter } from './screen-checks.ts';

// The operator console's People and Trades screens (issue 25) in the browser: an administrator
// finds a person, reads the file and suspends them with a reason and a code from the
// authenticator app (a wrong code is refused in place); a moderator reads people and trades
// without actions or the administrators' links; an ordinary person finds nothing there; a trade
// lookup shows its trail and chat. Then both screens at 375 and 1440 px, light and dark, in
// English, German and Hebrew: no sideways scroll, console problem, untranslated key or serious
// axe violation. Screenshots: test-results/admin-console-*.png.

const live = serverAndBrowser();
const people = browserPeople(live);
const { api, signedIn } = people;
const shot = screenshotter('admin-console');
const KEYS = messageKeys('admin', 'trade.status', 'errors');
const ADMIN = 'admin@example.com';
const VENDOR = 'vendor@example.com';
const BUYER = 'buyer@example.com';

let hash = '';
/** The administrator's signed-in browser: with two-factor on, signing in again would need a code. */
let adminSession: BrowserContext | undefined;
let vendorId = '';
let secret = '';
/** The last TOTP step spent: each step's code works once (server/services/two-factor/totp.ts). */
let lastStep = 0;

/** A code of a step the server accepts now (±1 step) and has not seen spent. */
function freshCode(): string {
  const now = Math.floor(Date.now() / 30_000);
  const step = Math.max(lastStep + 1, now - 1);
  if (step > now + 1) throw new Error('no unspent code in this 30-second window');
  lastStep = step;
  return generateSync({ secret, epoch: step * 30 });
}

// A trade between the vendor and the buyer with a chat line, and the administrator's factor on.
beforeAll(async () => {
  const seller = await signedIn(VENDOR, 1440);
  await people.fund(seller, VENDOR, '0.2');
  const offer = await api<StartableOffer>(seller, '/rest/v1/offers', sepaOffer({ trade_instructions: '' }));
  const buyer = await signedIn(BUYER, 1440);
  people.everyoneOnline(VENDOR, BUYER);
  hash = (await people.startTrade(buyer, offer)).hash;
  await api(buyer, `/rest/v1/trade/${hash}/messages`, { text: 'Paying by SEPA in a minute.' });
  await Promise.all([seller.close(), buyer.close()]);

  const admin = await signedIn(ADMIN, 1440);
  adminSession = admin;
  secret = (await api<{ secret: string }>(admin, '/rest/v1/users/2fa/setup', {})).secret;
  await api(admin, '/rest/v1/users/2fa/confirm', { code: freshCode() });
  vendorId = (await api<{ publicId: string }[]>(admin, `/rest/v1/operators/people?q=${VENDOR}`))[0]?.publicId ?? '';
}, 60_000);

/** A new browser context for `email` at `width`; the administrator's carries the session's cookies over. */
async function sessionOf(email: string, width: number, options: PersonBrowser = {}) {
  if (email !== ADMIN) return signedIn(email, width, options);
  if (!adminSession) throw new Error('the administrator is signed in by beforeAll');
  const ctx = await people.context(width, options);
  await ctx.addCookies(await adminSession.cookies());
  return ctx;
}

async function openAs(email: string, path: string, width = 1440, options: PersonBrowser = {}) {
  const ctx = await sessionOf(email, width, options);
  const problems: string[] = [];
  const page = await ctx.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  const response = await page.goto(live.server.url + path);
  return { ctx, page, problems, status: response?.status() };
}

const hydrated = (page: Page) => page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });

async function confirmWith(page: Page, reason: string, code: string) {
  const dialog = page.locator('[data-operator-confirm]');
  await dialog.getByLabel('Reason (kept in the audit log)').fill(reason);
  await dialog.getByLabel('Authenticator code').fill(code);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
}

describe('the operator console', () => {
  it('lets an administrator find a person, read the file and suspend them with a reason and code', async () => {
    const { ctx, page, problems } = await openAs(ADMIN, '/admin');
    await page.getByLabel('E-mail, username or id').fill('affiliate@example.com');
    await page.getByRole('button', { name: 'Find' }).click();
    await hydrated(page);
    const file = page.locator('[data-person-file]');
    await expect.poll(() => file.locator('h2').first().textContent()).toContain('affiliate');
    expect(await file.locator('[data-person-status]').textContent()).toBe('Active');
    for (const part of ['verification', 'money', 'trades', 'disputes', 'devices', 'sessions', 'ledger']) {
      expect(await file.locator(`[data-admin-part="${part}"]`).count(), part).toBe(1);
    }
    expect(await page.locator('[data-admin-nav="admin"] a').allInnerTexts()).toEqual([
      'People',
      'Trades',
      'Sendouts',
      'Ledger',
      'Fees',
      'Audit log',
    ]);

    // A wrong code: refused in place, the dialog stays open, nothing changes.
    await page.locator('[data-person-action="suspend"]').click();
    await confirmWith(page, 'Chargeback fraud reported by the bank', '000000');
    const error = page.locator('[data-confirm-error]');
    await expect.poll(() => error.textContent()).toContain('This code is not correct');
    expect(await file.locator('[data-person-status]').textContent()).toBe('Active');

    // The right code: the dialog closes, the file reloads with the new status.
    await page.locator('[data-operator-confirm]').getByLabel('Authenticator code').fill(freshCode());
    await page.locator('[data-operator-confirm]').getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => file.locator('[data-person-status]').textContent()).toBe('Suspended');
    expect(await page.locator('[data-admin-notice]').textContent()).toBe('Suspend: done.');
    expect(await page.locator('[data-person-action="reinstate"]').count()).toBe(1);
    expect(await page.locator('dialog[open]').count()).toBe(0);
    expect(
      live.server.row<{ status: string }>("SELECT status FROM users WHERE email = 'affiliate@example.com'"),
    ).toEqual({ status: 'suspended' });
    // Verifying the identity takes the name on the document in the dialog's extra field.
    await page.locator('[data-person-action="verify-identity"]').click();
    await page.getByLabel('Full name on the document (optional)').fill('Ada Lovelace');
    await confirmWith(page, 'Passport checked by video call', freshCode());
    await expect.poll(() => page.locator('[data-admin-notice]').textContent()).toBe('Verify identity: done.');
    // The notice comes before the file is read again: wait for the reloaded file.
    const verification = file.locator('[data-admin-part="verification"]');
    await expect.poll(() => verification.textContent()).toContain('Ada Lovelace');
    expect(await page.locator('[data-person-action="verify-identity"]').count()).toBe(0);
    // The 401 of the wrong code is the only console line, and it was caused on purpose.
    expect(problemsBut(problems, [401])).toEqual([]);
    await ctx.close();
  });

  it('shows moderators people and trades without actions, the security parts or the admin links', async () => {
    const { ctx, page, problems } = await openAs('moderator@example.com', `/admin?q=${VENDOR}`);
    await hydrated(page);
    const file = page.locator('[data-person-file]');
    await file.waitFor();
    expect(await file.locator('[data-admin-part="trades"] [data-trade]').count()).toBeGreaterThan(0);
    for (const hidden of ['actions', 'devices', 'sessions', 'ledger']) {
      expect(await page.locator(`[data-admin-part="${hidden}"]`).count(), hidden).toBe(0);
    }
    expect(await page.locator('[data-person-action]').count()).toBe(0);
    expect(await page.locator('[data-admin-nav="moderator"] a').allInnerTexts()).toEqual(['People', 'Trades']);
    // The header's account menu leads staff to the disputes queue and the console.
    await page.getByTestId('header-account-menu').click();
    await expect
      .poll(() => page.locator('.account-drop [data-staff-only] a').allInnerTexts())
      .toEqual(['Open disputes', 'Operator console']);
    await page.getByTestId('header-account-menu').click();

    // The file's trade links to its lookup, which shows the trail and the chat.
    await file.locator(`[data-trade="${hash}"] a`).click();
    await page.waitForURL(/\/admin\/trades\?hash=/);
    const trade = page.locator(`[data-trade-file="${hash}"]`);
    expect(await trade.locator('[data-trade-status]').textContent()).toBe('Waiting for payment');
    expect(await trade.locator('[data-transition]').count()).toBeGreaterThan(0);
    expect(await trade.locator('[data-chat-role="buyer"]').textContent()).toContain('Paying by SEPA in a minute.');
    expect(await trade.locator('[data-party]').count()).toBe(2);
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('is not found for an ordinary person and sends a visitor to sign in', async () => {
    const { ctx, page, status } = await openAs(BUYER, '/admin/trades');
    expect(status).toBe(404);
    expect(await page.locator('[data-admin-nav]').count()).toBe(0);
    // Once the header knows who this is (its name in place, in the same step as the entries), no staff entry shows.
    await expect.poll(() => page.locator('summary [data-account-name]').textContent()).toBe('buyer');
    expect(await page.locator('[data-staff-only]:not([hidden])').count()).toBe(0);
    await ctx.close();
    const visitor = await people.context(1440);
    const visit = await visitor.newPage();
    await visit.goto(`${live.server.url}/de/admin?q=vendor`);
    expect(new URL(visit.url()).pathname).toBe('/de/login');
    expect(new URL(visit.url()).searchParams.get('back')).toBe('/de/admin?q=vendor');
    await visitor.close();
  });

  it('says so when no trade or nobody matches', async () => {
    const { ctx, page } = await openAs(ADMIN, '/admin/trades?hash=NOSUCHTRADE1');
    expect(await page.locator('[data-admin-error]').textContent()).toBe('No trade has this id.');
    await page.goto(`${live.server.url}/admin?q=nobody-by-this-name`);
    expect(await page.locator('[data-people-none]').count()).toBe(1);
    await ctx.close();
  });
});

const WALK: [locale: string, width: number, dark: boolean][] = [
  ['', 1440, false],
  ['', 375, true],
  ['de', 375, false],
  ['de', 1440, true],
  ['he', 375, true],
  ['he', 1440, false],
];

describe('the console screens at 375 and 1440 px, light and dark, in English, German and Hebrew', () => {
  it.each(WALK)('%s at %i px (dark: %s)', async (locale, width, dark) => {
    const prefix = locale ? `/${locale}` : '';
    const name = `${locale || 'en'}-${width}${dark ? '-dark' : ''}`;
    const ctx: BrowserContext = await sessionOf(ADMIN, width, { colorScheme: dark ? 'dark' : 'light' });
    const problems: string[] = [];
    for (const [screen, path] of [
      ['people', `${prefix}/admin?id=${vendorId}`],
      ['trade', `${prefix}/admin/trades?hash=${hash}`],
    ] as const) {
      const page = await ctx.newPage();
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${screen}: ${m.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`${screen}: ${error.message}`));
      await page.goto(live.server.url + path);
      if (screen === 'people') await hydrated(page);
      await page.locator('[data-person-file], [data-trade-file]').first().waitFor();
      expect(await page.getAttribute('html', 'dir')).toBe(locale === 'he' ? 'rtl' : 'ltr');
      await shot(page, `${screen}-${name}`);
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll('main *')]
          .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
          .slice(0, 5)
          .map((el) => `${el.tagName}.${el.className}`),
      );
      expect(await overflowsSideways(page), `${screen} ${name} scrolls sideways: ${wide.join(', ')}`).toBe(false);
      expect(await untranslatedKeys(page, KEYS), `${screen} ${name}`).toEqual([]);
      expect(await seriousViolations(page, 'main'), `${screen} ${name}`).toEqual([]);
      await page.close();
    }
    expect(problems).toEqual([]);
    await ctx.close();
  });
});
