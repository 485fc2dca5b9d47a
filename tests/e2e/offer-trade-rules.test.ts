import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { fundOnServer } from '../support/offer-funds.ts';
import { seriousViolations, serverAndBrowser, untranslatedKeys } from './harness.ts';
import { browserPeople } from './people.ts';
import { messageKeys, overflowsSideways } from './screen-checks.ts';

// The offer editor's "During the trade" card in Chromium (issue 22): a vendor sets gold terms,
// the skipped buyers' warning and a proof through the editor, finds them again when editing, and
// a buyer who opens the offer meets the payment-terms warning (or, with the warning skipped, no
// warning at all) and then the proof to upload in the trade. Screenshots of the card at 375 and
// 1440 px, light and dark, in English, German and Hebrew go to test-results/offer-trade-rules/.

const live = serverAndBrowser();
const people = browserPeople(live);
const VENDOR = 'vendor@example.com';
const BUYER = 'buyer@example.com';
const SHOTS = join(import.meta.dirname, '..', '..', 'test-results', 'offer-trade-rules');
mkdirSync(SHOTS, { recursive: true });
const LIVE = { timeout: 10_000 };
const KEYS = messageKeys('offerEditor', 'errors', 'trade', 'offer');
const CARD = 'section[aria-labelledby="offer-trade-rules-title"]';

// The vendor's sell offers need coins behind them to be started (decision 121).
beforeAll(() => fundOnServer(live.server, `email = '${VENDOR}'`));

/** The offer's trade and price in the editor: EUR by SEPA, 50 to 500, at the market. */
async function fillBasics(page: Page) {
  await page.locator('#offer-currency').fill('euro');
  await page.locator('input[name="currency"][value="EUR"]').check();
  await page.locator('#offer-payment_method').fill('SEPA');
  await page.locator('input[name="payment_method"][value="sepa"]').check();
  await page.locator('#offer-fiat_min').fill('50');
  await page.locator('#offer-fiat_max').fill('500');
}

/** Publishes the editor's form and answers the new offer's hash (read on its way to the page). */
async function publish(page: Page): Promise<string> {
  let answer: { status: number; body: string } | undefined;
  await page.route(
    (url) => url.pathname === '/rest/v1/offers',
    async (route) => {
      const response = await route.fetch();
      answer = { status: response.status(), body: await response.text() };
      await route.fulfill({ response });
    },
  );
  await page.getByRole('button', { name: 'Publish the offer' }).click();
  await page.waitForURL(`${live.server.url}/my-offers?done=created`);
  await page.unrouteAll();
  expect(answer?.status, answer?.body).toBe(201);
  return (JSON.parse(answer?.body ?? '{}') as { data: { hash: string } }).data.hash;
}

const proofRow = (page: Page, i: number) => page.locator(`[data-proof="${i}"]`);

/** The buyer's side: the offer page's start, its warning if any, and the trade with the proof to upload. */
async function startAndUpload(buyer: BrowserContext, hash: string, warning: string | null, problems: string[]) {
  people.everyoneOnline(VENDOR, BUYER);
  const page = await people.open(buyer, `/offers/${hash}`, problems);
  await page.locator('.start-submit').click();
  const modal = page.locator('dialog.offer-modal[open]');
  if (warning) {
    await modal.waitFor(LIVE);
    expect(await modal.getAttribute('data-step')).toBe(warning);
    expect(await modal.getByRole('heading').textContent()).toBe('Payment terms');
    await modal.getByRole('button', { name: 'I accept the terms' }).click();
  }
  // Without a warning the start goes straight on: no modal stands in the way.
  await page.waitForURL(/\/trade\/[0-9A-Za-z]+$/, LIVE);

  // The proof the vendor asked for holds "mark paid" back until it is uploaded.
  const receipt = page.locator('.trade-requirement[data-requirement="receipt"]');
  expect(await receipt.getAttribute('data-status')).toBe('pending');
  expect(await page.locator('[data-blocked-by="requirements"]').isVisible()).toBe(true);
  const image = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#2c3e50' } })
    .png()
    .toBuffer();
  await page
    .locator('[data-upload-requirement]')
    .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: image });
  await expect.poll(() => receipt.getAttribute('data-status'), LIVE).toBe('uploaded');
  expect(await untranslatedKeys(page, KEYS)).toEqual([]);
  return page;
}

