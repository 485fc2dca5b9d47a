import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations, serverAndBrowser, untranslatedKeys } from './harness.ts';
import { browserPeople, type StartableOffer, sepaOffer } from './people.ts';
import { messageKeys, overflowsSideways, problemsBut, screenshotter } from './screen-checks.ts';

// The affiliate programme screen in Chromium (issue 20; spec sections 2 and 8). The demo affiliate
// gets three referrals of this file's own making (by SQL, as registration with their link binds
// them): the buyer, who then buys 500 EUR of bitcoin from the vendor for real, so the affiliate
// earns half the escrow fee; the kiosk, who brought two people (tier 2); and the merchant, long
// inactive with seven trades. The affiliate sees the summary, sorts and filters the table, opens
// the kiosk's tier-2 list (after one failed load), copies the link and moves the earnings to the
// wallet. The vendor, not an affiliate, is invited and joins in place. Screenshots at 375 and
// 1440 px, light and dark, and in German land in test-results/affiliates-*.png.

const live = serverAndBrowser();
const people = browserPeople(live);
const AFFILIATE = 'affiliate@example.com';
const VENDOR = 'vendor@example.com';
const BUYER = 'buyer@example.com';
const DAY = 86_400_000;

/** The escrow fee of 500 EUR at 9,000 EUR/BTC (0.05555556 BTC, 1 %), half of it the tier-1 share. */
const SHARE = '0.00027778 BTC';

const idOf = (username: string) =>
  live.server.row<{ id: number }>('SELECT id FROM users WHERE username = ?', username)?.id ?? 0;

/** `username` referred by `referrer`, registered `daysAgo`, last seen `seenDaysAgo`, with `trades`. */
function refer(referrer: string, username: string, daysAgo: number, seenDaysAgo = 0, trades = 0, usdCents = 0) {
  const now = Date.now();
  live.server.sql(
    `UPDATE users SET referred_by_id = ?, created_at = ?, last_seen_at = ?, completed_trades = ?, traded_usd_cents = ?
     WHERE username = ?`,
    idOf(referrer),
    now - daysAgo * DAY,
    now - seenDaysAgo * DAY,
    trades,
    usdCents,
    username,
  );
}

/** The referrals and the released trade, made once for the tests that need them. */
let made: Promise<void> | undefined;
const referrals = () => {
  made ??= makeReferrals();
  return made;
};

async function makeReferrals() {
  // Nobody else referred by the people of this file (the demo data may refer some).
  for (const name of ['affiliate', 'vendor', 'buyer', 'kiosk', 'merchant'])
    live.server.sql('UPDATE users SET referred_by_id = NULL WHERE referred_by_id = ?', idOf(name));
  refer('affiliate', 'buyer', 10);
  refer('affiliate', 'kiosk', 40);
  refer('affiliate', 'merchant', 100, 60, 7, 2_500_00);
  refer('kiosk', 'SwiftSats', 5);
  refer('kiosk', 'LagosBTC', 20, 45);

  // The buyer's trade, released: the affiliate's tier-1 share of its fee.
  const vendor = await people.signedIn(VENDOR, 1440);
  await people.fund(vendor, VENDOR, '0.1');
  const offer = await people.api<StartableOffer>(vendor, '/rest/v1/offers', sepaOffer({ fixed_price: '9000' }));
  live.server.sql('UPDATE users SET last_seen_at = ? WHERE email IN (?, ?)', Date.now(), VENDOR, BUYER);
  const buyer = await people.signedIn(BUYER, 1440);
  const { hash } = await people.startTrade(buyer, offer, '500');
  await people.api(buyer, `/rest/v1/trade/${hash}/paid`, {});
  await people.api(vendor, `/rest/v1/trade/${hash}/release`, {});
  await Promise.all([vendor.close(), buyer.close()]);
}

