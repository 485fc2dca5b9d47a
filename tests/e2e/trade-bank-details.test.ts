import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations, serverAndBrowser } from './harness.ts';
import { browserPeople, type StartableOffer, sepaOffer } from './people.ts';
import { screenshotter, shotPath } from './screen-checks.ts';

// Bank details in a bank-transfer trade (issue 19; docs/bank-accounts.md, "In a trade"), the buyer
// and the vendor each in their own browser context: a SEPA offer without written instructions, so
// both are told what to do instead of an empty box; the vendor's saved accounts (two in euros, one
// in dollars listed as not matching); the vendor shares one from the trade page and the buyer sees
// it without reloading, then the vendor shares the other instead; the buyer copies the IBAN.
// Screenshots at 375 and 1440 px, light and dark, go to test-results/trade-bank-*.png.

const live = serverAndBrowser();
const VENDOR = 'vendor@example.com';
const BUYER = 'buyer@example.com';
const LIVE = { timeout: 10_000 };
const FIRST_IBAN = 'DE89370400440532013000';
const SECOND_IBAN = 'DE02120300000000202051';

const people = browserPeople(live);
const { context, api, signedIn, fund } = people;

/** Console errors and warnings (hydration mismatches among them) of every page opened here. */
const consoleProblems: string[] = [];

const open = (ctx: BrowserContext, path: string) => people.open(ctx, path, consoleProblems);

/** The vendor's saved accounts, through the API as the bank accounts page would save them. */
async function saveAccounts(seller: BrowserContext) {
  const countries = await api<{ id: number; iso: string }[]>(seller, '/rest/v1/countries');
  const currencies = await api<{ id: number; code: string }[]>(seller, '/rest/v1/currencies');
  const country = (iso: string) => countries.find((c) => c.iso === iso)?.id;
  const currency = (code: string) => currencies.find((c) => c.code === code)?.id;
  const euros = (iban: string, holder: string) => ({
    fiat_currency_id: currency('EUR'),
    holder_name: holder,
    is_personal: true,
    country_id: country('DE'),
    sepa: { iban },
  });
  await api(seller, '/rest/v1/bankaccounts', euros(FIRST_IBAN, 'Erika Mustermann'));
  await api(seller, '/rest/v1/bankaccounts', euros(SECOND_IBAN, 'Erika Mustermann'));
  await api(seller, '/rest/v1/bankaccounts', {
    fiat_currency_id: currency('USD'),
    holder_name: 'Erika Mustermann',
    is_personal: true,
    country_id: country('US'),
    account_number: '000123456789',
    routing_number: '021000021',
  });
}

/** A funded vendor's SEPA sell offer in euros at a fixed price, with no instructions written. */
async function fundedSepaOffer(seller: BrowserContext) {
  await fund(seller, VENDOR);
  return api<StartableOffer>(seller, '/rest/v1/offers', sepaOffer({ trade_instructions: '' }));
}

const bankValue = (page: Page, field: string) =>
  page
    .locator(`[data-bank-field="${field}"] [data-bank-value]`)
    .textContent({ timeout: 1000 })
    .catch(() => null);

const shot = screenshotter('trade-bank');

async function shots(from: BrowserContext, hash: string, who: string) {
  for (const width of [375, 1440]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      const ctx = await context(width, { colorScheme });
      await ctx.addCookies(await from.cookies());
      const page = await open(ctx, `/trade/${hash}`);
      await page.locator('[data-bank-account]').waitFor(LIVE);
      await shot(page, `${who}-${width}-${colorScheme}`);
      // Nothing may overflow sideways on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await ctx.close();
    }
  }
}

