import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations, serverAndBrowser, untranslatedKeys } from './harness.ts';
import { browserPeople, type StartableOffer, sepaOffer } from './people.ts';
import { messageKeys, overflowsSideways, problemsBut, screenshotter } from './screen-checks.ts';

// The kiosk's counter screen and the merchant's balance in Chromium (issue 21; docs/kiosks-and-
// merchants.md). The demo vendor becomes a kiosk as operators make one (the flag set on the
// server's database, as `npm run admin -- user:role <email> kiosk on` sets it) and gets coins on
// its wallet from the simulated chain. At 1440 px it funds its kiosk balance, sets its margin
// (a refused one first), is told about an unknown customer, quotes 50 EUR of bitcoin for the demo
// buyer, reads a moved price, sells, sees the receipt and the sale in the list; the buyer's
// wallet names the kiosk purchase and the kiosk's wallet its transfer and kiosk balance. The
// demo merchant buys through a released trade, so its merchant balance fills, and settles it
// from the wallet at 375 px. Someone who is not a kiosk reads what a kiosk is. Screenshots at
// 375 and 1440 px, light and dark, and in German land in test-results/kiosks-*.png.

const live = serverAndBrowser();
const people = browserPeople(live);
const KIOSK = 'vendor@example.com';
const BUYER = 'buyer@example.com';
const MERCHANT = 'merchant@example.com';

/** The vendor made a kiosk with 0.05 BTC on its wallet, once for the tests that need it. */
let made: Promise<void> | undefined;
const kioskReady = () => {
  made ??= (async () => {
    live.server.sql('UPDATE users SET is_kiosk = 1 WHERE email = ?', KIOSK);
    const ctx = await people.signedIn(KIOSK, 1440);
    await people.fund(ctx, KIOSK, '0.05');
    await ctx.close();
  })();
  return made;
};

/** The page, hydrated, with its console errors and warnings collected as they come. */
async function open(ctx: BrowserContext, path: string): Promise<{ page: Page; problems: string[] }> {
  const problems: string[] = [];
  const page = await people.open(ctx, path, problems);
  return { page, problems };
}

const shot = screenshotter('kiosks');
/** The kiosk screen's message keys, the wallet's and the errors they may show. */
const KEYS = messageKeys('kiosk', 'wallet', 'errors');

const amountsOf = (page: Page, testId: string) => page.getByTestId(testId).locator('[data-currency]').allTextContents();

/** Decimal text of a satoshi count, as the screens write bitcoin. */
const btc = (sats: number) => `${(sats / 1e8).toFixed(8)} BTC`;
const satsOf = (text: string) => Math.round(Number(text.replace(/[^\d.]/g, '')) * 1e8);

