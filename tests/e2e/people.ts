import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { expect, vi } from 'vitest';
import { tradeStartBody } from '../support/trade-fixtures.ts';

// People in their own browser contexts on one test server: a context with the cookie choice made,
// JSON calls from it as our scripts make them (its cookies, the CSRF header), sign-in through the
// API, and coins on a wallet from the simulated chain. What the trade and gift-card files share.

/** The demo accounts' password (db/seed/demo.ts). */
export const DEMO_PASSWORD = 'Coinfair-demo-2026!';

interface Live {
  server: {
    url: string;
    chain: {
      deposit(email: string, amount: string, currency: string): Promise<unknown>;
      mine(blocks: string): Promise<unknown>;
    };
    sql(statement: string, ...params: unknown[]): void;
  };
  browser: Browser;
}

/** What a test may choose of a person's browser: its theme and its clock's time zone. */
export type PersonBrowser = Pick<BrowserContextOptions, 'colorScheme' | 'timezoneId'>;

export function browserPeople(live: Live) {
  /** A fresh context at `width`; bypassCSP: axe-core is injected inline (the policy is tested in csp.test.ts). */
  async function context(width: number, options: PersonBrowser = {}): Promise<BrowserContext> {
    const ctx = await live.browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true, ...options });
    await ctx.addCookies([{ name: 'cookie_settings', value: '11111111', url: live.server.url }]);
    return ctx;
  }

  const csrfOf = async (ctx: BrowserContext) => (await ctx.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';

  /** GET `path`, or POST `data` to it, from the context; fails the test on anything but 2xx; answers `data`. */
  async function api<T>(ctx: BrowserContext, path: string, data?: unknown): Promise<T> {
    const headers = { 'X-CSRF-Token': await csrfOf(ctx), Origin: live.server.url };
    const res =
      data === undefined
        ? await ctx.request.get(live.server.url + path)
        : await ctx.request.post(live.server.url + path, { headers, data });
    expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
    return ((await res.json()) as { data: T }).data;
  }

  async function signedIn(email: string, width: number, options: PersonBrowser = {}) {
    const ctx = await context(width, options);
    await ctx.request.get(`${live.server.url}/rest/v1/auth/challenge`);
    await api(ctx, '/rest/v1/auth/login', { email, password: DEMO_PASSWORD });
    return ctx;
  }

  /**
   * Coins on the wallet of `email` (0.05 BTC unless told), deposited and mined on the simulated
   * chain as an operator would (BTC confirms after 2 blocks, TRC-20 tether after 19), seen by `ctx`.
   */
  async function fund(ctx: BrowserContext, email: string, amount = '0.05', currency: 'BTC' | 'USDT' = 'BTC') {
    await live.server.chain.deposit(email, amount, currency);
    await live.server.chain.mine(currency === 'BTC' ? '2' : '19');
    const balance = async () =>
      (await api<{ cryptoCurrencyCode: string; balance: string }[]>(ctx, '/rest/v1/balances')).find(
        (b) => b.cryptoCurrencyCode === currency,
      )?.balance;
    // vi.waitFor, not expect.poll: suites fund people in beforeAll too, outside any test.
    await vi.waitFor(
      async () => {
        const seen = await balance();
        if (!seen || /^0\.0+$/.test(seen)) throw new Error(`no ${currency} on the wallet of ${email} yet (${seen})`);
      },
      { timeout: 15_000, interval: 200 },
    );
  }

  /**
   * `path` in a new page of `ctx`, once its islands hydrated; the page's console errors and
   * warnings (hydration mismatches among them) and uncaught errors go to `problems`. `prepare`
   * runs before the page loads (a browser clock set off, say).
   */
  async function open(
    ctx: BrowserContext,
    path: string,
    problems: string[],
    prepare?: (page: Page) => Promise<void>,
  ): Promise<Page> {
    const page = await ctx.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await prepare?.(page);
    await page.goto(live.server.url + path);
    await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
    return page;
  }

  /** A trade started over the API, as the offer page's widget starts it. */
  const startTrade = (ctx: BrowserContext, offer: StartableOffer, fiat = '100') =>
    api<{ hash: string }>(ctx, '/rest/v1/trade', tradeStartBody(offer, fiat));

  /** These people online now, so the start gate lets their trades start. */
  const everyoneOnline = (...emails: string[]) =>
    live.server.sql(
      `UPDATE users SET last_seen_at = ? WHERE email IN (${emails.map(() => '?').join(', ')})`,
      Date.now(),
      ...emails,
    );

  return { context, csrfOf, api, signedIn, fund, open, startTrade, everyoneOnline };
}

export type StartableOffer = Parameters<typeof tradeStartBody>[0];

/** A vendor's SEPA sell offer in euros at a fixed price (no price moves mid-test). */
export const sepaOffer = (overrides: Record<string, unknown> = {}) => ({
  type: 'sell',
  crypto_currency_code: 'BTC',
  currency: 'EUR',
  payment_method: 'sepa',
  price_type: 'fixed',
  fixed_price: '90000',
  fiat_min: '50',
  fiat_max: '1000',
  payment_window: 30,
  terms: 'SEPA from an account in your own name.',
  ...overrides,
});

/** A vendor's Amazon gift-card sell offer in US dollars at a fixed price (no price moves mid-test). */
export const amazonGiftOffer = (overrides: Record<string, unknown> = {}) => ({
  type: 'sell',
  crypto_currency_code: 'BTC',
  currency: 'USD',
  payment_method: 'amazon-gift-card',
  price_type: 'fixed',
  fixed_price: '100000',
  fiat_min: '10',
  fiat_max: '500',
  payment_window: 30,
  terms: 'Amazon US e-cards only, with the receipt.',
  trade_instructions: 'Add your cards, then mark the trade paid.',
  ...overrides,
});
