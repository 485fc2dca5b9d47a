import { generateSync } from 'otplib';
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { seriousViolations, serverAndBrowser, untranslatedKeys } from './harness.ts';
import { browserPeople } from './people.ts';
import { overflowsSideways, screenshotter, shotPath } from './screen-checks.ts';

// Trades as people meet them in Chromium, with the buyer, the seller and a moderator each in
// their own browser context on the same server: a trade started from the offer page, the chat
// both ways live, an external link behind its warning, a proof for the offer's requirement and
// its approval, mark paid, release with the seller's second factor and feedback; a dispute
// decided by a moderator, with its clocks (answered, taken, escalated by the leader's job), in
// English, German and Hebrew, light and dark; and a trade whose payment window runs out.
// DISPUTE_WAIT_MINUTES=0 lets a dispute open as soon as the trade is paid. Screenshots
// (screenshots/trade-*.png, git-ignored) at 375, 1280 and 1440 px are for a person to look at.

const live = serverAndBrowser({ DISPUTE_WAIT_MINUTES: '0' });
const VENDOR = 'vendor@example.com';
const BUYER = 'buyer@example.com';
const MODERATOR = 'moderator@example.com';
/** Server events arrive within a second; the expiry job runs every 5 s. */
const LIVE = { timeout: 10_000 };

const people = browserPeople(live);
const { context, api, signedIn, fund } = people;

async function open(ctx: BrowserContext, path: string): Promise<Page> {
  const page = await ctx.newPage();
  await page.goto(live.server.url + path);
  await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
  return page;
}

/** Everyone who trades here online now, so the start gate lets trades start. */
function everyoneOnline() {
  live.server.sql(
    "UPDATE users SET last_seen_at = ? WHERE email IN ('vendor@example.com', 'buyer@example.com', 'moderator@example.com')",
    Date.now(),
  );
}

/** Coins on the vendor's wallet (0.05 BTC unless told). */
const fundVendor = (vendor: BrowserContext, amount = '0.05', currency: 'BTC' | 'USDT' = 'BTC') =>
  fund(vendor, VENDOR, amount, currency);

async function publish(vendor: BrowserContext, overrides: Record<string, unknown> = {}) {
  return api<{ hash: string; originalData: string; fiatPricePerCrypto: number }>(vendor, '/rest/v1/offers', {
    type: 'sell',
    crypto_currency_code: 'BTC',
    currency: 'USD',
    payment_method: 'bank-transfer',
    price_type: 'fixed',
    fixed_price: '100000',
    fiat_min: '50',
    fiat_max: '1000',
    payment_window: 30,
    terms: 'Pay from an account in your own name. No third parties.',
    trade_instructions: 'IBAN DE89 3704 0044 0532 0130 00\nReference: your username',
    ...overrides,
  });
}

/** The dispute's running clocks on the page, by step (answer, take, decision). */
const clocksOf = (page: Page) =>
  page
    .locator('[data-dispute-clock] [data-clock]')
    .evaluateAll((items) => items.map((li) => li.getAttribute('data-clock')));
/** The escalation job looks every 15 s. */
const ESCALATION = { timeout: 40_000 };

const statusOf = (page: Page) => page.locator('[data-trade]').getAttribute('data-status');
const messageTexts = (page: Page) => page.locator('[data-message-text]').allTextContents();

const shot = screenshotter('trade', 'screenshots');