describe('bank details in the trade room', () => {
  // Eight page loads for the screenshots besides the flow: more than the default minute on a busy machine.
  it('lets the seller share a saved account that the buyer sees live and copies', { timeout: 240_000 }, async () => {
    const seller = await signedIn(VENDOR, 1440);
    const offer = await fundedSepaOffer(seller);
    people.everyoneOnline(VENDOR, BUYER);
    const buyer = await signedIn(BUYER, 1440);
    await buyer.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: live.server.url });
    const { hash } = await people.startTrade(buyer, offer);

    // No instructions and nothing shared: each side is told what to do.
    const buyerPage = await open(buyer, `/trade/${hash}`);
    expect(await buyerPage.locator('[data-payment-details="empty"]').textContent()).toContain('asked to share');
    expect(await buyerPage.locator('[data-bank-share]').count()).toBe(0);
    await buyerPage.locator('.trade-payment').screenshot({ path: shotPath('trade-bank-buyer-empty-1440.png') });
    const sellerPage = await open(seller, `/trade/${hash}`);
    expect(await sellerPage.locator('[data-payment-details="empty"]').textContent()).toContain(
      'share your bank details',
    );
    // No saved account yet: the way to the bank accounts page.
    await sellerPage.locator('[data-no-bank-account]').waitFor(LIVE);
    expect(await sellerPage.locator('[data-add-bank-account]').getAttribute('href')).toBe('/bank-accounts');
    await saveAccounts(seller);
    await sellerPage.reload();
    await expect.poll(() => buyerPage.locator('[data-live]').getAttribute('data-live'), LIVE).toBe('live');

    // The chooser: both euro accounts, the dollar one listed but not selectable; the first picked.
    const share = sellerPage.locator('[data-bank-share="ready"]');
    await share.waitFor(LIVE);
    const radios = share.locator('input[type="radio"]');
    expect(await radios.count()).toBe(3);
    expect(await share.locator('input[type="radio"]:disabled').count()).toBe(1);
    expect(await share.textContent()).toContain('Not in EUR');
    expect(await share.locator('input[type="radio"]:checked').count()).toBe(1);
    const choice = (bank: RegExp) => share.locator('label', { hasText: bank }).locator('input');
    await choice(/Commerzbank/i).check();
    expect(await seriousViolations(sellerPage)).toEqual([]);
    await sellerPage.locator('.trade-payment').screenshot({ path: shotPath('trade-bank-seller-chooser-1440.png') });

    await sellerPage.locator('[data-share-bank-account]').click();
    await sellerPage.locator('[data-bank-shared]').waitFor(LIVE);
    // The buyer's page follows without a reload.
    await expect.poll(() => bankValue(buyerPage, 'iban'), LIVE).toBe('DE89 3704 0044 0532 0130 00');
    expect(await bankValue(buyerPage, 'bank')).toMatch(/Commerzbank/i);
    expect(await bankValue(buyerPage, 'holder')).toBe('Erika Mustermann');
    expect(await bankValue(buyerPage, 'currency')).toBe('EUR');
    expect(await buyerPage.locator('[data-payment-details="empty"]').count()).toBe(0);

    // Sharing again replaces what the buyer sees.
    // The other euro account: enabled, not the one shared.
    await share.locator('input[type="radio"]:enabled:not(:checked)').check();
    await sellerPage.getByRole('button', { name: 'Share this one instead' }).click();
    await expect.poll(() => bankValue(buyerPage, 'iban'), LIVE).toBe('DE02 1203 0000 0000 2020 51');

    // The buyer copies the IBAN: without spaces, with a visible "Copied".
    const copy = buyerPage.locator('[data-copy="iban"]');
    await copy.click();
    await expect.poll(() => copy.getAttribute('data-copied'), LIVE).toBe('true');
    expect(await copy.textContent()).toBe('Copied');
    expect(await buyerPage.evaluate(() => navigator.clipboard.readText())).toBe(SECOND_IBAN);
    expect(await seriousViolations(buyerPage)).toEqual([]);

    await shots(buyer, hash, 'buyer');
    await shots(seller, hash, 'seller');
    expect(consoleProblems).toEqual([]);
    await Promise.all([seller.close(), buyer.close()]);
  });
});
