import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { deposit, fundOnServer } from '../support/offer-funds.ts';
import { serverAndBrowser } from './harness.ts';

// Offers as people meet them in Chromium: the listing with its filters, relaxation and history,
// the same listing without JavaScript, and one offer's page with every reason that blocks a
// start, every warning of the decision order, the how-much inputs and the guided tour.

const live = serverAndBrowser();
const PASSWORD = 'Coinfair-demo-2026!';

// Sell offers are listed only while their vendor's wallet covers the smallest trade (decision 121):
// the demo market's vendors get plenty, the demo account `vendor` 0.002 BTC, enough for its
// offers' minimums and short of their maximums, so a start at 1,000 USD is refused by the server.
beforeAll(async () => {
  await fundOnServer(live.server, `email LIKE '%@vendors.example.com'`);
  const vendor = live.server.row<{ id: number }>(`SELECT id FROM users WHERE email = 'vendor@example.com'`);
  await deposit(live.server.backend.services.ledger, vendor?.id ?? 0, 'BTC', 200_000);
});

async function context(width = 1440, options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> {
  const ctx = await live.browser.newContext({ viewport: { width, height: 900 }, ...options });
  await ctx.addCookies([{ name: 'cookie_settings', value: '11111111', url: live.server.url }]);
  return ctx;
}

/** Signs the context in as a demo account through the API, as the sign-in page's script does. */
async function signIn(ctx: BrowserContext, email: string) {
  await ctx.request.get(`${live.server.url}/rest/v1/auth/challenge`);
  const csrf = (await ctx.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await ctx.request.post(`${live.server.url}/rest/v1/auth/login`, {
    headers: { 'X-CSRF-Token': csrf, Origin: live.server.url },
    data: { email, password: PASSWORD },
  });
  expect(res.status()).toBe(200);
}

/** Publishes an offer as the demo vendor; `overrides` replace fields of a USD bank-transfer sell offer. */
async function publish(overrides: Record<string, unknown> = {}): Promise<string> {
  const ctx = await context();
  await signIn(ctx, 'vendor@example.com');
  const csrf = (await ctx.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await ctx.request.post(`${live.server.url}/rest/v1/offers`, {
    headers: { 'X-CSRF-Token': csrf, Origin: live.server.url },
    data: {
      type: 'sell',
      crypto_currency_code: 'BTC',
      currency: 'USD',
      payment_method: 'bank-transfer',
      margin: '1',
      fiat_min: '50',
      fiat_max: '1000',
      terms: 'Pay from your own account.',
      ...overrides,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const hash = ((await res.json()) as { data: { hash: string } }).data.hash;
  await ctx.close();
  return hash;
}

async function openAs(email: string | undefined, path: string, width = 1440): Promise<Page> {
  const ctx = await context(width);
  if (email) await signIn(ctx, email);
  const page = await ctx.newPage();
  await page.goto(live.server.url + path);
  return page;
}

const hydrated = (page: Page) => page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
const rows = (page: Page) => page.locator('[data-offer]');

describe.each([375, 1440])('the listing at %i px', (width) => {
  it('filters by currency, payment method and amount, relaxes, and walks back through history', async () => {
    const page = await openAs(undefined, '/buy-bitcoin/any/usd', width);
    // Server-rendered: the rows are there before the island wakes.
    expect(await rows(page).count()).toBeGreaterThan(0);
    await hydrated(page);
    for (const price of await page.locator('.offer-price-cell strong').allTextContents()) expect(price).toContain('$');

    await page.locator('.listing-filters').getByLabel('Currency', { exact: true }).selectOption('EUR');
    await page.waitForURL(`${live.server.url}/buy-bitcoin/any/eur`);
    await expect
      .poll(async () =>
        (await page.locator('.offer-price-cell strong').allTextContents()).every((p) => p.includes('€')),
      )
      .toBe(true);

    await page.locator('.listing-method-button').click();
    const modal = page.getByRole('dialog', { name: 'Payment method' });
    await modal.getByRole('searchbox').fill('sepa');
    await modal.getByRole('button', { name: 'SEPA transfer' }).click();
    await page.waitForURL(`${live.server.url}/buy-bitcoin/sepa/eur`);
    await expect.poll(() => page.locator('.listing h1, .listing-title').first().textContent()).toContain('SEPA');

    // An amount no offer takes: the search relaxes it and says so.
    await page.locator('.listing-filters').getByLabel('Amount', { exact: true }).fill('987654321');
    await page.waitForURL(/fiat-min=987654321/);
    await expect.poll(() => page.locator('.listing-relaxed').textContent()).toContain('the amount');

    await page.goBack();
    await page.waitForURL(`${live.server.url}/buy-bitcoin/sepa/eur`);
    await page.goBack();
    await page.waitForURL(`${live.server.url}/buy-bitcoin/any/eur`);
    await expect
      .poll(() => page.locator('.listing-filters').getByLabel('Currency', { exact: true }).inputValue())
      .toBe('EUR');
    await page.context().close();
  });

  it('switches between the four markets with the filters kept', async () => {
    const page = await openAs(undefined, '/buy-bitcoin/any/usd', width);
    await hydrated(page);
    await page.locator('.listing-tabs').getByRole('link', { name: 'Sell tether' }).click();
    await page.waitForURL(`${live.server.url}/sell-tether/any/usd`);
    await expect
      .poll(async () => (await page.locator('.offer-action a').allTextContents()).every((t) => t === 'Sell'))
      .toBe(true);
    await page.context().close();
  });
});

describe('the listing without JavaScript', () => {
  it('sends the search as a form and lands on the canonical address', async () => {
    const ctx = await context(1440, { javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto(`${live.server.url}/de/buy-bitcoin`);
    expect(await rows(page).count()).toBeGreaterThan(0);
    await page.locator('select[name="currency"]').selectOption('EUR');
    await page.locator('select[name="payment-method"]').selectOption('sepa');
    await page.locator('.listing-filters button[type="submit"]').click();
    await page.waitForURL(`${live.server.url}/de/buy-bitcoin/sepa/eur`);
    expect(await page.locator('h1').textContent()).toContain('SEPA');
    await ctx.close();
  });

  it('answers an address that is not a listing with a localized 404', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    const res = await page.goto(`${live.server.url}/de/buy-bitcoin/no-such-method`);
    expect(res?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('Seite nicht gefunden');
    await ctx.close();
  });
});

describe('a new offer', () => {
  it('appears in the listing of its market, currency and method', async () => {
    const hash = await publish({ currency: 'CHF', payment_method: 'twint', margin: '-49' });
    const page = await openAs(undefined, '/buy-bitcoin/twint/chf');
    // At 49 % below the market it is the cheapest: first in its list.
    await expect.poll(() => rows(page).first().getAttribute('data-offer')).toBe(hash);
    await page.context().close();
  });

  it("is in a visitor's listing at once, though the page before it was cached (src/middleware.ts)", async () => {
    const listing = async () => (await fetch(`${live.server.url}/buy-bitcoin/bank-transfer/isk`)).text();
    const before = await listing();
    const hash = await publish({ currency: 'ISK', margin: '-49', fiat_min: '5000', fiat_max: '100000' });
    expect(before).not.toContain(hash);
    expect(await listing()).toContain(`data-offer="${hash}"`);
  });
});

describe('one offer', () => {
  it('converts between fiat and crypto at the offer price and checks the limits', async () => {
    const hash = await publish({ is_skip_warnings: true });
    const page = await openAs('buyer@example.com', `/offers/${hash}`, 375);
    await hydrated(page);
    const price = Number((await page.locator('[data-price]').textContent())?.replace(/[^0-9.]/g, ''));
    await page.getByLabel('Amount in USD').fill('500');
    const btc = Number(await page.getByLabel('Amount in BTC').inputValue());
    expect(btc).toBeCloseTo(500 / price, 8);
    await page.getByLabel('Amount in BTC').fill('1');
    expect(Number(await page.getByLabel('Amount in USD').inputValue())).toBeCloseTo(price, 2);
    await page.getByRole('button', { name: 'Buy BTC' }).click();
    await expect.poll(() => page.locator('.field-error').textContent()).toContain('largest amount');
    // Digits with one decimal point only: anything else is refused as typed.
    await page.getByLabel('Amount in USD').fill('250');
    await page.getByLabel('Amount in USD').pressSequentially('a,.5.');
    expect(await page.getByLabel('Amount in USD').inputValue()).toBe('250.5');
    await page.context().close();
  });

  it('tells a visitor to sign in, with a link that comes back', async () => {
    const hash = await publish();
    const page = await openAs(undefined, `/offers/${hash}`);
    await hydrated(page);
    const blocks = page.locator('[data-block]');
    expect(await blocks.allTextContents()).toEqual([expect.stringContaining('Sign in to trade')]);
    expect(await blocks.getByRole('link').getAttribute('href')).toBe(
      `/login?back=${encodeURIComponent(`/offers/${hash}`)}`,
    );
    expect(await page.getByRole('button', { name: 'Buy BTC' }).isDisabled()).toBe(true);
    await page.context().close();
  });

  it('names every reason that blocks a start', async () => {
    const hash = await publish({
      type: 'buy',
      allowed_countries: ['DE'],
      require_offer_currency_match_buyer_country: true,
      require_min_past_trades: 5,
      show_only_trusted_user: true,
    });
    live.server.sql(
      `UPDATE users SET is_email_verified = 0, country_id = (SELECT id FROM countries WHERE iso = 'KE') WHERE email = 'affiliate@example.com'`,
    );
    live.server.sql(
      `INSERT INTO user_trust (user_id, other_id, kind, created_at)
       SELECT a.id, v.id, 'blocked', 0 FROM users a, users v WHERE a.email = 'affiliate@example.com' AND v.email = 'vendor@example.com'`,
    );
    const page = await openAs('affiliate@example.com', `/offers/${hash}`);
    // The vendor went away after publishing (set after the sign-in, which counts as being seen).
    live.server.sql(`UPDATE users SET last_seen_at = 0 WHERE email = 'vendor@example.com'`);
    await page.reload();
    await hydrated(page);
    expect(
      await page.locator('[data-block]').evaluateAll((items) => items.map((i) => i.getAttribute('data-block'))),
    ).toEqual([
      'email_not_verified',
      'country_not_allowed',
      'gray_country_id_required',
      'currency_country_mismatch',
      'min_past_trades',
      'trusted_only',
      'owner_offline',
      'opponent_blocked',
    ]);
    expect(await page.locator('[data-block="min_past_trades"]').textContent()).toContain('needs 5 completed trades');
    live.server.sql(`UPDATE users SET last_seen_at = ? WHERE email = 'vendor@example.com'`, Date.now());
    await page.context().close();
  });

  it.each([
    [{ is_gold: true }, 'payment_terms_warning', 'Payment terms'],
    [{ type: 'buy', require_verified_id: true }, 'ofac_warning', 'Verify your identity first'],
    [{}, 'sell_offer_warning', 'Before you buy'],
    [{ type: 'buy', payment_method: 'paypal' }, 'chargeback_warning', 'Chargeback risk'],
  ])('shows the decision order step for %o: %s', async (overrides, step, title) => {
    const hash = await publish(overrides);
    const page = await openAs('buyer@example.com', `/offers/${hash}`);
    await hydrated(page);
    await page.locator('.start-submit').click();
    const modal = page.getByRole('dialog', { name: title });
    await modal.waitFor();
    expect(await modal.getAttribute('data-step')).toBe(step);
    // Cancel closes it and starts nothing; confirming asks the server, whose refusal is shown.
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await modal.waitFor({ state: 'detached' });
    // More than whoever sells here holds (the vendor 0.002 BTC, the buyer nothing).
    await page.getByLabel('Amount in USD').fill('1000');
    await page.locator('.start-submit').click();
    await page.getByRole('dialog', { name: title }).locator('.btn-primary').click();
    // The trade API's refusal: whoever sells here (the vendor, or the buyer on a buy offer) has no coins.
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toMatch(/vendor's balance|balance does not cover|verified identity|trading limit/);
    await page.context().close();
  });

  it('sends a buyer without free gift cards on to the gift-code trade page (decision 1)', async () => {
    const hash = await publish({ payment_method: 'amazon-gift-card' });
    const page = await openAs('buyer@example.com', `/offers/${hash}`);
    await hydrated(page);
    await page.locator('.start-submit').click();
    // No saved card of that brand: no chooser, the gift-code page takes the amount (the choosing
    // and the start with cards: tests/e2e/gift-card-trade.test.ts).
    await page.waitForURL(new RegExp(`/offers/${hash}/gift-code-trade\\?amount_fiat=50$`));
    await page.context().close();
  });

  it('starts at once when no warning applies', async () => {
    const hash = await publish({ is_skip_warnings: true });
    const page = await openAs('buyer@example.com', `/offers/${hash}`);
    await hydrated(page);
    await page.getByLabel('Amount in USD').fill('1000');
    await page.locator('.start-submit').click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/vendor's balance|trading limit/);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.context().close();
  });

  it('walks through the offer-view tour: vendor, fees, terms, payment window, how much', async () => {
    const hash = await publish();
    const page = await openAs('buyer@example.com', `/offers/${hash}`);
    await hydrated(page);
    await page.getByRole('button', { name: 'Take a tour' }).click();
    const popover = page.locator('[data-tour-popover]');
    const titles: string[] = [];
    for (let i = 0; i < 5; i++) {
      titles.push((await popover.locator('[data-tour-title]').textContent()) ?? '');
      await popover.locator('[data-tour-next]').click();
    }
    expect(titles).toEqual(['The vendor', 'Fees', 'Offer terms', 'Payment window', 'How much']);
    expect(await popover.isHidden()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('tour:offer-view'))).toBe('done');
    await page.context().close();
  });
});
