import { generateSync } from 'otplib';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations, serverAndBrowser, untranslatedKeys } from './harness.ts';
import { browserPeople, type StartableOffer, sepaOffer } from './people.ts';
import { messageKeys, overflowsSideways, problemsBut, screenshotter } from './screen-checks.ts';

// The operator console's money screens (issue 25): an administrator with two-factor retries a
// stuck sendout and cancels another (the hold back on the wallet), a wrong code shown in the
// dialog; verifies the ledger; reads the fee income of a released trade in the chart and the
// table; finds each of those in the audit log. A moderator gets not found, a visitor the sign-in.
// Every screen at 375 and 1440 px, light and dark: no sideways scroll, no console problem or
// hydration warning, no message key, axe-clean. Screenshots: test-results/admin-money-*.png.

const live = serverAndBrowser();
const people = browserPeople(live);
const shot = screenshotter('admin-money');
const ADMIN = 'admin@example.com';
const PERSON = 'buyer@example.com';
const VENDOR = 'vendor@example.com';
const BTC_ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const SCREENS = ['sendouts', 'ledger', 'fees', 'audit'] as const;
const SLOW = { timeout: 15_000, interval: 200 };

let admin: BrowserContext;
let person: BrowserContext;
let secret = '';
let recoveryCodes: string[] = [];

const totpNow = () => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) });
/** Well formed, an hour away: never right. */
const wrongCode = () => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 3600 });

beforeAll(async () => {
  admin = await people.signedIn(ADMIN, 1440);
  secret = (await people.api<{ secret: string }>(admin, '/rest/v1/users/2fa/setup', {})).secret;
  // The previous step's code confirms, so the current step stays unspent for the first change.
  const previous = generateSync({ secret, epoch: Math.floor(Date.now() / 1000) - 30 });
  recoveryCodes = (
    await people.api<{ recoveryCodes: string[] }>(admin, '/rest/v1/users/2fa/confirm', { code: previous })
  ).recoveryCodes;
  person = await people.signedIn(PERSON, 1440);
  await people.fund(person, PERSON, '0.1');
}, 60_000);

afterAll(async () => {
  await admin?.close();
  await person?.close();
});

/** The person's bitcoin balance in satoshis. */
const btcBalance = async () => {
  const balances = await people.api<{ cryptoCurrencyCode: string; balance: string }[]>(person, '/rest/v1/balances');
  return Math.round(Number(balances.find((b) => b.cryptoCurrencyCode === 'BTC')?.balance) * 1e8);
};

/** What a sendout holds of the wallet: its amount and network fee, in satoshis. */
const heldBy = (id: string) =>
  Number(
    live.server.row<{ held: number }>('SELECT amount + fee AS held FROM chain_transactions WHERE public_id = ?', id)
      ?.held,
  );

/**
 * A sendout of the person whose broadcast never answered (claimed 11 minutes ago). The chain job
 * claims new sendouts within seconds; one it took first is left to it and another is sent.
 */
async function stuckSendout(amount: string): Promise<string> {
  let seen: unknown;
  for (let attempt = 0; attempt < 12; attempt++) {
    seen = await people.api(person, '/rest/v1/wallet/send', {
      currency: 'BTC',
      address: BTC_ADDRESS,
      amount,
      request_id: `admin-money-${amount}-${attempt}-${Date.now()}`,
    });
    const sent = live.server.row<{ id: string }>(
      "SELECT public_id AS id FROM chain_transactions WHERE direction = 'out' ORDER BY id DESC LIMIT 1",
    );
    if (!sent) throw new Error('no sendout was written');
    const claimedAt = Date.now() - 11 * 60_000;
    live.server.sql(
      "UPDATE chain_transactions SET broadcast_started_at = ? WHERE public_id = ? AND status = 'pending' AND broadcast_started_at IS NULL",
      claimedAt,
      sent.id,
    );
    const row = live.server.row<{ at: number | null; status: string }>(
      'SELECT broadcast_started_at AS at, status FROM chain_transactions WHERE public_id = ?',
      sent.id,
    );
    if (row?.status === 'pending' && Number(row.at) === claimedAt) return sent.id;
    seen = { sent: seen, row };
  }
  throw new Error(`the chain job claimed every sendout first: ${JSON.stringify(seen)}`);
}

