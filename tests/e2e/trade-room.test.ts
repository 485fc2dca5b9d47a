import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations, serverAndBrowser, untranslatedKeys } from './harness.ts';
import { browserPeople, type PersonBrowser, type StartableOffer, sepaOffer } from './people.ts';

// The trade room as a newcomer meets it (issue 22), the buyer and the vendor each in their own
// browser, both in a time zone the server is not in (Asia/Kolkata, UTC+5:30): a trade without
// payment details tells each side what to do, the vendor writes the details in the trade and the
// buyer's page shows them without a reload; no message key and no console error or hydration
// warning on any load; the dispute button appears by itself when the wait ends, by the server's
// clock even when the browser's is ten minutes slow. Screenshots at 375 and 1440 px, light and
// dark, German and Hebrew, as buyer and as seller: test-results/trade-room-*.png.

const live = serverAndBrowser({ DISPUTE_WAIT_MINUTES: '1' });
const VENDOR = 'vendor@example.com';
const BUYER = 'buyer@example.com';
const LIVE = { timeout: 15_000 };
const SHOTS = join(import.meta.dirname, '..', '..', 'test-results');
const AWAY: PersonBrowser = { timezoneId: 'Asia/Kolkata' };
const DETAILS = 'IBAN DE89 3704 0044 0532 0130 00\nErika Mustermann, reference: your username';

const people = browserPeople(live);
const { context, api, signedIn, fund } = people;

/** Console errors and warnings (hydration mismatches among them) of every page opened here. */
const consoleProblems: string[] = [];
const open = (ctx: BrowserContext, path: string, prepare?: (page: Page) => Promise<void>) =>
  people.open(ctx, path, consoleProblems, prepare);

let offer: StartableOffer | undefined;

/** The vendor's funded SEPA offer without written instructions (made once). */
async function offerWithoutInstructions(seller: BrowserContext) {
  if (!offer) {
    await fund(seller, VENDOR, '0.2');
    offer = await api<StartableOffer>(seller, '/rest/v1/offers', sepaOffer({ trade_instructions: '' }));
  }
  return offer;
}

async function newTrade(seller: BrowserContext, buyer: BrowserContext) {
  const started = await offerWithoutInstructions(seller);
  people.everyoneOnline(VENDOR, BUYER);
  return (await people.startTrade(buyer, started)).hash;
}

const chatLines = (page: Page) => page.locator('[data-message-text]').allTextContents();
/** Set once the page is open: a reload would forget it. */
const mark = (page: Page) => page.evaluate(() => Object.assign(window, { stillHere: true }));
const notReloaded = (page: Page) => page.evaluate(() => (window as { stillHere?: boolean }).stillHere === true);