describe('the editor’s trade rules', () => {
  it('publishes gold terms with a proof; a buyer accepts the terms and uploads the proof', async () => {
    const problems: string[] = [];
    const vendor = await people.signedIn(VENDOR, 1440);
    const page = await people.open(vendor, '/offers/new', problems);
    await fillBasics(page);
    const card = page.locator(CARD);
    expect(await card.getByRole('heading').textContent()).toBe('During the trade');

    // Gold terms without terms: the browser says so at the checkbox and puts the focus there.
    await page.locator('#offer-is_gold').check();
    await page.getByRole('button', { name: 'Publish the offer' }).click();
    const goldError = page.locator('#offer-is_gold-error');
    await expect.poll(() => goldError.textContent()).toBe('Gold terms need terms to accept: write your terms first.');
    expect(await page.locator('#offer-is_gold').getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('offer-is_gold');
    await page
      .locator('#offer-terms')
      .fill('Pay by SEPA from an account in your own name; the trade number as reference.');
    await expect.poll(() => goldError.textContent()).toBe('');

    // Skipping the buyers' warning is for sell offers only: gone while the offer buys.
    expect(await page.locator('#offer-is_skip_warnings').isVisible()).toBe(true);
    await page.locator('input[name="type"][value="buy"]').check();
    await expect.poll(() => page.locator('#offer-is_skip_warnings').count()).toBe(0);
    await page.locator('input[name="type"][value="sell"]').check();

    // Proofs: a row per proof, the next one a document not asked yet, at most four.
    const add = page.locator('#offer-trade_requirements');
    await add.click();
    await add.click();
    expect(await proofRow(page, 0).locator('select.proof-kind').inputValue()).toBe('receipt');
    expect(await proofRow(page, 0).locator('select.proof-stage').inputValue()).toBe('before_paid');
    expect(await proofRow(page, 1).locator('select.proof-kind').inputValue()).toBe('photo_id');
    await add.click();
    await add.click();
    expect(await add.isDisabled()).toBe(true);
    // The same document twice at one step is refused before anything is sent.
    await proofRow(page, 1).locator('select.proof-kind').selectOption('receipt');
    await page.getByRole('button', { name: 'Publish the offer' }).click();
    await expect
      .poll(() => page.locator('#offer-trade_requirements-error').textContent())
      .toBe('Ask for each proof once per step.');
    for (const i of [3, 2, 1])
      await proofRow(page, i)
        .getByRole('button', { name: /Remove/ })
        .click();
    expect(await add.isDisabled()).toBe(false);
    expect(await seriousViolations(page, CARD)).toEqual([]);
    const hash = await publish(page);

    // Edit: the card starts from the offer; the warning skipped too is saved.
    const editor = await people.open(vendor, `/offers/${hash}/edit`, problems);
    expect(await editor.locator('#offer-is_gold').isChecked()).toBe(true);
    expect(await editor.locator('#offer-is_skip_warnings').isChecked()).toBe(false);
    expect(await proofRow(editor, 0).locator('select.proof-kind').inputValue()).toBe('receipt');
    expect(await proofRow(editor, 0).locator('select.proof-stage').inputValue()).toBe('before_paid');
    expect(await proofRow(editor, 1).count()).toBe(0);
    await editor.locator('#offer-is_skip_warnings').check();
    await editor.getByRole('button', { name: 'Save the changes' }).click();
    await editor.waitForURL(`${live.server.url}/my-offers?done=updated`);
    const saved = await people.api<Record<string, unknown>>(vendor, `/rest/v1/offers/${hash}`);
    expect(saved).toMatchObject({
      isGold: true,
      isSkipWarnings: true,
      tradeRequirements: [{ kind: 'receipt', stage: 'before_paid', optional: false }],
    });

    // A second person: gold comes first (spec section 4), then the proof in the trade.
    const buyer = await people.signedIn(BUYER, 375);
    const trade = await startAndUpload(buyer, hash, 'payment_terms_warning', problems);
    expect(await overflowsSideways(trade)).toBe(false);
    expect(problems).toEqual([]);
    await vendor.close();
    await buyer.close();
  });

  it('publishes a skipped warning with a proof at 375 px; the buyer goes straight to the trade', async () => {
    const problems: string[] = [];
    const vendor = await people.signedIn(VENDOR, 375);
    const page = await people.open(vendor, '/offers/new', problems);
    await fillBasics(page);
    await page.locator('#offer-terms').fill('SEPA Instant only.');
    await page.locator('#offer-is_skip_warnings').check();
    await page.locator('#offer-trade_requirements').click();
    expect(await overflowsSideways(page)).toBe(false);
    const hash = await publish(page);

    const buyer = await people.signedIn(BUYER, 1440);
    await startAndUpload(buyer, hash, null, problems);
    expect(problems).toEqual([]);
    await vendor.close();
    await buyer.close();
  });

  it('fits the card at 375 and 1440 px, light and dark, in English, German and Hebrew', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [375, 1440]) {
        const ctx = await people.signedIn(VENDOR, width, { colorScheme });
        for (const locale of ['', 'de', 'he']) {
          const problems: string[] = [];
          const page = await people.open(ctx, `${locale ? `/${locale}` : ''}/offers/new`, problems);
          await page.locator('#offer-is_gold').check();
          await page.locator('#offer-is_skip_warnings').check();
          await page.locator('#offer-trade_requirements').click();
          await page.locator('#offer-trade_requirements').click();
          await proofRow(page, 1).locator('input[type="checkbox"]').check();
          await page.locator(CARD).screenshot({
            path: join(SHOTS, `card${locale ? `-${locale}` : ''}-${width}-${colorScheme}.png`),
          });
          expect(await overflowsSideways(page)).toBe(false);
          expect(await untranslatedKeys(page, KEYS)).toEqual([]);
          expect(problems).toEqual([]);
          await page.close();
        }
        await ctx.close();
      }
    }
  });
});