/** The page, hydrated, with its console errors and warnings collected as they come. */
async function open(ctx: BrowserContext, path: string): Promise<{ page: Page; problems: string[] }> {
  const problems: string[] = [];
  const page = await people.open(ctx, path, problems);
  return { page, problems };
}

const signedIn = (email: string, width: number, colorScheme: 'light' | 'dark' = 'light') =>
  people.signedIn(email, width, { colorScheme });

const usernames = (page: Page) =>
  page.getByTestId('referral-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-username')));

const sortOf = (page: Page, name: string) =>
  page.locator('th', { has: page.getByRole('button', { name, exact: true }) }).getAttribute('aria-sort');

const shot = screenshotter('affiliates');
/** The screen's own message keys and the errors it may show. */
const KEYS = messageKeys('affiliates', 'errors');

describe('the affiliate screen', () => {
  it('sends visitors who are not signed in to the sign-in page, which comes back', async () => {
    const ctx = await people.context(1440);
    const res = await ctx.request.get(`${live.server.url}/de/affiliates`, { maxRedirects: 0 });
    expect(res.status()).toBe(303);
    expect(res.headers().location).toBe(`/de/login?back=${encodeURIComponent('/de/affiliates')}`);
    await ctx.close();
  });

  it('shows the summary, sorts, filters, opens a tier-2 list, copies the link and moves the earnings (1440 px)', async () => {
    await referrals();
    const ctx = await signedIn(AFFILIATE, 1440);
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: live.server.url });
    const { page, problems } = await open(ctx, '/affiliates');
    const summary = page.getByTestId('affiliate-summary');
    expect(await summary.locator('[data-stat="earned"] .aff-amount').allTextContents()).toEqual([
      SHARE,
      '0.000000 USDT',
    ]);
    expect(await summary.locator('[data-count="tier1"]').textContent()).toBe('3');
    expect(await summary.locator('[data-count="tier2"]').textContent()).toBe('2');
    // The header's account menu leads here.
    await page.getByTestId('header-account-menu').click();
    expect(await page.getByRole('link', { name: 'Affiliates' }).getAttribute('aria-current')).toBe('page');
    await page.keyboard.press('Escape');

    // Newest first, as the API answers by default; what came through each person.
    expect(await usernames(page)).toEqual(['buyer', 'kiosk', 'merchant']);
    expect(await sortOf(page, 'Registered')).toBe('descending');
    const row = (name: string) => page.locator(`[data-testid="referral-row"][data-username="${name}"]`);
    expect(await row('buyer').locator('.aff-earned span').first().textContent()).toBe(SHARE);
    expect(await row('buyer').locator('.aff-earned').textContent()).toMatch(/≈ \$\d+\.\d\d$/);
    expect(await row('merchant').locator('td').nth(4).textContent()).toBe('—');
    expect(await row('merchant').locator('td').nth(3).textContent()).toBe('$2,500.00');
    expect(await row('merchant').locator('[data-active]').count()).toBe(0);
    expect(await row('kiosk').locator('[data-active]').textContent()).toBe('Active');
    expect(await row('buyer').getByRole('link', { name: 'buyer' }).getAttribute('href')).toBe('/profile/buyer');
    expect(await page.locator('main').textContent()).not.toContain('@example.com');
    expect(await seriousViolations(page)).toEqual([]);

    // Sorting: a header sorts by its column, a second click reverses it.
    await page.getByRole('button', { name: 'Trades', exact: true }).click();
    await expect.poll(() => usernames(page)).toEqual(['merchant', 'buyer', 'kiosk']);
    expect(await sortOf(page, 'Trades')).toBe('descending');
    expect(await sortOf(page, 'Registered')).toBeNull();
    await page.getByRole('button', { name: 'Trades', exact: true }).click();
    await expect.poll(() => usernames(page)).toEqual(['kiosk', 'buyer', 'merchant']);
    expect(await sortOf(page, 'Trades')).toBe('ascending');
    await page.getByRole('button', { name: 'Username', exact: true }).click();
    await expect.poll(() => usernames(page)).toEqual(['buyer', 'kiosk', 'merchant']);
    expect(await sortOf(page, 'Username')).toBe('ascending');

    // Filters: each narrows the rows; clearing them brings all back.
    await page.getByLabel('Has traded').check();
    await expect.poll(() => usernames(page)).toEqual(['buyer', 'merchant']);
    await page.getByLabel('Active in the last 30 days').check();
    await expect.poll(() => usernames(page)).toEqual(['buyer']);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => usernames(page)).toEqual(['buyer', 'kiosk', 'merchant']);
    await page.getByLabel('Registered from').fill(new Date(Date.now() - 60 * DAY).toISOString().slice(0, 10));
    await expect.poll(() => usernames(page)).toEqual(['buyer', 'kiosk']);

    // A failed load says so and tries again.
    await page.route('**/referrals?*', (route) =>
      route.fulfill({ status: 503, json: { errors: [{ code: 'BUSY', message: 'Too busy, try again.' }] } }),
    );
    await page.getByLabel('Has traded').check();
    await page.getByRole('alert').filter({ hasText: 'Too busy, try again.' }).waitFor();
    await page.unroute('**/referrals?*');
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => usernames(page)).toEqual(['buyer']);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => usernames(page)).toEqual(['buyer', 'kiosk', 'merchant']);

    // The kiosk's tier-2 list: the first load fails, the retry shows both people.
    const expand = page.getByRole('button', { name: 'People kiosk brought: 2' });
    expect(await expand.getAttribute('aria-expanded')).toBe('false');
    expect(await row('buyer').getByRole('button').count()).toBe(0);
    await page.route('**/referrals/tier2*', (route) => route.fulfill({ status: 503, json: { errors: [] } }));
    await expand.click();
    expect(await expand.getAttribute('aria-expanded')).toBe('true');
    const tier2 = page.getByTestId('tier2-list');
    await tier2.getByText('This list could not be loaded.').waitFor();
    await page.unroute('**/referrals/tier2*');
    await tier2.getByRole('button', { name: 'Try again' }).click();
    await expect
      .poll(() => tier2.getByTestId('tier2-row').locator('.aff-username').allTextContents())
      .toEqual(['SwiftSats', 'LagosBTC']);
    expect(await tier2.getByTestId('tier2-row').first().locator('[data-active]').count()).toBe(1);
    expect(await tier2.getByTestId('tier2-row').last().locator('[data-active]').count()).toBe(0);
    await shot(page, 'tier2-1440');
    await expand.click();
    expect(await expand.getAttribute('aria-expanded')).toBe('false');
    expect(await tier2.count()).toBe(0);

    // The link: copied to the clipboard, the button says so.
    const code = live.server.row<{ code: string }>(
      'SELECT referral_code AS code FROM users WHERE email = ?',
      AFFILIATE,
    );
    const link = await page.getByRole('textbox', { name: 'Referral link' }).inputValue();
    expect(link).toMatch(new RegExp(`/\\?ref=${code?.code}$`));
    const copy = page.getByTestId('referral-link').getByRole('button', { name: 'Copy' });
    await copy.click();
    await page.getByTestId('referral-link').getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    expect(await page.getByRole('img', { name: 'QR code of your referral link' }).locator('svg').count()).toBe(1);

    // The earnings to the wallet: the button moves them once and turns off with nothing left.
    const move = page.getByRole('button', { name: 'Move to wallet' });
    await move.click();
    expect(await page.getByTestId('payout-done').textContent()).toBe(`Moved to your wallet: ${SHARE}.`);
    await expect
      .poll(() => summary.locator('[data-stat="balance"] .aff-amount').first().textContent())
      .toBe('0.00000000 BTC');
    expect(await move.isDisabled()).toBe(true);
    const balances = await people.api<{ cryptoCurrencyCode: string; balance: string }[]>(ctx, '/rest/v1/balances');
    expect(balances.find((b) => b.cryptoCurrencyCode === 'BTC')?.balance).toBe('0.00027778');

    expect(await untranslatedKeys(page, KEYS)).toEqual([]);
    expect(problemsBut(problems, [503])).toEqual([]);
    await ctx.close();
  }, 120_000);

  it('fits a phone: rows as cards, the order chosen from a list (375 px)', async () => {
    await referrals();
    const ctx = await signedIn(AFFILIATE, 375);
    const { page, problems } = await open(ctx, '/affiliates');
    expect(await page.getByTestId('affiliate-summary').isVisible()).toBe(true);
    expect(await usernames(page)).toEqual(['buyer', 'kiosk', 'merchant']);
    await page.getByTestId('referral-filters').getByLabel('Sort by').selectOption({ label: 'Volume (USD)' });
    await expect.poll(() => usernames(page)).toEqual(['merchant', 'buyer', 'kiosk']);
    await page.getByTestId('referral-filters').getByLabel('Order').selectOption({ label: 'Ascending' });
    await expect.poll(() => usernames(page)).toEqual(['kiosk', 'buyer', 'merchant']);
    await page.getByRole('button', { name: 'People kiosk brought: 2' }).click();
    await page.getByTestId('tier2-row').first().waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await shot(page, 'tier2-375');
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('looks right in both themes, at both widths and in German, with no console error', async () => {
    const cases = [
      { width: 375, scheme: 'light', path: '/affiliates', name: '375-light' },
      { width: 375, scheme: 'dark', path: '/affiliates', name: '375-dark' },
      { width: 1440, scheme: 'light', path: '/affiliates', name: '1440-light' },
      { width: 1440, scheme: 'dark', path: '/affiliates', name: '1440-dark' },
      { width: 375, scheme: 'light', path: '/de/affiliates', name: 'de-375' },
      { width: 1440, scheme: 'dark', path: '/de/affiliates', name: 'de-1440-dark' },
    ] as const;
    await referrals();
    for (const { width, scheme, path, name } of cases) {
      const ctx = await signedIn(AFFILIATE, width, scheme);
      const { page, problems } = await open(ctx, path);
      await page.getByTestId('referral-row').first().waitFor();
      expect(await overflowsSideways(page), name).toBe(false);
      expect(await untranslatedKeys(page, KEYS), name).toEqual([]);
      await shot(page, name);
      expect(problems, name).toEqual([]);
      await ctx.close();
    }
  });
});