/**
 * A console page in the administrator's context, its console errors and warnings (hydration
 * mismatches among them) collected; once loaded, every island on it hydrated (the fee table and
 * the audit log have none).
 */
async function openScreen(path: string, problems: string[], width = 1440, dark = false): Promise<Page> {
  const page = await admin.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.setViewportSize({ width, height: 900 });
  await page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' });
  await page.goto(live.server.url + path);
  await page.locator('main h1').waitFor();
  await expect.poll(() => page.locator('astro-island[ssr]').count()).toBe(0);
  return page;
}

async function confirmIn(page: Page, reason: string, code: string) {
  const dialog = page.locator('dialog[data-operator-confirm]');
  await dialog.getByLabel('Reason (kept in the audit log)').fill(reason);
  await dialog.getByLabel('Authenticator code').fill(code);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  return dialog;
}

describe('the money screens of an administrator with two-factor', () => {
  it('retries a stuck sendout, and cancels another after a wrong code: the hold goes back', async () => {
    const retried = await stuckSendout('0.004');
    const cancelled = await stuckSendout('0.003');
    const held = await btcBalance();
    expect(heldBy(cancelled)).toBeGreaterThan(300_000);

    const problems: string[] = [];
    const page = await openScreen('/admin/sendouts', problems);
    const first = page.locator(`[data-sendout="${retried}"]`);
    expect(await first.getAttribute('data-state')).toBe('stuck');
    expect(await first.textContent()).toContain('0.00400000 BTC');
    await first.locator('[data-sendout-action="retry"]').click();
    const dialog = await confirmIn(page, 'Node restarted; not in the wallet history', totpNow());
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('[data-sendouts-notice]').textContent()).toContain(`${retried} released`);
    expect(await page.locator(`[data-sendout="${retried}"]`).getAttribute('data-state')).not.toBe('stuck');

    const second = page.locator(`[data-sendout="${cancelled}"]`);
    await second.locator('[data-sendout-action="cancel"]').click();
    expect(await dialog.locator('[data-check-node]').textContent()).toContain('Check the node first');
    await confirmIn(page, 'Node never saw it; the person asked to stop', wrongCode());
    await expect.poll(() => dialog.locator('[data-confirm-error]').textContent()).toContain('not correct');
    await shot(page, 'confirm-error-1440', false);
    expect(await dialog.getByLabel('Reason (kept in the audit log)').inputValue()).toBe(
      'Node never saw it; the person asked to stop',
    );
    expect(await dialog.getByLabel('Authenticator code').inputValue()).toBe('');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('autocomplete')))
      .toBe('one-time-code');
    await dialog.getByLabel('Authenticator code').fill(recoveryCodes[0] ?? '');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('[data-sendouts-notice]').textContent()).toContain(`${cancelled} cancelled`);
    await expect.poll(btcBalance, SLOW).toBe(held + heldBy(cancelled));
    expect(await page.locator(`[data-sendout="${cancelled}"]`).count()).toBe(0);

    await page.locator('[data-list="failed"]').click();
    await page.locator(`[data-sendouts="failed"] [data-sendout="${cancelled}"]`).waitFor();
    // The wrong code's answer is a 401, which Chromium logs.
    expect(problemsBut(problems, [401])).toEqual([]);
    await page.close();
  }, 90_000);

  it('verifies the ledger and shows the result: ok, when and by whom', async () => {
    const problems: string[] = [];
    const page = await openScreen('/admin/ledger', problems);
    await page.locator('[data-verify]').click();
    const result = page.locator('[data-ledger-result="ok"]');
    await result.waitFor();
    expect(await result.locator('[data-ledger-by]').textContent()).toContain('admin');
    expect(await result.locator('[data-ledger-when]').textContent()).toContain('UTC');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the fee income of a released trade in the chart and the table, and refuses a range too long', async () => {
    const vendor = await people.signedIn(VENDOR, 1440);
    await people.fund(vendor, VENDOR, '0.1');
    const offer = await people.api<StartableOffer>(vendor, '/rest/v1/offers', sepaOffer({ fixed_price: '9000' }));
    live.server.sql('UPDATE users SET last_seen_at = ? WHERE email IN (?, ?)', Date.now(), VENDOR, PERSON);
    const { hash } = await people.startTrade(person, offer, '500');
    await people.api(person, `/rest/v1/trade/${hash}/paid`, {});
    await people.api(vendor, `/rest/v1/trade/${hash}/release`, {});
    await vendor.close();
    const fees = await people.api<{ days: { date: string; currency: string; group: string; amount: string }[] }>(
      admin,
      '/rest/v1/operators/fees',
    );
    const today = new Date().toISOString().slice(0, 10);
    const earned = fees.days.find((row) => row.date === today && row.currency === 'BTC');
    expect(earned, JSON.stringify(fees.days)).toBeDefined();

    const problems: string[] = [];
    const page = await openScreen('/admin/fees', problems);
    await page.locator('[data-chart="ready"] canvas').first().waitFor();
    const row = page.locator(`[data-fee-row="${today} BTC ${earned?.group}"]`);
    expect(await row.locator('[data-amount]').textContent()).toBe(earned?.amount);
    expect(await page.locator('[data-fee-total="BTC"] [data-amount]').textContent()).toMatch(/^0\.\d{8}$/);

    await page.goto(`${live.server.url}/admin/fees?from=2024-01-01&to=2026-01-01`);
    expect(await page.locator('[data-field-error="from"]').textContent()).toContain('366');
    expect(problemsBut(problems, [400])).toEqual([]);
    await page.close();
  }, 90_000);

  it('lists those actions in the audit log, newest first, and filters by action', async () => {
    const problems: string[] = [];
    const page = await openScreen('/admin/audit', problems);
    const actions = await page
      .locator('[data-audit-row]')
      .evaluateAll((rows) =>
        rows.map((row) => `${row.getAttribute('data-audit-row')} ${row.getAttribute('data-outcome')}`),
      );
    expect(actions.slice(0, 4)).toEqual([
      'ledger.verify done',
      'sendout.cancel done',
      'sendout.cancel refused',
      'sendout.retry done',
    ]);
    const cancel = page.locator('[data-audit-row="sendout.cancel"][data-outcome="done"]');
    expect(await cancel.textContent()).toContain('Node never saw it; the person asked to stop');

    await page.getByRole('textbox', { name: 'Action', exact: true }).fill('sendout.retry');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/action=sendout\.retry/);
    const filtered = await page
      .locator('[data-audit-row]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-audit-row')));
    expect(filtered).toEqual(['sendout.retry']);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('who may open the money screens', () => {
  it('gives a moderator not found and sends a visitor to sign in', async () => {
    const moderator = await people.signedIn('moderator@example.com', 1440);
    const visitor = await people.context(1440);
    for (const screen of SCREENS) {
      expect((await moderator.request.get(`${live.server.url}/admin/${screen}`)).status(), screen).toBe(404);
      const answer = await visitor.request.get(`${live.server.url}/admin/${screen}`, { maxRedirects: 0 });
      expect(answer.status()).toBe(303);
      expect(answer.headers().location).toBe(`/login?back=${encodeURIComponent(`/admin/${screen}`)}`);
    }
    await Promise.all([moderator.close(), visitor.close()]);
  });
});

describe.each([
  [375, false],
  [375, true],
  [1440, false],
  [1440, true],
])('the money screens at %i px (dark: %s)', (width, dark) => {
  it.each(SCREENS)('%s: no sideways scroll, console problem, message key or serious axe finding', async (screen) => {
    const problems: string[] = [];
    // The failed list holds the cancelled sendout: a row to see on a phone.
    const path = screen === 'sendouts' ? '/admin/sendouts?list=failed' : `/admin/${screen}`;
    const page = await openScreen(path, problems, width, dark);
    if (screen === 'fees') await page.locator('[data-chart="ready"]').waitFor();
    await shot(page, `${screen}-${width}-${dark ? 'dark' : 'light'}`);
    expect(await overflowsSideways(page)).toBe(false);
    expect(await untranslatedKeys(page, messageKeys('admin', 'errors'))).toEqual([]);
    expect(await seriousViolations(page, 'main')).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
