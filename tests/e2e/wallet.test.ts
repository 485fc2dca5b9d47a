import { generateSync } from 'otplib';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverAndBrowser } from './harness.ts';

// The wallet as people meet it in Chromium at 375 and 1440 px: deposits from the simulated chain
// (incoming, then confirmed after mining), receive addresses, a USDT → BTC conversion at a live
// quote, the quote running out, sending with a second factor and without permission, and the
// wallet tour. Deposits and blocks come from the operator's chain commands on the server's
// database, as `npm run admin -- chain:deposit` makes them; the server's chain job notices them.

// Quotes every 2 s keep conversions quick; blocks only when the test mines them.
const live = serverAndBrowser({ PRICE_TICK_SECONDS: '2', CHAIN_BLOCK_SECONDS: '3600' });
const PASSWORD = 'Coinfair-demo-2026!';

async function context(width: number): Promise<BrowserContext> {
  const ctx = await live.browser.newContext({ viewport: { width, height: 900 } });
  await ctx.addCookies([{ name: 'cookie_settings', value: '11111111', url: live.server.url }]);
  return ctx;
}

const csrfOf = async (ctx: BrowserContext) => (await ctx.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';

/** Signs the context in through the API, as the sign-in page's script does. */
async function signIn(ctx: BrowserContext, email: string) {
  await ctx.request.get(`${live.server.url}/rest/v1/auth/challenge`);
  const res = await ctx.request.post(`${live.server.url}/rest/v1/auth/login`, {
    headers: { 'X-CSRF-Token': await csrfOf(ctx), Origin: live.server.url },
    data: { email, password: PASSWORD },
  });
  expect(res.status()).toBe(200);
}

async function openWallet(email: string, width: number, prepare?: (ctx: BrowserContext) => Promise<void>) {
  const ctx = await context(width);
  await signIn(ctx, email);
  await prepare?.(ctx);
  const page = await ctx.newPage();
  await page.goto(`${live.server.url}/wallet`);
  await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
  return page;
}

const card = (page: Page, code: 'BTC' | 'USDT') => page.locator(`.wallet-card[data-currency="${code}"]`);
const balanceOf = (page: Page, code: 'BTC' | 'USDT') => card(page, code).locator('[data-balance]').textContent();

/** A valid TRON address (base58check, version 0x41). */
const TRON_ADDRESS = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH';

/** The sendouts the page posts, as they leave it. */
function sendsOf(page: Page): string[] {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/rest/v1/wallet/send')) posts.push(request.url());
  });
  return posts;
}

/** What the send review shows, line by line. */
async function reviewOf(dialog: Locator) {
  const line = (name: string) => dialog.locator(`[data-review="${name}"]`).textContent();
  await dialog.locator('[data-review-summary]').waitFor();
  return {
    address: await line('address'),
    network: await line('network'),
    amount: await line('amount'),
    fee: await line('fee'),
    total: await line('total'),
  };
}

/** The chain job polls every 5 s at this block interval: wait for what it announces. */
const SLOW = { timeout: 15_000 };

/**
 * `button` may not be used and shows it (issue 22): aria-disabled, named reason, and painted
 * unlike the page's enabled primary button (Send), with the not-allowed cursor.
 */
async function expectDisabledWithReason(page: Page, button: Locator, reason: Locator) {
  expect(await button.getAttribute('aria-disabled')).toBe('true');
  const reasonId = await reason.getAttribute('id');
  expect(reasonId).toBeTruthy();
  expect(await button.getAttribute('aria-describedby')).toBe(reasonId);
  const look = (target: Locator) =>
    target.evaluate((element) => {
      const style = getComputedStyle(element);
      return { background: style.backgroundColor, color: style.color, cursor: style.cursor };
    });
  const enabled = await look(page.locator('.wallet-actions [data-tour="send"]'));
  const disabled = await look(button);
  expect(disabled.background).not.toBe(enabled.background);
  expect(disabled.color).not.toBe(enabled.color);
  expect(disabled.cursor).toBe('not-allowed');
}