describe('joining the programme', () => {
  it('invites someone who is not an affiliate, and shows their screen once they join', async () => {
    const ctx = await signedIn(VENDOR, 375);
    const { page, problems } = await open(ctx, '/affiliates');
    const invitation = page.getByTestId('affiliate-invitation');
    expect(await invitation.locator('.aff-rate').allTextContents()).toEqual(['50%', '10%']);
    expect(await invitation.textContent()).toContain('move to your wallet from 0.0001 BTC or 1 USDT');
    expect(await page.getByTestId('affiliate-summary').count()).toBe(0);
    expect(await overflowsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'invitation-375');

    await invitation.getByRole('button', { name: 'Become an affiliate' }).click();
    await page.getByTestId('affiliate-summary').waitFor();
    expect(await page.getByTestId('affiliate-invitation').count()).toBe(0);
    expect(await page.getByTestId('referrals-empty').textContent()).toContain('Share your link');
    expect(await page.getByRole('button', { name: 'Move to wallet' }).isDisabled()).toBe(true);
    expect(live.server.row<{ on: number }>('SELECT is_affiliate AS "on" FROM users WHERE email = ?', VENDOR)?.on).toBe(
      1,
    );
    await shot(page, 'joined-375');
    expect(problems).toEqual([]);
    await ctx.close();
  });
});