describe('the kiosk screen', () => {
  it('sends visitors who are not signed in to the sign-in page, which comes back', async () => {
    const ctx = await people.context(1440);
    const res = await ctx.request.get(`${live.server.url}/de/kiosk`, { maxRedirects: 0 });
    expect(res.status()).toBe(303);
    expect(res.headers().location).toBe(`/de/login?back=${encodeURIComponent('/de/kiosk')}`);
    await ctx.close();
  });

  it('tells someone who is not a kiosk what a kiosk is and how to get one (375 px)', async () => {
    const ctx = await people.signedIn(BUYER, 375);
    const { page, problems } = await open(ctx, '/kiosk');
    const invitation = page.getByTestId('kiosk-invitation');
    expect(await invitation.textContent()).toContain('sells bitcoin and tether to customers who pay in cash');
    expect(await invitation.getByRole('link', { name: 'Contact support' }).getAttribute('href')).toBe('/support');
    expect(await page.getByTestId('kiosk-screen').count()).toBe(0);
    // The header's kiosk entry is for kiosks only.
    await page.waitForFunction(() => document.querySelector('[data-account-name]')?.textContent === 'buyer');
    expect(await page.getByTestId('header-kiosk').isHidden()).toBe(true);
    // The API refuses in the reader's language.
    const refused = await ctx.request.get(`${live.server.url}/rest/v1/kiosk?locale=de`);
    expect(refused.status()).toBe(403);
    expect((await refused.json()).errors[0].message).toBe(
      'Das ist nur für Kiosk-Konten. Bitte den Support, dein Konto zum Kiosk zu machen.',
    );
    expect(await overflowsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await untranslatedKeys(page, KEYS)).toEqual([]);
    await shot(page, 'invitation-375');
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('funds the balance, sets the margin, quotes, sells and shows the receipt and the sale (1440 px)', async () => {
    await kioskReady();
    const ctx = await people.signedIn(KIOSK, 1440);
    const { page, problems } = await open(ctx, '/kiosk');
    expect(await amountsOf(page, 'kiosk-balance')).toEqual(['0.00000000 BTC', '0.000000 USDT']);
    expect(await page.getByTestId('kiosk-sales-empty').isVisible()).toBe(true);
    // The account menu leads here, for a kiosk.
    await page.getByTestId('header-account-menu').click();
    expect(await page.getByRole('link', { name: 'Kiosk', exact: true }).getAttribute('aria-current')).toBe('page');
    await page.keyboard.press('Escape');

    await fundKiosk(page);
    await setMargin(page);
    await quoteSale(page);
    const sold = await confirmSale(page);

    // The list shows the sale first; the balance paid the amount and the fee.
    const row = page.getByTestId('kiosk-sale-row').first();
    expect(await row.getAttribute('data-sale')).toBe(sold.id);
    expect(await row.textContent()).toContain('buyer');
    expect(await row.textContent()).toContain(sold.amount);
    expect(await row.textContent()).toContain('€50.00');
    expect(await row.textContent()).toContain('2.5%');
    expect(await amountsOf(page, 'kiosk-balance')).toEqual([btc(1_000_000 - sold.totalSats), '0.000000 USDT']);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'receipt-1440');

    // "New sale": a blank form with the customer field focused, the crypto and currency kept.
    await page.getByTestId('kiosk-new-sale').click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('kiosk-sale-customer');
    expect(await page.getByLabel("Customer's username").inputValue()).toBe('');
    expect(await page.getByLabel('Cash currency').inputValue()).toBe('EUR');

    // After a reload the server renders the same sale.
    await page.reload();
    await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
    expect(await page.getByTestId('kiosk-sale-row').first().getAttribute('data-sale')).toBe(sold.id);
    expect(await page.getByTestId('kiosk-margin-current').textContent()).toBe('2.5%');
    expect(await untranslatedKeys(page, KEYS)).toEqual([]);
    expect(problemsBut(problems, [400, 409])).toEqual([]);
    await ctx.close();

    await customerSeesPurchase(sold.amount);
    await kioskWalletShowsTransfer();
  }, 120_000);

  it('looks right in both themes, at both widths and in German, with no console error', async () => {
    await kioskReady();
    const cases = [
      { width: 375, scheme: 'light', path: '/kiosk', name: '375-light' },
      { width: 375, scheme: 'dark', path: '/kiosk', name: '375-dark' },
      { width: 1440, scheme: 'light', path: '/kiosk', name: '1440-light' },
      { width: 1440, scheme: 'dark', path: '/kiosk', name: '1440-dark' },
      { width: 375, scheme: 'light', path: '/de/kiosk', name: 'de-375' },
      { width: 1440, scheme: 'dark', path: '/de/kiosk', name: 'de-1440-dark' },
    ] as const;
    for (const { width, scheme, path, name } of cases) {
      const ctx = await people.signedIn(KIOSK, width, { colorScheme: scheme });
      const { page, problems } = await open(ctx, path);
      await page.getByTestId('kiosk-screen').waitFor();
      expect(await overflowsSideways(page), name).toBe(false);
      expect(await untranslatedKeys(page, KEYS), name).toEqual([]);
      expect(await seriousViolations(page), name).toEqual([]);
      await shot(page, name);
      expect(problems, name).toEqual([]);
      await ctx.close();
    }
  }, 120_000);

  it('walks a sale in German on a phone: errors, quote and receipt fit (375 px)', async () => {
    await kioskReady();
    const ctx = await people.signedIn(KIOSK, 375);
    // Enough on the kiosk balance for this sale, whichever test ran before.
    const body = { direction: 'in', currency: 'BTC', amount: '0.005', idempotency_key: 'german-walk-float' };
    await people.api(ctx, '/rest/v1/kiosk/transfer', body);
    const { page, problems } = await open(ctx, '/de/kiosk');
    // Nothing typed: the form's own messages.
    await page.getByRole('button', { name: 'Angebot einholen' }).click();
    expect(await page.locator('#kiosk-sale-customer-error').textContent()).toBe(
      'Gib den Benutzernamen des Kunden ein.',
    );
    // The server's message for a sale to the kiosk itself, in the page's language, beside the field.
    await page.getByLabel('Benutzername des Kunden').fill('vendor');
    await page.getByLabel('Erhaltenes Bargeld').fill('20');
    await page.getByRole('button', { name: 'Angebot einholen' }).click();
    await expect
      .poll(() => page.locator('#kiosk-sale-customer-error').textContent())
      .toBe('Ein Kiosk kann nicht an sich selbst verkaufen.');
    await shot(page, 'de-errors-375');
    await page.getByLabel('Benutzername des Kunden').fill('buyer');
    await page.getByRole('button', { name: 'Angebot einholen' }).click();
    await page.getByTestId('kiosk-quote').waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await shot(page, 'de-quote-375');
    await page.getByRole('button', { name: 'Verkauf bestätigen' }).click();
    await page.getByTestId('kiosk-receipt').waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await untranslatedKeys(page, KEYS)).toEqual([]);
    await shot(page, 'de-receipt-375');
    expect(problemsBut(problems, [400, 409])).toEqual([]);
    await ctx.close();
  }, 90_000);
});