describe('the wallet page', () => {
  it('sends people who are not signed in to the sign-in page and back', async () => {
    const ctx = await context(1440);
    const res = await ctx.request.get(`${live.server.url}/wallet`, { maxRedirects: 0 });
    expect(res.status()).toBe(303);
    expect(res.headers().location).toBe('/login?back=%2Fwallet');
    const page = await ctx.newPage();
    await page.goto(`${live.server.url}/`);
    // The header's Wallet link leads here.
    expect(await page.locator('a[href="/wallet"]').count()).toBeGreaterThan(0);
    await ctx.close();
  });

  it('shows both currencies at zero, a BTC deposit as incoming, then confirmed after mining (1440 px)', async () => {
    const page = await openWallet('buyer@example.com', 1440);
    expect(await balanceOf(page, 'BTC')).toBe('0.00000000 BTC');
    expect(await balanceOf(page, 'USDT')).toBe('0.000000 USDT');
    expect(await page.locator('.wallet-ledger [data-empty]').isVisible()).toBe(true);

    await live.server.chain.deposit('buyer@example.com', '0.015', 'BTC');
    await expect
      .poll(() => card(page, 'BTC').locator('[data-incoming]').textContent(), SLOW)
      .toBe('+0.01500000 BTC incoming, credited once confirmed');
    const row = page.locator('.wallet-table tr[data-entry="deposit"]').first();
    // Balances and the ledger reload side by side: wait for the row too.
    await expect.poll(() => row.getAttribute('data-status')).toBe('incoming');
    expect(await row.textContent()).toContain('0 of 2 confirmations');

    await live.server.chain.mine('2');
    await expect.poll(() => balanceOf(page, 'BTC'), SLOW).toBe('0.01500000 BTC');
    expect(await card(page, 'BTC').locator('[data-incoming]').textContent()).toBe('Nothing incoming');
    await expect.poll(() => row.getAttribute('data-status')).toBe('confirmed');
    expect(await row.locator('.wallet-in').textContent()).toBe('+0.01500000 BTC');
    // The incoming row became the confirmed one: no stale duplicate stays below it (issue 22).
    await expect.poll(() => page.locator('.wallet-table tr[data-entry="deposit"]').count()).toBe(1);
    expect(await page.locator('.wallet-table tr[data-status="incoming"]').count()).toBe(0);
    await page.context().close();
  });

  it('funds tether through a TRC-20 deposit and shows the deposit addresses (375 px)', async () => {
    const page = await openWallet('buyer@example.com', 375);
    await live.server.chain.deposit('buyer@example.com', '250', 'USDT');
    await expect
      .poll(() => card(page, 'USDT').locator('[data-incoming]').textContent(), SLOW)
      .toContain('+250.000000 USDT');
    // TRON needs 19 blocks: two ticks of ten.
    await live.server.chain.mine('2');
    await expect.poll(() => balanceOf(page, 'USDT'), SLOW).toBe('250.000000 USDT');

    await page.getByRole('button', { name: 'Receive' }).click();
    const dialog = page.getByRole('dialog', { name: 'Receive' });
    await dialog.locator('[data-address]').waitFor();
    expect(await dialog.locator('[data-address]').textContent()).toMatch(/^bc1q[0-9a-z]{38}$/);
    expect(await dialog.locator('.wallet-qr svg').count()).toBe(1);
    expect(await dialog.locator('[data-warning]').textContent()).toContain('Bitcoin network');
    await dialog.getByRole('tab', { name: /Tether/ }).click();
    await expect.poll(() => dialog.locator('[data-address]').textContent()).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(await dialog.textContent()).toContain('Network: Tron (TRC-20)');
    expect(await dialog.locator('[data-warning]').textContent()).toContain('TRC-20');
    // The same address as the one the deposit above went to.
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.context().close();
  });

  it('converts tether to bitcoin at a live quote; bitcoin needs a verified identity (1440 px)', async () => {
    const page = await openWallet('buyer@example.com', 1440);
    expect(await balanceOf(page, 'USDT')).toBe('250.000000 USDT');

    // BTC → USDT: nobody is verified yet.
    await page.getByRole('button', { name: 'Convert to tether' }).click();
    let dialog = page.getByRole('dialog', { name: 'Convert bitcoin to tether' });
    const reason = dialog.locator('[data-disabled-reason]');
    expect(await reason.textContent()).toBe('Verify your identity to convert bitcoin.');
    await expectDisabledWithReason(page, dialog.locator('[data-convert]'), reason);
    // The reason leads where the identity is verified (issue 22).
    expect(await reason.getByRole('link').getAttribute('href')).toBe('/verification');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Convert to bitcoin' }).click();
    dialog = page.getByRole('dialog', { name: 'Convert tether to bitcoin' });
    await expect.poll(() => dialog.locator('[data-countdown]').textContent()).toMatch(/^valid for \d+ s$/);
    expect(await dialog.locator('[data-rate]').textContent()).toMatch(/^1 BTC = [\d,]+\.\d{2} USDT/);
    expect(await dialog.locator('[data-convert]').isDisabled()).toBe(true);
    await dialog.getByLabel('Amount to convert (USDT)').fill('100');
    await expect.poll(() => dialog.locator('[data-preview]').textContent()).toMatch(/^You receive 0\.\d{8} BTC$/);
    await dialog.locator('[data-convert]').click();

    const notice = page.locator('.wallet-notice');
    await expect.poll(() => notice.textContent()).toMatch(/^Converted: you received 0\.\d{8} BTC\.$/);
    expect(await page.getByRole('dialog').count()).toBe(0);
    const received = /0\.\d{8}/.exec((await notice.textContent()) ?? '')?.[0] ?? '';
    await expect.poll(() => balanceOf(page, 'USDT')).toBe('150.000000 USDT');
    const btc = (1_500_000 + Math.round(Number(received) * 1e8)) / 1e8;
    expect(await balanceOf(page, 'BTC')).toBe(`${btc.toFixed(8)} BTC`);
    await expect.poll(() => page.locator('.wallet-table tr[data-entry="conversion"]').count()).toBe(2);
    // One rule per currency (issue 22): every tether amount with its 6 decimals, whatever its own.
    const tether = (await page.locator('.wallet-table .wallet-num').allTextContents()).filter((a) =>
      a.endsWith('USDT'),
    );
    expect(tether).toEqual(['-100.000000 USDT', '+250.000000 USDT']);

    // Closing after success leaves the direction fresh.
    await page.getByRole('button', { name: 'Convert to bitcoin' }).click();
    expect(await dialog.getByLabel('Amount to convert (USDT)').inputValue()).toBe('');
    await page.context().close();
  });

  it('converts bitcoin to tether once an operator verified the identity (1440 px)', async () => {
    // Another person than the buyer, so the buyer's balances stay as the next tests expect.
    const email = 'vendor@example.com';
    live.server.sql('UPDATE users SET id_verified_at = ? WHERE email = ?', Date.now(), email);
    await live.server.chain.deposit(email, '0.01', 'BTC');
    await live.server.chain.mine('2');
    const page = await openWallet(email, 1440);
    await expect.poll(() => balanceOf(page, 'BTC'), SLOW).toBe('0.01000000 BTC');
    await page.getByRole('button', { name: 'Convert to tether' }).click();
    const dialog = page.getByRole('dialog', { name: 'Convert bitcoin to tether' });
    await expect.poll(() => dialog.locator('[data-countdown]').textContent()).toMatch(/^valid for \d+ s$/);
    expect(await dialog.locator('[data-disabled-reason]').count()).toBe(0);
    await dialog.getByLabel('Amount to convert (BTC)').fill('0.001');
    await dialog.locator('[data-convert]').click();
    const notice = page.locator('.wallet-notice');
    await expect.poll(() => notice.textContent()).toMatch(/^Converted: you received [\d.,]+ USDT\.$/);
    await expect.poll(() => balanceOf(page, 'BTC')).toBe('0.00900000 BTC');
    // 0.001 BTC at the bid (about 92,000 USDT per BTC here) is about 92 USDT.
    expect(Number(((await balanceOf(page, 'USDT')) ?? '').replace(/[^\d.]/g, ''))).toBeGreaterThan(50);
    await page.context().close();
  });

  it('marks the rate obsolete at the quote’s expiry, keeps quotes that arrive expired out, and disables converting (375 px)', async () => {
    const ctx = await context(375);
    await signIn(ctx, 'buyer@example.com');
    const page = await ctx.newPage();
    // The page's clock runs with real time until the test jumps it past the quote's expiry.
    await page.clock.install();
    await page.goto(`${live.server.url}/wallet`);
    await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Convert to bitcoin' }).click();
    const dialog = page.getByRole('dialog', { name: 'Convert tether to bitcoin' });
    await dialog.getByLabel('Amount to convert (USDT)').fill('20');
    await expect.poll(() => dialog.locator('[data-convert]').isEnabled()).toBe(true);

    // Past every quote's 30 s: the one shown expires, and those still arriving are expired on receipt.
    await page.clock.fastForward('01:00');
    await expect.poll(() => dialog.locator('[data-rate]').getAttribute('data-obsolete')).toBe('');
    expect(await dialog.locator('[data-rate]').textContent()).toBe('This rate has expired. Waiting for a new one…');
    expect(await dialog.locator('[data-disabled-reason]').getAttribute('data-disabled-reason')).toBe('rateObsolete');
    expect(await dialog.locator('[data-convert]').isDisabled()).toBe(true);
    await page.waitForTimeout(2500);
    expect(await dialog.locator('[data-convert]').isDisabled()).toBe(true);
    await ctx.close();
  });

  it('keeps a conversion that timed out pending and retries it with the same order id (1440 px)', async () => {
    const page = await openWallet('buyer@example.com', 1440);
    const orders: string[] = [];
    // The first answer is the server's slow path (504 HEDGING_ORDER_PENDING); the retry goes through.
    await page.route('**/rest/v1/hedging/convert**', async (route) => {
      orders.push((route.request().postDataJSON() as { order_id: string }).order_id);
      if (orders.length > 1) return route.continue();
      return route.fulfill({
        status: 504,
        contentType: 'application/json',
        body: JSON.stringify({ errors: [{ code: 'HEDGING_ORDER_PENDING', message: 'Still processing.' }] }),
      });
    });
    await page.getByRole('button', { name: 'Convert to bitcoin' }).click();
    const dialog = page.getByRole('dialog', { name: 'Convert tether to bitcoin' });
    await dialog.getByLabel('Amount to convert (USDT)').fill('25');
    await dialog.locator('[data-convert]').click();

    await dialog.locator('[data-state="pending"]').waitFor();
    expect(await dialog.locator('[data-state="pending"]').textContent()).toContain(
      'The conversion is still being processed. Retry to finish it.',
    );
    expect(await dialog.getByLabel('Amount to convert (USDT)').isDisabled()).toBe(true);
    // Closing keeps a pending conversion: it comes back with its Retry.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Convert to bitcoin' }).click();
    await dialog.locator('[data-state="pending"]').waitFor();
    await dialog.getByRole('button', { name: 'Retry' }).click();

    await expect.poll(() => page.locator('.wallet-notice').textContent()).toMatch(/^Converted: you received/);
    expect(orders).toHaveLength(2);
    expect(orders[1]).toBe(orders[0]);
    await expect.poll(() => balanceOf(page, 'USDT')).toBe('125.000000 USDT');
    await page.context().close();
  });

  it('disables converting when the quotes channel cannot be subscribed (375 px)', async () => {
    const ctx = await context(375);
    await signIn(ctx, 'buyer@example.com');
    const page = await ctx.newPage();
    // Every socket closes at once: after the spec's three retries (1 + 2 + 3 s) the channel is given up.
    await page.routeWebSocket(/\/ws$/, (ws) => ws.close());
    await page.goto(`${live.server.url}/wallet`);
    await page.getByRole('button', { name: 'Convert to bitcoin' }).click();
    const dialog = page.getByRole('dialog', { name: 'Convert tether to bitcoin' });
    await expect
      .poll(() => dialog.locator('[data-disabled-reason]').getAttribute('data-disabled-reason'), { timeout: 12_000 })
      .toBe('subscribe');
    expect(await dialog.locator('[data-disabled-reason]').textContent()).toContain('Live rates cannot be reached');
    expect(await dialog.locator('[data-convert]').isDisabled()).toBe(true);
    await ctx.close();
  });

  it('sends bitcoin with a second-factor code and shows the pending sendout (1440 px)', async () => {
    const email = 'affiliate@example.com';
    await live.server.chain.deposit(email, '0.01', 'BTC');
    await live.server.chain.mine('2');
    let secret = '';
    const page = await openWallet(email, 1440, async (ctx) => {
      const headers = { 'X-CSRF-Token': await csrfOf(ctx), Origin: live.server.url };
      const setup = await ctx.request.post(`${live.server.url}/rest/v1/users/2fa/setup`, { headers, data: {} });
      secret = ((await setup.json()) as { data: { secret: string } }).data.secret;
      const confirm = await ctx.request.post(`${live.server.url}/rest/v1/users/2fa/confirm`, {
        headers,
        data: { code: generateSync({ secret }) },
      });
      expect(confirm.status()).toBe(200);
    });
    await expect.poll(() => balanceOf(page, 'BTC'), SLOW).toBe('0.01000000 BTC');

    const posts = sendsOf(page);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Send' });
    expect(await dialog.textContent()).toContain('Network fee 0.00002000 BTC, added to the amount');
    await dialog.getByRole('button', { name: 'Max' }).click();
    expect(await dialog.getByLabel('Amount (BTC)').inputValue()).toBe('0.00998');

    // The form's own checks come first: no review of what cannot go out.
    await dialog.getByLabel('Amount (BTC)').fill('0.01');
    await dialog.getByRole('button', { name: 'Review' }).click();
    expect(await dialog.locator('#send-address-error').textContent()).toBe("Enter the recipient's address.");
    expect(await dialog.locator('#send-amount-error').textContent()).toBe(
      'The amount and the network fee (0.00002000 BTC) exceed your balance.',
    );

    // The review shows what goes where; nothing went out on the first click (issue 22).
    const typo = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5';
    await dialog.getByLabel('Recipient address').fill(typo);
    await dialog.getByLabel('Amount (BTC)').fill('0.004');
    await dialog.getByRole('button', { name: 'Review' }).click();
    expect(await reviewOf(dialog)).toEqual({
      address: typo,
      network: 'Bitcoin',
      amount: '0.00400000 BTC',
      fee: '0.00002000 BTC',
      total: '0.00402000 BTC',
    });
    expect(posts).toHaveLength(0);

    // The server's verdict on the address brings the form back, the field marked.
    await dialog.getByRole('button', { name: 'Confirm and send' }).click();
    await expect.poll(() => dialog.locator('#send-address-error').textContent()).toContain('checksum');
    await dialog.getByLabel('Recipient address').fill('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
    await dialog.getByRole('button', { name: 'Review' }).click();
    // The second factor is asked on the review, where the sendout is confirmed.
    await dialog.getByRole('button', { name: 'Confirm and send' }).click();
    await expect
      .poll(() => dialog.locator('#send-code-error').textContent())
      .toBe('Enter the code from your authenticator app.');
    expect(await dialog.locator('[data-review="total"]').textContent()).toBe('0.00402000 BTC');
    // The confirming code's step is spent: the next step's code.
    await dialog
      .getByLabel('Code from your authenticator app')
      .fill(generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
    await dialog.getByRole('button', { name: 'Confirm and send' }).click();

    await expect
      .poll(() => page.locator('.wallet-notice').textContent())
      .toContain('Sendout of 0.00400000 BTC requested');
    expect(posts).toHaveLength(3);
    expect(await page.getByRole('dialog').count()).toBe(0);
    const row = page.locator('.wallet-table tr[data-entry="sendout"]').first();
    await row.waitFor();
    expect(['pending', 'broadcast']).toContain(await row.getAttribute('data-status'));
    expect(await row.locator('.wallet-out').textContent()).toBe('-0.00402000 BTC');
    await expect.poll(() => balanceOf(page, 'BTC')).toBe('0.00598000 BTC');
    await page.context().close();
  });

  it('sends tether once on a double click of Confirm, after a review that Edit goes back from (375 px)', async () => {
    const email = 'moderator@example.com';
    await live.server.chain.deposit(email, '50', 'USDT');
    // TRON needs 19 blocks: two ticks of ten.
    await live.server.chain.mine('2');
    const page = await openWallet(email, 375);
    await expect.poll(() => balanceOf(page, 'USDT'), SLOW).toBe('50.000000 USDT');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Send' });
    await dialog.getByLabel('Currency').selectOption('USDT');
    await dialog.getByLabel('Recipient address').fill(TRON_ADDRESS);
    await dialog.getByLabel('Amount (USDT)').fill('10');
    await dialog.getByRole('button', { name: 'Review' }).click();
    expect(await reviewOf(dialog)).toMatchObject({ network: 'Tron (TRC-20)', total: '11.000000 USDT' });

    // Edit keeps what was typed; the review follows the change.
    await dialog.getByRole('button', { name: 'Edit' }).click();
    expect(await dialog.getByLabel('Recipient address').inputValue()).toBe(TRON_ADDRESS);
    await dialog.getByLabel('Amount (USDT)').fill('12.5');
    await dialog.getByRole('button', { name: 'Review' }).click();
    expect(await reviewOf(dialog)).toEqual({
      address: TRON_ADDRESS,
      network: 'Tron (TRC-20)',
      amount: '12.500000 USDT',
      fee: '1.000000 USDT',
      total: '13.500000 USDT',
    });

    // The answer waits until the test lets it go: the second click lands while the first is posted.
    const posts: string[] = [];
    let answer: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    await page.route('**/rest/v1/wallet/send**', async (route) => {
      posts.push((route.request().postDataJSON() as { request_id: string }).request_id);
      await held;
      await route.continue();
    });
    const confirm = dialog.getByRole('button', { name: /Confirm and send|Sending/ });
    await confirm.dblclick();
    await expect.poll(() => confirm.isDisabled()).toBe(true);
    expect(await confirm.textContent()).toBe('Sending…');
    answer();
    await expect.poll(() => page.locator('.wallet-notice').textContent()).toContain('Sendout of 12.500000 USDT');
    expect(posts).toHaveLength(1);
    await expect.poll(() => balanceOf(page, 'USDT')).toBe('36.500000 USDT');
    const rows = page.locator('.wallet-table tr[data-entry="sendout"]');
    expect(await rows.count()).toBe(1);
    expect(await rows.locator('.wallet-out').textContent()).toBe('-13.500000 USDT');
    await page.context().close();
  });

  it('pages the ledger 50 at a time with "Show more" (1440 px)', async () => {
    // An account without wallet history (the demo kiosk opens with its float: docs/kiosks-and-merchants.md).
    const email = 'admin@example.com';
    for (let i = 1; i <= 51; i++) await live.server.chain.deposit(email, `0.00${String(i).padStart(3, '0')}`, 'BTC');
    await live.server.chain.mine('2');
    const page = await openWallet(email, 1440);
    const rows = page.locator('.wallet-table tbody tr');
    expect(await rows.count()).toBe(50);
    await page.getByRole('button', { name: 'Show more' }).click();
    await expect.poll(() => rows.count()).toBe(51);
    expect(await page.getByRole('button', { name: 'Show more' }).count()).toBe(0);
    await page.context().close();
  });

  it('explains why sending is not allowed and does not send (375 px)', async () => {
    live.server.sql("UPDATE users SET is_email_verified = 0 WHERE email = 'merchant@example.com'");
    const page = await openWallet('merchant@example.com', 375);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Send' });
    expect(await dialog.locator('[data-not-allowed]').textContent()).toBe(
      'Confirm your e-mail address to send coins out of your wallet.',
    );
    // The form's one action leads to the review step; it is disabled, so nothing is ever reviewed.
    expect(await dialog.getByRole('button', { name: 'Review', exact: true }).isDisabled()).toBe(true);
    await page.context().close();
  });
});

describe.each([
  [
    1440,
    [
      'Your balances',
      'Bitcoin balance',
      'Send',
      'Tether balance',
      'Convert to tether',
      'Convert to bitcoin',
      'Receive',
      'Transactions',
    ],
  ],
  // Phones leave out converting to tether and receiving (spec section 2).
  [375, ['Your balances', 'Bitcoin balance', 'Send', 'Tether balance', 'Convert to bitcoin', 'Transactions']],
])('the wallet tour at %i px', (width, expected) => {
  it('walks its steps', async () => {
    const page = await openWallet('buyer@example.com', width);
    await page.getByRole('button', { name: 'Take a tour' }).click();
    const popover = page.locator('[data-tour-popover]');
    const titles: string[] = [];
    for (let step = 0; step < expected.length; step++) {
      await popover.waitFor({ state: 'visible' });
      titles.push((await popover.locator('[data-tour-title]').textContent()) ?? '');
      await popover.locator('[data-tour-next]').click();
    }
    expect(titles).toEqual(expected);
    expect(await popover.isHidden()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('tour:wallet'))).toBe('done');
    await page.context().close();
  });
});
