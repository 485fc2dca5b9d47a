import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverAndBrowser } from './harness.ts';

// Verification as people meet it in Chromium: the buyer uploads an ID and a selfie on a phone
// without JavaScript, a moderator approves them in another browser, and the buyer's limits
// dashboard and an offer's requirements follow the new level. Then the verification scroll.

const live = serverAndBrowser();
const PASSWORD = 'Coinfair-demo-2026!';

let photo: Buffer;
beforeAll(async () => {
  photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#4a6fa5' } })
    .jpeg()
    .toBuffer();
});

async function signedIn(email: string, width: number, javaScriptEnabled = true): Promise<BrowserContext> {
  const ctx = await live.browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled });
  await ctx.addCookies([{ name: 'cookie_settings', value: '11111111', url: live.server.url }]);
  await ctx.request.get(`${live.server.url}/rest/v1/auth/challenge`);
  const csrf = (await ctx.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await ctx.request.post(`${live.server.url}/rest/v1/auth/login`, {
    headers: { 'X-CSRF-Token': csrf, Origin: live.server.url },
    data: { email, password: PASSWORD },
  });
  expect(res.status()).toBe(200);
  return ctx;
}

/** A USD offer of the demo vendor between 6,000 and 9,000: above level 2's limit, within level 3's. */
async function bigOffer(): Promise<string> {
  const ctx = await signedIn('vendor@example.com', 1280);
  const csrf = (await ctx.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await ctx.request.post(`${live.server.url}/rest/v1/offers`, {
    headers: { 'X-CSRF-Token': csrf, Origin: live.server.url },
    data: {
      type: 'sell',
      crypto_currency_code: 'BTC',
      currency: 'USD',
      payment_method: 'bank-transfer',
      price_type: 'margin',
      margin: '1',
      fiat_min: '6000',
      fiat_max: '9000',
      payment_window: 60,
      terms: 'Transfer from an account in your own name.',
      trade_instructions: 'Bank details in the chat.',
      tags: [],
      is_skip_warnings: true,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { hash } = (await res.json()).data as { hash: string };
  await ctx.close();
  return hash;
}

async function uploadDocument(page: Page, kind: string) {
  const slot = page.locator(`[data-document="${kind}"]`);
  await slot
    .locator('input[type="file"]')
    .setInputFiles({ name: `${kind}.jpg`, mimeType: 'image/jpeg', buffer: photo });
  await slot.getByRole('button', { name: 'Upload' }).click();
  await page.waitForURL(/done=uploaded/);
  expect(await page.locator(`[data-document="${kind}"]`).getAttribute('data-status')).toBe('uploaded');
}

describe('identity verification', () => {
  it('uploads without JavaScript, is approved by a moderator, and raises the limit and the offers open to the buyer', async () => {
    live.server.sql(
      `INSERT INTO phones (user_id, number, verified_at, codes_sent_at)
       SELECT id, '+12025550147', ?, '[]' FROM users WHERE email = 'buyer@example.com'`,
      Date.now(),
    );
    const hash = await bigOffer();

    // The buyer, on a phone, without JavaScript.
    const buyer = await signedIn('buyer@example.com', 375, false);
    const page = await buyer.newPage();
    await page.goto(`${live.server.url}/verification`);
    expect((await page.locator('.level-badge').textContent())?.trim()).toBe('Level 2 of 4');
    expect((await page.locator('[data-limits-left]').textContent())?.trim()).toBe('$5,000.00 left');
    await page.goto(`${live.server.url}/offers/${hash}`);
    expect(await page.locator('.start-blocks').textContent()).toContain(
      'Your trading limit at level 2 has 5000.00 USD left',
    );

    await page.goto(`${live.server.url}/verification`);
    await uploadDocument(page, 'id_front');
    await uploadDocument(page, 'selfie');
    await page.getByLabel('Full name as on the document').fill('Ada Lovelace');
    await page.locator('#identity').getByRole('button', { name: 'Send for review' }).click();
    await page.waitForURL(/done=submitted/);
    expect((await page.locator('.alert-success').textContent())?.trim()).toBe('Your documents were sent for review.');
    expect((await page.locator('#identity .badge').textContent())?.trim()).toBe('In review');
    // Pending: no second upload of the same document.
    expect(await page.locator('[data-document="id_front"] input[type="file"]').count()).toBe(0);

    // A moderator, in another browser, approves both.
    const moderator = await signedIn('moderator@example.com', 1280);
    const queue = await moderator.newPage();
    await queue.goto(`${live.server.url}/verification/review`);
    expect(await queue.locator('[data-queue-item]').count()).toBe(2);
    for (let left = 2; left > 0; left--) {
      await queue.locator('[data-queue-item]').first().getByRole('button', { name: 'Approve' }).click();
      await queue.waitForURL(/done=1/);
      expect(await queue.locator('[data-queue-item]').count()).toBe(left - 1);
    }
    expect(await queue.locator('.verify-card').textContent()).toContain('Nothing is waiting for review.');
    expect((await live.server.latestMail('buyer@example.com'))?.subject).toBe('Your Coinfair document was approved');

    // The buyer's dashboard and the offer follow.
    await page.goto(`${live.server.url}/verification`);
    expect((await page.locator('.level-badge').textContent())?.trim()).toBe('Level 3 of 4');
    expect((await page.locator('[data-limits-left]').textContent())?.trim()).toBe('$25,000.00 left');
    expect(await page.locator('[data-limits-next]').textContent()).toContain('Next step: Proof of address');
    expect((await page.locator('#identity .badge').textContent())?.trim()).toBe('Verified');
    await page.goto(`${live.server.url}/offers/${hash}`);
    expect(
      (await page.locator('.start-blocks').count()) === 0 ||
        !(await page.locator('.start-blocks').textContent())?.includes('trading limit'),
    ).toBe(true);
    await buyer.close();
    await moderator.close();
  });

  it('keeps the moderators’ queue from everyone else', async () => {
    const ctx = await signedIn('vendor@example.com', 1280);
    const res = await ctx.request.get(`${live.server.url}/verification/review`);
    expect(res.status()).toBe(404);
    await ctx.close();
  });

  it('scrolls a step into view below the navbar with 40 px to spare (1280 px)', async () => {
    const ctx = await signedIn('affiliate@example.com', 1280);
    const page = await ctx.newPage();
    await page.goto(`${live.server.url}/verification`);
    await page.locator('[data-verification-scroll] a[href="#address"]').click();
    await expect
      .poll(async () =>
        page.evaluate(() => {
          const header = document.getElementById('site-header')?.getBoundingClientRect().height ?? 0;
          return Math.round((document.getElementById('address')?.getBoundingClientRect().top ?? 0) - header);
        }),
      )
      .toBe(40);
    expect(new URL(page.url()).hash).toBe('#address');
    await ctx.close();
  });
});