describe("the merchant's balance in the wallet", () => {
  it('fills from a trade bought as a merchant and settles to the wallet (375 px)', async () => {
    const moved = await merchantBuys();
    const ctx = await people.signedIn(MERCHANT, 375);
    const before = await people.api<{ cryptoCurrencyCode: string; balance: string }[]>(ctx, '/rest/v1/balances');
    const walletSats = satsOf(before.find((b) => b.cryptoCurrencyCode === 'BTC')?.balance ?? '0');
    const { page, problems } = await open(ctx, '/wallet');
    const card = page.getByTestId('wallet-merchant');
    expect(await amountsOf(page, 'wallet-merchant')).toEqual([btc(moved), '0.000000 USDT']);
    expect(await page.getByTestId('wallet-kiosk').count()).toBe(0);
    expect(await overflowsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'merchant-wallet-375');

    await card.getByRole('button', { name: 'Settle to wallet' }).click();
    expect(await page.getByTestId('merchant-settled').textContent()).toBe(`Moved to your wallet: ${btc(moved)}.`);
    await expect.poll(() => amountsOf(page, 'wallet-merchant')).toEqual(['0.00000000 BTC', '0.000000 USDT']);
    expect(await card.getByRole('button', { name: 'Settle to wallet' }).isDisabled()).toBe(true);
    await expect
      .poll(() => page.locator('.wallet-card[data-currency="BTC"] [data-balance]').textContent())
      .toBe(btc(walletSats + moved));
    const settled = page.locator('tr[data-entry="merchant_settlement"]');
    await settled.waitFor();
    expect(await settled.textContent()).toContain('Merchant balance settled');
    expect(await settled.textContent()).toContain(`+${btc(moved)}`);
    await shot(page, 'merchant-settled-375');

    // Once empty, the API says so in the reader's language.
    const again = await ctx.request.post(`${live.server.url}/rest/v1/merchants/settle?locale=fr`, {
      headers: { 'X-CSRF-Token': await people.csrfOf(ctx), Origin: live.server.url },
      data: { idempotency_key: 'settle-again-1' },
    });
    expect(again.status()).toBe(409);
    expect((await again.json()).errors[0].message).toBe("Le solde marchand est vide : il n'y a rien à régler.");
    expect(await untranslatedKeys(page, KEYS)).toEqual([]);
    expect(problems).toEqual([]);
    await ctx.close();
  }, 120_000);
});