describe('the trade page', () => {
  it('runs a trade from the offer page to release with 2FA and feedback, both parties live', async () => {
    const seller = await signedIn(VENDOR, 1280);
    await fundVendor(seller);
    // The seller protects releases with an authenticator app.
    const { secret } = await api<{ secret: string }>(seller, '/rest/v1/users/2fa/setup', {});
    const epoch = () => Math.floor(Date.now() / 1000);
    await api(seller, '/rest/v1/users/2fa/confirm', { code: generateSync({ secret, epoch: epoch() - 30 }) });
    // For releases only: the other tests sign the vendor in with the password alone.
    await api(seller, '/rest/v1/users/2fa/purposes', {
      login: false,
      sendout: false,
      release: true,
      code: generateSync({ secret, epoch: epoch() }),
    });
    const offer = await publish(seller, {
      trade_requirements: [{ kind: 'receipt', stage: 'before_paid', optional: false }],
    });
    everyoneOnline();

    // The buyer starts from the offer page and lands on the trade page.
    const buyer = await signedIn(BUYER, 1280);
    const offerPage = await open(buyer, `/offers/${offer.hash}`);
    await offerPage.locator('.start-submit').click();
    // A warning of the decision order (chargeback risk for bank transfers) comes first.
    const modal = offerPage.locator('dialog.offer-modal[open]');
    await modal.or(offerPage.locator('[data-trade]')).first().waitFor(LIVE);
    if (await modal.isVisible()) await modal.locator('.btn-primary').click();
    await offerPage.waitForURL(/\/trade\/[0-9A-Za-z]+$/);
    const buyerPage = offerPage;
    const hash = new URL(buyerPage.url()).pathname.split('/').pop() as string;
    expect(await statusOf(buyerPage)).toBe('active_funded');
    expect(await buyerPage.locator('[data-countdown]').textContent()).toMatch(/\d\d:\d\d/);
    expect(await buyerPage.locator('[data-payment-details="shown"]').textContent()).toContain('IBAN');

    const sellerPage = await open(seller, `/trade/${hash}`);
    expect(await sellerPage.locator('[data-trade]').getAttribute('data-role')).toBe('seller');
    await expect.poll(() => buyerPage.locator('[data-live]').getAttribute('data-live'), LIVE).toBe('live');
    await expect.poll(() => sellerPage.locator('[data-live]').getAttribute('data-live'), LIVE).toBe('live');

    // Chat both ways, live; text stays text.
    await buyerPage.locator('.trade-composer textarea').fill('Hello! <b>Paying</b> now.');
    await buyerPage.locator('.trade-composer button[type="submit"]').click();
    await expect.poll(() => messageTexts(sellerPage), LIVE).toContain('Hello! <b>Paying</b> now.');
    expect(await sellerPage.locator('.trade-messages b').count()).toBe(0);
    await sellerPage.locator('.trade-composer textarea').fill('Thanks. My bank: https://bank.example.org/help');
    await sellerPage.locator('.trade-composer textarea').press('Enter');
    await expect.poll(() => messageTexts(buyerPage), LIVE).toContain('Thanks. My bank: https://bank.example.org/help');
    // A link that leaves the site shows the warning first.
    await buyerPage.locator('a[data-external]').click();
    const warning = buyerPage.locator('dialog.trade-modal[open]');
    expect(await warning.locator('[data-external-url]').textContent()).toBe('https://bank.example.org/help');
    await warning.getByRole('button', { name: 'Stay here' }).click();
    expect(await buyerPage.locator('dialog.trade-modal[open]').count()).toBe(0);
    // System lines in the reader's language.
    expect(await messageTexts(buyerPage)).toContain("The trade started. The seller's crypto is held in escrow.");

    // The receipt is required before marking paid: upload it, the seller approves it.
    expect(await buyerPage.locator('[data-action="mark-paid"]').count()).toBe(0);
    expect(await buyerPage.locator('[data-blocked-by="requirements"]').isVisible()).toBe(true);
    const receipt = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#2c3e50' } })
      .png()
      .toBuffer();
    await buyerPage
      .locator('[data-upload-requirement]')
      .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: receipt });
    await expect.poll(() => buyerPage.locator('.trade-requirement').getAttribute('data-status'), LIVE).toBe('uploaded');
    await expect.poll(() => sellerPage.locator('[data-review]').getAttribute('data-review'), LIVE).toBe('pending');
    await expect.poll(() => sellerPage.locator('.trade-messages img').count(), LIVE).toBe(1);
    await shot(sellerPage, 'seller-1280');
    expect(await seriousViolations(sellerPage)).toEqual([]);
    await sellerPage.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => buyerPage.locator('[data-review]').getAttribute('data-review'), LIVE).toBe('approved');

    // Mark paid: the seller's page follows live.
    await buyerPage.locator('[data-action="mark-paid"]').click();
    await buyerPage.locator('dialog.trade-modal[open] button[type="submit"]').click();
    await expect.poll(() => statusOf(buyerPage), LIVE).toBe('paid');
    await expect.poll(() => statusOf(sellerPage), LIVE).toBe('paid');
    await shot(buyerPage, 'buyer-1280');
    expect(await seriousViolations(buyerPage)).toEqual([]);

    // Release asks for the code: a wrong one shows the server's message, the right one releases.
    await sellerPage.locator('[data-action="release"]').click();
    const dialog = sellerPage.locator('dialog.trade-modal[open]');
    await dialog.locator('[data-release-code]').fill('000000');
    await dialog.locator('button[type="submit"]').click();
    await expect.poll(() => dialog.locator('[data-release-error]').textContent(), LIVE).toMatch(/code/i);
    await dialog.locator('[data-release-code]').fill(generateSync({ secret, epoch: epoch() + 30 }));
    await dialog.locator('button[type="submit"]').click();
    await expect.poll(() => statusOf(sellerPage), LIVE).toBe('released');
    await expect.poll(() => statusOf(buyerPage), LIVE).toBe('released');
    // The status and the chat line are fetched side by side: the line may land a moment later.
    await expect
      .poll(() => messageTexts(buyerPage), LIVE)
      .toContain('The seller released the crypto to the buyer. The trade is complete.');

    // Feedback once it is over.
    const form = buyerPage.locator('[data-feedback] form');
    await form.waitFor(LIVE);
    await form.locator('textarea').fill('Quick and friendly, thank you.');
    await form.locator('button[type="submit"]').click();
    await buyerPage.locator('[data-feedback-saved], [data-feedback-given]').first().waitFor(LIVE);
    await shot(buyerPage, 'ended-1280');
    expect(await seriousViolations(buyerPage)).toEqual([]);

    const phone = await context(375);
    await phone.addCookies(await buyer.cookies());
    const small = await open(phone, `/trade/${hash}`);
    await shot(small, 'ended-375');
    const hebrew = await open(phone, `/he/trade/${hash}`);
    expect(await hebrew.locator('html').getAttribute('dir')).toBe('rtl');
    await shot(hebrew, 'ended-he-375');
    // Nothing may overflow sideways on a phone.
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await Promise.all([seller.close(), buyer.close(), phone.close()]);
  });

  it('goes through a dispute that a moderator decides from the queue', async () => {
    const seller = await signedIn(VENDOR, 1280);
    const buyer = await signedIn(BUYER, 375);
    everyoneOnline();
    const offer = await publish(seller);
    const { hash } = await people.startTrade(buyer, offer);
    const buyerPage = await open(buyer, `/trade/${hash}`);
    await shot(buyerPage, 'buyer-375');
    expect(await buyerPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const sellerPage = await open(seller, `/trade/${hash}`);
    await shot(sellerPage, 'seller-waiting-1280');
    await buyerPage.locator('[data-action="mark-paid"]').click();
    await buyerPage.locator('dialog.trade-modal[open] button[type="submit"]').click();
    await expect.poll(() => statusOf(sellerPage), LIVE).toBe('paid');

    // With no waiting time the form is there at once; reasons are the buyer's.
    await buyerPage.locator('[data-action="open-dispute"]').click();
    const form = buyerPage.locator('[data-dispute-form]');
    const reasons = await form
      .locator('select option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(reasons).toContain('paid_not_released');
    expect(reasons).not.toContain('payment_not_received');
    await form.locator('select').selectOption('paid_not_released');
    await form.locator('textarea').fill('I paid an hour ago and sent the receipt.');
    await form.locator('button[type="submit"]').click();
    await expect.poll(() => statusOf(buyerPage), LIVE).toBe('dispute_open');
    await expect.poll(() => statusOf(sellerPage), LIVE).toBe('dispute_open');
    // Both parties see the dispute's clocks: the seller's answer and a moderator's take (issue 24).
    expect(await clocksOf(buyerPage)).toEqual(['answer', 'take']);
    expect(await buyerPage.locator('[data-clock="answer"] .trade-clock-label').textContent()).toBe(
      'Answer from vendor',
    );
    await expect.poll(() => clocksOf(sellerPage), LIVE).toEqual(['answer', 'take']);
    expect(await sellerPage.locator('[data-clock="answer"] .trade-clock-label').textContent()).toBe('Your answer');
    expect(await buyerPage.locator('[data-clock="take"] [role="timer"]').textContent()).toMatch(/\d:\d\d:\d\d/);
    // The seller's answer in the chat stops their clock on both pages.
    await sellerPage.locator('.trade-composer textarea').fill('I have not received the payment yet.');
    await sellerPage.locator('.trade-composer button[type="submit"]').click();
    await expect.poll(() => clocksOf(buyerPage), LIVE).toEqual(['take']);
    await expect.poll(() => clocksOf(sellerPage), LIVE).toEqual(['take']);
    await buyerPage.locator('.trade-composer textarea').fill('Only for moderators: here is my bank statement.');
    await buyerPage.locator('.trade-for-moderator input').check();
    await buyerPage.locator('.trade-composer button[type="submit"]').click();
    await expect.poll(() => messageTexts(buyerPage), LIVE).toContain('Only for moderators: here is my bank statement.');

    // The moderator finds it in the queue, reads both sides and the moderator-only line.
    const moderator = await signedIn(MODERATOR, 1280);
    const queue = await moderator.newPage();
    await queue.goto(`${live.server.url}/moderation/disputes`);
    await queue.locator(`[data-dispute="${hash}"] a`).click();
    await queue.waitForURL(new RegExp(`/trade/${hash}$`));
    await queue.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
    const modPage = queue;
    expect(await modPage.locator('[data-trade]').getAttribute('data-role')).toBe('moderator');
    expect(await messageTexts(modPage)).toContain('Only for moderators: here is my bank statement.');
    expect(await messageTexts(sellerPage)).not.toContain('Only for moderators: here is my bank statement.');
    await modPage
      .locator('.trade-composer textarea')
      .fill('I am looking into this. Seller, please check your account.');
    await modPage.locator('.trade-composer button[type="submit"]').click();
    await expect
      .poll(() => messageTexts(sellerPage), LIVE)
      .toContain('I am looking into this. Seller, please check your account.');
    // The moderator takes it: the parties' clocks now wait on their decision, live.
    expect(await clocksOf(modPage)).toEqual(['take']);
    await modPage.locator('[data-action="take"]').click();
    await modPage.locator('[data-taken-by]').waitFor(LIVE);
    expect(await modPage.locator('[data-action="take"]').count()).toBe(0);
    // The seller answered in the chat (above): only the moderator's decision is left to wait for.
    await expect.poll(() => clocksOf(buyerPage), LIVE).toEqual(['decision']);
    expect(await buyerPage.locator('[data-taken-by]').textContent()).toBe('Taken by moderator');
    expect(await modPage.locator('[data-clock="decision"] .trade-clock-label').textContent()).toBe('Your decision');
    await shot(modPage, 'moderator-1280');
    expect(await seriousViolations(modPage)).toEqual([]);
    const modPhone = await context(375);
    await modPhone.addCookies(await moderator.cookies());
    await shot(await open(modPhone, `/trade/${hash}`), 'moderator-375');

    // The moderator lets the decision's deadline pass: the leader's job (every 15 s) escalates it back
    // to every moderator, and both parties' pages show it without a reload.
    live.server.sql('UPDATE trades SET dispute_decision_due_at = ? WHERE hash = ?', Date.now() - 1000, hash);
    await expect.poll(() => buyerPage.locator('[data-dispute-clock]').getAttribute('data-level'), ESCALATION).toBe('1');
    await expect.poll(() => sellerPage.locator('[data-escalated]').count(), LIVE).toBe(1);
    expect(await clocksOf(buyerPage)).toEqual(['take']);
    expect(await messageTexts(buyerPage)).toContain(
      'No moderator acted in time: every moderator has been called to the dispute.',
    );
    await shot(buyerPage, 'buyer-escalated-375');
    // The queue shows it escalated, with its new take deadline.
    await queue.goto(`${live.server.url}/moderation/disputes`);
    const item = queue.locator(`[data-dispute="${hash}"]`);
    expect(await item.locator('[data-level="1"]').count()).toBe(1);
    expect(await item.locator('[data-due]').textContent()).toMatch(/To be taken by \w/);
    await shot(queue, 'queue-escalated-1280');
    expect(await seriousViolations(queue)).toEqual([]);
    await queue.goto(`${live.server.url}/trade/${hash}`);
    await queue.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
    await modPage.locator('[data-action="resolve-buyer"]').waitFor(LIVE);
    await modPage.locator('[data-action="resolve-buyer"]').click();
    await modPage.locator('dialog.trade-modal[open] button[type="submit"]').click();
    await expect.poll(() => statusOf(modPage), LIVE).toBe('dispute_won_buyer');
    await expect.poll(() => statusOf(buyerPage), LIVE).toBe('dispute_won_buyer');
    await expect.poll(() => statusOf(sellerPage), LIVE).toBe('dispute_won_buyer');
    expect(await modPage.locator('[data-action="reopen"]').count()).toBe(0);
    await Promise.all([seller.close(), buyer.close(), moderator.close(), modPhone.close()]);
  });

  it('shows a dispute’s clocks in English, German and Hebrew at 375 and 1440 px, light and dark', async () => {
    const seller = await signedIn(VENDOR, 1440);
    const buyer = await signedIn(BUYER, 1440);
    everyoneOnline();
    const { hash } = await people.startTrade(buyer, await publish(seller));
    await api(buyer, `/rest/v1/trade/${hash}/paid`, {});
    await api(buyer, `/rest/v1/trade/${hash}/dispute`, {
      dispute_reason_id: 'paid_not_released',
      dispute_reason_text: 'I paid and sent the receipt.',
    });
    // One signed-in browser: the page reloads per language, the viewport and the theme change in place.
    const reader = await signedIn(BUYER, 375);
    const problems: string[] = [];
    for (const locale of ['en', 'de', 'he'] as const) {
      const page = await people.open(reader, `${locale === 'en' ? '' : `/${locale}`}/trade/${hash}`, problems);
      const clock = page.locator('[data-dispute-clock]');
      await clock.waitFor(LIVE);
      for (const width of [375, 1440])
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.setViewportSize({ width, height: 900 });
          // The theme as the system's preference or the header's toggle sets it.
          await page.emulateMedia({ colorScheme });
          await page.evaluate((theme) => {
            document.documentElement.dataset.theme = theme;
          }, colorScheme);
          const name = `${locale}-${width}-${colorScheme}`;
          expect(await clocksOf(page), name).toEqual(['answer', 'take']);
          expect(await untranslatedKeys(page), name).toEqual([]);
          expect(await overflowsSideways(page), name).toBe(false);
          expect(await seriousViolations(page, '[data-dispute-clock]'), name).toEqual([]);
          await clock.scrollIntoViewIfNeeded();
          await shot(page, `dispute-clock-page-${name}`, false);
          await clock.screenshot({ path: shotPath(`trade-dispute-clock-${name}.png`, 'screenshots') });
        }
      await page.close();
    }
    expect(problems).toEqual([]);
    await reader.close();
    await Promise.all([seller.close(), buyer.close()]);
  });

  it('shows the trade cancelled when its payment window runs out, and the active trades table follows live', async () => {
    const seller = await signedIn(VENDOR, 1280);
    const buyer = await signedIn(BUYER, 1280);
    everyoneOnline();
    const offer = await publish(seller);
    // The seller watches the trades screen: rows come and go without a reload (30 s timer aside).
    const tradesPage = await open(seller, '/trades');
    const bell = tradesPage.getByTestId('notification-bell');
    await expect.poll(() => bell.getAttribute('data-connection'), LIVE).toBe('subscribed');
    const { hash } = await people.startTrade(buyer, offer);
    const row = tradesPage.getByTestId('active-trades').locator(`[data-trade="${hash}"]`);
    await expect.poll(() => row.count(), LIVE).toBe(1);
    const page = await open(buyer, `/trade/${hash}`);
    expect(await statusOf(page)).toBe('active_funded');
    live.server.sql('UPDATE trades SET expires_at = ? WHERE hash = ?', Date.now() + 3000, hash);
    await expect.poll(() => statusOf(page), { timeout: 20_000 }).toBe('cancelled_system');
    expect(await page.locator('[data-countdown]').count()).toBe(0);
    expect(await messageTexts(page)).toContain('The payment window closed without payment. The trade was cancelled.');
    await expect.poll(() => row.count(), LIVE).toBe(0);
    await Promise.all([seller.close(), buyer.close()]);
  });

  it("starts a tether trade from the offer page (amounts at tether's 6 decimals)", async () => {
    const seller = await signedIn(VENDOR, 1280);
    await fundVendor(seller, '500', 'USDT');
    // A price whose quotient has more than 6 decimals: 100 / 0.93 = 107.526881…
    const offer = await publish(seller, { crypto_currency_code: 'USDT', fixed_price: '0.93' });
    everyoneOnline();
    const buyer = await signedIn(BUYER, 1280);
    const offerPage = await open(buyer, `/offers/${offer.hash}`);
    await offerPage.locator('.start-inputs input').first().fill('100');
    await offerPage.locator('.start-submit').click();
    const modal = offerPage.locator('dialog.offer-modal[open]');
    await modal.or(offerPage.locator('[data-trade]')).first().waitFor(LIVE);
    if (await modal.isVisible()) await modal.locator('.btn-primary').click();
    await offerPage.waitForURL(/\/trade\/[0-9A-Za-z]+$/);
    expect(await statusOf(offerPage)).toBe('active_funded');
    const hash = new URL(offerPage.url()).pathname.split('/').pop() as string;
    expect((await api<{ cryptoAmount: string }>(buyer, `/rest/v1/trade/${hash}`)).cryptoAmount).toBe('107.526882');
    await Promise.all([seller.close(), buyer.close()]);
  });

  it('sends visitors to sign in, strangers to not found', async () => {
    const visitor = await context(1280);
    const res = await visitor.request.get(`${live.server.url}/trade/abcdef123`, { maxRedirects: 0 });
    expect(res.status()).toBe(303);
    expect(res.headers().location).toBe('/login?back=%2Ftrade%2Fabcdef123');
    const stranger = await signedIn('affiliate@example.com', 1280);
    expect((await stranger.request.get(`${live.server.url}/trade/abcdef123`)).status()).toBe(404);
    expect((await stranger.request.get(`${live.server.url}/moderation/disputes`)).status()).toBe(404);
    await Promise.all([visitor.close(), stranger.close()]);
  });
});