describe('the trade room', () => {
  it('has the seller write the payment details in the trade, and the buyer sees them live', async () => {
    const seller = await signedIn(VENDOR, 1440, AWAY);
    const buyer = await signedIn(BUYER, 1440, AWAY);
    const hash = await newTrade(seller, buyer);
    // The vendor's chat line before the details: its time is shown in the reader's clock.
    await api(seller, `/rest/v1/trade/${hash}/messages`, { text: 'Hello! Details come in a minute.' });
    // A trade started before tags were a closed list keeps one that has no words.
    live.server.sql('UPDATE trades SET tags = ? WHERE hash = ?', '["friends-and-family","receipt-required"]', hash);

    const buyerPage = await open(buyer, `/trade/${hash}`);
    await mark(buyerPage);
    expect(await buyerPage.locator('[data-payment-details="empty"]').textContent()).toContain('asked to share');
    expect(await buyerPage.locator('[data-payment-details-form]').count()).toBe(0);
    expect(await buyerPage.locator('.trade-terms .offer-tags li').allTextContents()).toEqual(['Receipt required']);

    // The seller was told when the trade started.
    const inbox = await api<{ type: string; link: string }[]>(seller, '/rest/v1/notifications');
    expect(inbox).toContainEqual(
      expect.objectContaining({ type: 'trade_payment_details_missing', link: `/trade/${hash}` }),
    );

    const sellerPage = await open(seller, `/trade/${hash}`);
    expect(await sellerPage.locator('[data-payment-details="empty"]').textContent()).toContain('Write them below');
    await expect.poll(() => buyerPage.locator('[data-live]').getAttribute('data-live'), LIVE).toBe('live');
    const form = sellerPage.locator('[data-payment-details-form="open"]');
    await form.getByLabel('Payment details for the buyer').fill(DETAILS);
    expect(await seriousViolations(sellerPage, '.trade-payment')).toEqual([]);
    await form.locator('[data-save-payment-details]').click();
    await sellerPage.locator('[data-payment-details-saved]').waitFor(LIVE);
    expect(await sellerPage.locator('[data-payment-details="shown"]').textContent()).toBe(DETAILS);

    // The buyer's page follows without a reload: the details, and the chat's line.
    await expect.poll(() => buyerPage.locator('[data-payment-details="shown"]').textContent(), LIVE).toBe(DETAILS);
    expect(await buyerPage.locator('[data-payment-details="empty"]').count()).toBe(0);
    await expect.poll(() => chatLines(buyerPage), LIVE).toContain('The seller added the payment details.');

    // A correction replaces them, and the chat says so.
    await sellerPage.locator('[data-edit-payment-details]').click();
    const again = sellerPage.locator('[data-payment-details-form="open"] textarea');
    expect(await again.inputValue()).toBe(DETAILS);
    await again.fill(`${DETAILS}\nBIC COBADEFFXXX`);
    await sellerPage.locator('[data-save-payment-details]').click();
    await expect
      .poll(() => buyerPage.locator('[data-payment-details="shown"]').textContent(), LIVE)
      .toContain('BIC COBADEFFXXX');
    await expect
      .poll(() => chatLines(buyerPage), LIVE)
      .toContain('The seller changed the payment details. Check them before you pay.');
    expect(await notReloaded(buyerPage)).toBe(true);
    mkdirSync(SHOTS, { recursive: true });
    await buyerPage.locator('.trade-payment').screenshot({ path: join(SHOTS, 'trade-room-buyer-details-1440.png') });
    await sellerPage.locator('.trade-payment').screenshot({ path: join(SHOTS, 'trade-room-seller-details-1440.png') });

    for (const page of [buyerPage, sellerPage]) expect(await untranslatedKeys(page)).toEqual([]);
    expect(consoleProblems).toEqual([]);
    await Promise.all([seller.close(), buyer.close()]);
  });

  it('shows the dispute button when the wait ends, by the server’s clock, without a reload', async () => {
    const seller = await signedIn(VENDOR, 1440, AWAY);
    const buyer = await signedIn(BUYER, 1440, AWAY);
    const hash = await newTrade(seller, buyer);
    await api(buyer, `/rest/v1/trade/${hash}/paid`, {});
    // The one-minute wait ends 8 seconds from now.
    live.server.sql('UPDATE trades SET paid_at = ? WHERE hash = ?', Date.now() - 52_000, hash);

    // This browser's clock is ten minutes slow: by it, the wait would end ten minutes late.
    const page = await open(buyer, `/trade/${hash}`, (p) => p.clock.install({ time: Date.now() - 10 * 60_000 }));
    await mark(page);
    await page.locator('[data-dispute-later]').waitFor(LIVE);
    expect(await page.locator('[data-action="open-dispute"]').count()).toBe(0);
    // Two seconds on, by the server's clock the wait still runs.
    await page.waitForTimeout(2000);
    expect(await page.locator('[data-action="open-dispute"]').count()).toBe(0);

    await page.locator('[data-action="open-dispute"]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-dispute-later]').count()).toBe(0);
    expect(await notReloaded(page)).toBe(true);
    expect(consoleProblems).toEqual([]);
    await Promise.all([seller.close(), buyer.close()]);
  });

  // Sixteen page loads: on a busy machine, more than the default minute.
  it('looks right at 375 and 1440 px, light and dark, in German and Hebrew, for buyer and seller', {
    timeout: 300_000,
  }, async () => {
    mkdirSync(SHOTS, { recursive: true });
    const seller = await signedIn(VENDOR, 1440);
    const buyer = await signedIn(BUYER, 1440);
    const hash = await newTrade(seller, buyer);
    await api(buyer, `/rest/v1/trade/${hash}/messages`, { text: 'Hallo, wohin soll ich zahlen? www.example.com' });
    for (const [who, from] of [
      ['buyer', buyer],
      ['seller', seller],
    ] as const) {
      for (const lang of ['de', 'he']) {
        for (const width of [375, 1440]) {
          for (const colorScheme of ['light', 'dark'] as const) {
            const ctx = await context(width, { colorScheme, ...AWAY });
            await ctx.addCookies(await from.cookies());
            const page = await open(ctx, `/${lang}/trade/${hash}`);
            await page.locator('[data-payment-details="empty"]').waitFor(LIVE);
            await page.screenshot({
              path: join(SHOTS, `trade-room-${who}-${lang}-${width}-${colorScheme}.png`),
              fullPage: true,
            });
            // Nothing may overflow sideways.
            expect(
              await page.evaluate(() => document.documentElement.scrollWidth),
              `${who} ${lang} ${width}`,
            ).toBeLessThanOrEqual(width);
            expect(await untranslatedKeys(page), `${who} ${lang}`).toEqual([]);
            await ctx.close();
          }
        }
      }
    }
    expect(consoleProblems).toEqual([]);
    await Promise.all([seller.close(), buyer.close()]);
  });
});
