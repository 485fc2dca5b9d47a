import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverAndBrowser } from './harness.ts';
import { browserPeople, sepaOffer } from './people.ts';

// The payer name (decision 112), the buyer and the vendor each in their own browser: a SEPA offer
// tagged "no third parties" asks the buyer, on the offer page, for the name on the account they
// pay from; the vendor's trade page shows it beside the buyer's verified name (none yet, then one
// that matches, then one that does not). Screenshots at 375 and 1440 px go to test-results/.

const live = serverAndBrowser();
const VENDOR = 'vendor@example.com';
const BUYER = 'buyer@example.com';
const SHOTS = join(import.meta.dirname, '..', '..', 'test-results');
const people = browserPeople(live);
const { api, signedIn, fund } = people;

const problems: string[] = [];
const open = (ctx: BrowserContext, path: string) => people.open(ctx, path, problems);

const payerCheck = async (page: Page) => {
  await page.reload();
  return page.locator('.payer-check').textContent();
};

describe('an offer that takes payment only from the buyer’s own account', () => {
  it('asks the buyer for the payer name and shows the seller how it compares', async () => {
    const seller = await signedIn(VENDOR, 1440);
    await fund(seller, VENDOR);
    const offer = await api<{ hash: string }>(
      seller,
      '/rest/v1/offers',
      sepaOffer({ trade_instructions: 'IBAN DE89 3704 0044 0532 0130 00', tags: ['no-third-parties'] }),
    );
    live.server.sql('UPDATE users SET last_seen_at = ? WHERE email IN (?, ?)', Date.now(), VENDOR, BUYER);

    const buyer = await signedIn(BUYER, 375);
    const offerPage = await open(buyer, `/offers/${offer.hash}`);
    const field = offerPage.getByLabel('Name on the account you pay from');
    await offerPage.getByRole('button', { name: /^Buy BTC/ }).click();
    expect(await offerPage.locator('.start-payer .field-error').textContent()).toBe(
      'Enter the name on the account you pay from.',
    );
    mkdirSync(SHOTS, { recursive: true });
    await offerPage.locator('.start-trade').screenshot({ path: join(SHOTS, 'payer-name-offer-375.png') });
    await field.fill('Erika Mustermann');
    await offerPage.getByRole('button', { name: /^Buy BTC/ }).click();
    // The sell-offer warning of the start decision (spec section 4) comes first.
    await offerPage.getByRole('button', { name: 'Start the trade' }).click();
    await offerPage.waitForURL(/\/trade\//);
    const hash = new URL(offerPage.url()).pathname.split('/').pop() as string;
    expect(await offerPage.locator('.payer-check').count()).toBe(0);

    const sellerPage = await open(seller, `/trade/${hash}`);
    expect(await sellerPage.locator('.payer-check').textContent()).toContain('Erika Mustermann');
    expect(await sellerPage.locator('.payer-check').textContent()).toContain('Not verified yet');

    live.server.sql(
      "UPDATE users SET full_name = 'ERIKA Anna MUSTERMANN', id_verified_at = ? WHERE email = ?",
      Date.now(),
      BUYER,
    );
    expect(await payerCheck(sellerPage)).toContain('The names match');
    await sellerPage.setViewportSize({ width: 1440, height: 900 });
    await sellerPage.locator('.trade-payment').screenshot({ path: join(SHOTS, 'payer-name-match-1440.png') });

    live.server.sql("UPDATE users SET full_name = 'Max Mustermann' WHERE email = ?", BUYER);
    expect(await payerCheck(sellerPage)).toContain('The names differ');
    expect(await sellerPage.locator('.payer-check[role="alert"]').count()).toBe(1);
    await sellerPage.locator('.trade-payment').screenshot({ path: join(SHOTS, 'payer-name-differ-1440.png') });
    expect(problems).toEqual([]);
  });
});