/** 0.01 BTC from the wallet into the kiosk balance, after a refused amount. */
async function fundKiosk(page: Page) {
  const form = page.getByTestId('kiosk-transfer');
  await form.getByLabel('Amount').fill('abc');
  await form.getByRole('button', { name: 'Fund the kiosk' }).click();
  expect(await page.locator('#kiosk-transfer-amount-error').textContent()).toBe(
    'Enter an amount greater than zero, such as 0.01.',
  );
  await form.getByLabel('Amount').fill('0.01');
  await form.getByRole('button', { name: 'Fund the kiosk' }).click();
  expect(await page.getByTestId('kiosk-transfer-done').textContent()).toBe(
    '0.01000000 BTC moved to your kiosk balance.',
  );
  expect(await amountsOf(page, 'kiosk-balance')).toEqual(['0.01000000 BTC', '0.000000 USDT']);
  expect(await form.getByLabel('Amount').inputValue()).toBe('');
}

/** A margin out of range refused by the form, then 2.5 % saved. */
async function setMargin(page: Page) {
  const card = page.getByTestId('kiosk-margin');
  expect(await page.getByTestId('kiosk-margin-current').textContent()).toBe('3%');
  await card.getByLabel('Margin over the market price').fill('25');
  await card.getByRole('button', { name: 'Save the margin' }).click();
  expect(await page.locator('#kiosk-margin-input-error').textContent()).toBe(
    'Enter a margin from 0 to 20 %, with at most two decimals.',
  );
  await card.getByLabel('Margin over the market price').fill('2.5');
  await card.getByRole('button', { name: 'Save the margin' }).click();
  expect(await page.getByTestId('kiosk-margin-done').textContent()).toBe('Margin saved: 2.5%.');
  expect(await page.getByTestId('kiosk-margin-current').textContent()).toBe('2.5%');
}

/** An unknown customer refused beside the field, then 50 EUR of bitcoin quoted for the buyer. */
async function quoteSale(page: Page) {
  const form = page.getByTestId('kiosk-sale-form');
  await form.getByLabel("Customer's username").fill('nobody-by-this-name');
  await form.getByLabel('Crypto').selectOption('BTC');
  await form.getByLabel('Cash currency').selectOption('EUR');
  await form.getByLabel('Cash received').fill('50');
  await form.getByRole('button', { name: 'Get a quote' }).click();
  await expect
    .poll(() => page.locator('#kiosk-sale-customer-error').textContent())
    .toBe('No account has this username.');
  expect(await form.getByLabel("Customer's username").getAttribute('aria-invalid')).toBe('true');

  await form.getByLabel("Customer's username").fill('buyer');
  await form.getByRole('button', { name: 'Get a quote' }).click();
  const quote = page.getByTestId('kiosk-quote');
  await quote.waitFor();
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('kiosk-quote-title');
  expect(await quote.textContent()).toContain('buyer receives');
  const amount = (await page.getByTestId('kiosk-quote-amount').textContent()) ?? '';
  expect(amount).toMatch(/^0\.\d{8} BTC$/);
  const line = (name: string) => quote.locator(`[data-line="${name}"] dd`).textContent();
  expect(await line('cash')).toBe('€50.00');
  expect(await line('price')).toMatch(/^€[\d,]+\.\d\d per BTC$/);
  expect(await line('market')).toMatch(/^€[\d,]+\.\d\d \+ 2\.5% margin$/);
  const fee = satsOf((await line('fee')) ?? '');
  expect(fee).toBeGreaterThan(0);
  const totalSats = satsOf(amount) + fee;
  expect(await line('total')).toBe(btc(totalSats));
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, 'quote-1440');
}

/**
 * The sale: first the answer of a price that moved (409 with a fresh quote of the server's, as it
 * answers when the price moved more than 1 %), read and confirmed again. Answers the receipt's
 * number, the amount sold and what it took from the kiosk balance.
 */
async function confirmSale(page: Page) {
  let fresh: { amount: string } | undefined;
  await page.route('**/rest/v1/kiosk/sales?*', async (route) => {
    if (fresh) return route.continue();
    const { customer, currency, fiatCurrency, fiatAmount } = route.request().postDataJSON() as Record<string, string>;
    const answer = await page.request.post(`${live.server.url}/rest/v1/kiosk/quote`, {
      headers: { 'X-CSRF-Token': await people.csrfOf(page.context()), Origin: live.server.url },
      data: { customer, currency, fiatCurrency, fiatAmount },
    });
    fresh = (await answer.json()).data;
    await route.fulfill({
      status: 409,
      json: {
        errors: [
          {
            code: 'KIOSK_PRICE_MOVED',
            message: 'The price moved since the quote. Read the new quote to the customer.',
          },
        ],
        meta: { quote: fresh },
      },
    });
  });
  await page.getByRole('button', { name: 'Confirm the sale' }).click();
  expect(await page.getByTestId('kiosk-price-moved').textContent()).toBe(
    'The price moved since the quote. Read the new quote to the customer.',
  );
  expect(await page.getByTestId('kiosk-quote-amount').textContent()).toBe(`${fresh?.amount} BTC`);
  await page.unroute('**/rest/v1/kiosk/sales?*');

  // The new quote is the one read again and confirmed.
  await page.getByRole('button', { name: 'Confirm the sale' }).click();
  const receipt = page.getByTestId('kiosk-receipt');
  await receipt.waitFor();
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('kiosk-receipt-title');
  const line = async (name: string) => (await receipt.locator(`[data-line="${name}"] dd`).textContent()) ?? '';
  const id = await line('id');
  expect(id).toMatch(/^kos_/);
  expect(await line('customer')).toBe('buyer');
  const amount = await line('amount');
  expect(amount).toBe(`${fresh?.amount} BTC`);
  expect(await line('cash')).toBe('€50.00');
  expect(await line('time')).toMatch(/\d{4}/);
  expect(satsOf(await line('total'))).toBe(satsOf(amount) + satsOf(await line('fee')));
  expect(await page.getByTestId('kiosk-live').textContent()).toBe(`Sale complete: ${amount} to buyer.`);
  return { id, amount, totalSats: satsOf(await line('total')) };
}

/** The buyer's wallet: the kiosk purchase in the history, credited in full. */
async function customerSeesPurchase(amount: string) {
  const ctx = await people.signedIn(BUYER, 1440);
  const { page, problems } = await open(ctx, '/wallet');
  const entry = page.locator('tr[data-entry="kiosk_sale"]').first();
  await entry.waitFor();
  expect(await entry.textContent()).toContain('Kiosk purchase');
  expect(await entry.textContent()).toContain(`+${amount}`);
  expect(await page.getByTestId('wallet-merchant').count()).toBe(0);
  expect(problems).toEqual([]);
  await ctx.close();
}

/** The kiosk's wallet: the transfer to the kiosk balance, and the kiosk balance card leading to /kiosk. */
async function kioskWalletShowsTransfer() {
  const ctx = await people.signedIn(KIOSK, 1440);
  const { page, problems } = await open(ctx, '/wallet');
  const entry = page.locator('tr[data-entry="kiosk_transfer"]').first();
  expect(await entry.textContent()).toContain('Kiosk balance transfer');
  expect(await entry.textContent()).toContain('-0.01000000 BTC');
  const card = page.getByTestId('wallet-kiosk');
  expect((await amountsOf(page, 'wallet-kiosk'))[0]).toMatch(/^0\.00\d{6} BTC$/);
  expect(await card.getByRole('link', { name: 'Open the kiosk' }).getAttribute('href')).toBe('/kiosk');
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, 'kiosk-wallet-1440');
  expect(problems).toEqual([]);
  await ctx.close();
}

/**
 * The demo merchant buys 100 EUR of bitcoin from the vendor's fixed-price offer; the release
 * credits its merchant balance. Answers the satoshi it holds there.
 */
async function merchantBuys(): Promise<number> {
  const vendor = await people.signedIn(KIOSK, 1440);
  await people.fund(vendor, KIOSK, '0.1');
  const offer = await people.api<StartableOffer>(vendor, '/rest/v1/offers', sepaOffer({ fixed_price: '9000' }));
  live.server.sql('UPDATE users SET last_seen_at = ? WHERE email IN (?, ?)', Date.now(), KIOSK, MERCHANT);
  const merchant = await people.signedIn(MERCHANT, 1440);
  const { hash } = await people.startTrade(merchant, offer, '100');
  await people.api(merchant, `/rest/v1/trade/${hash}/paid`, {});
  await people.api(vendor, `/rest/v1/trade/${hash}/release`, {});
  const view = await people.api<{ balance: { BTC: string } }>(merchant, '/rest/v1/merchants/balance');
  await Promise.all([vendor.close(), merchant.close()]);
  const sats = satsOf(view.balance.BTC);
  expect(sats).toBeGreaterThan(0);
  return sats;
}
