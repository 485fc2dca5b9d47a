import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { canonicalRequest, MAX_API_KEYS } from '../../src/lib/shared/api-keys.ts';
import { seriousViolations, serverAndBrowser } from './harness.ts';
import { browserPeople } from './people.ts';
import { overflowsSideways, shotPath } from './screen-checks.ts';

// "API keys" in settings (issue 21) in Chromium: an identity-verified person creates a read key
// and a trade key, sees each secret once (a reload shows only the list), a bot (this test
// process) signs real requests with them over HTTP, the list then says when and from where each
// key was last used, and one key is revoked. A merchant at the limit of ten keys is told so; a
// person whose identity is not verified gets the explanation instead. Screenshots of the section
// at 375 and 1440 px, light and dark, English, German and Hebrew, land in
// test-results/api-keys-*.png for a person to look at.

const live = serverAndBrowser();
const people = browserPeople(live);

/** Marks `email`'s identity verified, as a moderator's review does. */
const verifyIdentity = (email: string) =>
  live.server.sql('UPDATE users SET id_verified_at = ? WHERE email = ?', Date.now(), email);

/** A bot's request signed with the key's secret (docs/api.md), sent over HTTP to the test server. */
async function signedFetch(keyId: string, secret: string, method: string, pathAndQuery: string, json?: unknown) {
  const body = json === undefined ? '' : JSON.stringify(json);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomBytes(16).toString('hex');
  const digest = createHash('sha256').update(body).digest('hex');
  const signature = createHmac('sha256', secret)
    .update(canonicalRequest(method, pathAndQuery, timestamp, nonce, digest))
    .digest('hex');
  const headers: Record<string, string> = {
    'x-api-key': keyId,
    'x-api-timestamp': timestamp,
    'x-api-nonce': nonce,
    'x-api-signature': signature,
  };
  if (body) headers['content-type'] = 'application/json';
  const res = await fetch(live.server.url + pathAndQuery, { method, headers, ...(body ? { body } : {}) });
  return { status: res.status, json: (await res.json()) as { data?: unknown; errors?: { message: string }[] } };
}

/** Every console error, warning (hydration among them) and uncaught error of the page. */
async function open(ctx: BrowserContext, path: string): Promise<{ page: Page; problems: string[] }> {
  const problems: string[] = [];
  const page = await people.open(ctx, path, problems);
  return { page, problems };
}

const section = (page: Page) => page.locator('section#api-keys');
const rows = (page: Page) => section(page).locator('li[data-api-key]');

/** The section alone: the fixed header and the sticky nav would be stitched over a tall one. */
async function shot(target: Locator, name: string) {
  const page = target.page();
  const hidden = await page.addStyleTag({ content: '#site-header, .settings-nav { visibility: hidden !important; }' });
  await target.screenshot({ path: shotPath(`api-keys-${name}.png`) });
  await hidden.evaluate((style) => (style as Element).remove());
}

/** Creates a key through the form; answers its id and secret from the one-time panel. */
async function createInForm(page: Page, name: string, scope: 'Read only' | 'Trading') {
  const card = section(page);
  await card.getByLabel('Name', { exact: true }).fill(name);
  await card.getByRole('radio', { name: new RegExp(`^${scope}`) }).check();
  await card.getByRole('button', { name: 'Create key' }).click();
  const panel = card.locator('[data-api-key-new]');
  await panel.waitFor();
  const id = (await panel.getByTestId('api-key-new-id').textContent()) ?? '';
  const secret = (await panel.getByTestId('api-key-new-secret').textContent()) ?? '';
  return { panel, id, secret };
}

describe('API keys in settings', () => {
  it('creates a read and a trade key, shows each secret once, records their use and revokes one', async () => {
    const BUYER = 'buyer@example.com';
    verifyIdentity(BUYER);
    const ctx = await people.signedIn(BUYER, 1440);
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: live.server.url });
    const { page, problems } = await open(ctx, '/settings#api-keys');
    const card = section(page);

    // Below the security sections, reached from the nav by its anchor.
    const nav = page.getByRole('navigation', { name: 'Settings sections' });
    expect(await nav.getByRole('link').allTextContents()).toEqual([
      'Profile',
      'Phone',
      'Telegram',
      'Password',
      'Two-factor',
      'Devices',
      'API keys',
      'Export',
      'Cookies',
    ]);
    expect(await nav.getByRole('link', { name: 'API keys' }).getAttribute('href')).toBe('#api-keys');
    expect(await card.getByRole('heading', { level: 2 }).textContent()).toBe('API keys');
    expect(await card.getByRole('link', { name: 'API documentation' }).first().getAttribute('href')).toBe(
      '/developers#api',
    );
    expect(await card.getByText('You have no API keys yet.').count()).toBe(1);
    expect(await card.locator('.api-keys-count').textContent()).toBe(`0 of ${MAX_API_KEYS}`);

    // A key needs a name: said on the field, nothing sent.
    await card.getByRole('button', { name: 'Create key' }).click();
    const name = card.getByLabel('Name', { exact: true });
    await expect.poll(() => page.locator('#api-key-name-error').textContent()).toBe('Give the key a name.');
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('api-key-name');

    // A read key: its secret shown once, with the warning, copyable; "I saved it" takes it away.
    const read = await createInForm(page, 'Price watcher', 'Read only');
    expect(read.id).toMatch(/^ck_[0-9A-Za-z]{16}$/);
    expect(read.secret).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
    expect(await read.panel.textContent()).toContain('Copy the secret now: it is shown once and cannot be recovered.');
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-api-key-new'))).toBe(true);
    await read.panel.getByRole('button', { name: 'Copy the secret' }).click();
    await read.panel.getByRole('status').filter({ hasText: 'The secret is copied.' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(read.secret);
    expect(await seriousViolations(page, 'section#api-keys')).toEqual([]);
    await read.panel.getByRole('button', { name: 'I saved it' }).click();
    expect(await card.locator('[data-api-key-new]').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('api-key-name');
    expect(await rows(page).count()).toBe(1);
    const readRow = rows(page).filter({ hasText: 'Price watcher' });
    expect(await readRow.locator('code').textContent()).toBe(read.id);
    expect(await readRow.locator('.badge').textContent()).toBe('Read only');
    expect(await readRow.textContent()).toContain('Never used');

    // A trade key, and a reload before "I saved it": the secret is gone for good, the list stays.
    const trade = await createInForm(page, 'Trader bot', 'Trading');
    expect(trade.secret).not.toBe(read.secret);
    await page.reload();
    await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
    expect(await card.locator('[data-api-key-new]').count()).toBe(0);
    expect(await page.content()).not.toContain(trade.secret);
    expect(await rows(page).count()).toBe(2);
    expect(await card.locator('.api-keys-count').textContent()).toBe(`2 of ${MAX_API_KEYS}`);
    // Newest first.
    expect(await rows(page).first().locator('.badge').textContent()).toBe('Trading');

    // A bot signs real requests with the secrets: the trade key reads the account; the read key
    // may not change anything, and says so in the language asked for.
    const me = await signedFetch(trade.id, trade.secret, 'GET', '/rest/v1/users/me');
    expect(me.status, JSON.stringify(me.json)).toBe(200);
    expect((me.json.data as { email: string }).email).toBe(BUYER);
    const refused = await signedFetch(read.id, read.secret, 'POST', '/rest/v1/offers?locale=de', {});
    expect(refused.status).toBe(403);
    expect(refused.json.errors?.[0]?.message).toBe('Dieser Schlüssel darf nur lesen.');

    // After a reload the list says when and from where each key was used.
    await page.reload();
    await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
    const tradeRow = rows(page).filter({ hasText: 'Trader bot' });
    expect(await tradeRow.locator('[data-api-key-used="yes"]').textContent()).toMatch(
      /^Last used .+ · IP address (::ffff:)?127\.0\.0\.1$/,
    );
    expect(await rows(page).filter({ hasText: 'Price watcher' }).locator('[data-api-key-used]').textContent()).toMatch(
      /^Last used/,
    );

    // Revoking asks first; the key stops working at once.
    const readRowAgain = rows(page).filter({ hasText: 'Price watcher' });
    await readRowAgain.getByRole('button', { name: 'Revoke the key “Price watcher”' }).click();
    const yes = readRowAgain.getByRole('button', { name: 'Yes, revoke' });
    expect(await yes.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await readRowAgain.textContent()).toContain('Revoke this key? Bots using it stop working at once.');
    await readRowAgain.getByRole('button', { name: 'Keep it' }).click();
    expect(await rows(page).count()).toBe(2);
    await readRowAgain.getByRole('button', { name: 'Revoke the key “Price watcher”' }).click();
    await readRowAgain.getByRole('button', { name: 'Yes, revoke' }).click();
    await card.getByRole('status').filter({ hasText: 'The key “Price watcher” is revoked.' }).waitFor();
    expect(await rows(page).count()).toBe(1);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('api-keys-list-title');
    const gone = await signedFetch(read.id, read.secret, 'GET', '/rest/v1/users/me');
    expect(gone.status).toBe(401);
    expect(gone.json.errors?.[0]?.message).toBe('This API key does not exist or was revoked.');
    await page.reload();
    await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
    expect(await rows(page).count()).toBe(1);

    expect(await seriousViolations(page, 'section#api-keys')).toEqual([]);
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('tells a merchant at ten keys to revoke one first', async () => {
    const MERCHANT = 'merchant@example.com';
    const ctx = await people.signedIn(MERCHANT, 375);
    for (let i = 1; i <= MAX_API_KEYS; i++) {
      await people.api(ctx, '/rest/v1/api-keys', { name: `Bot number ${i} with a rather long name`, scope: 'read' });
    }
    const { page, problems } = await open(ctx, '/settings#api-keys');
    const card = section(page);
    expect(await rows(page).count()).toBe(MAX_API_KEYS);
    expect(await card.locator('.api-keys-count').textContent()).toBe(`${MAX_API_KEYS} of ${MAX_API_KEYS}`);
    expect(await card.locator('[data-api-keys-full]').textContent()).toBe(
      `You have ${MAX_API_KEYS} keys, the most allowed at once. Revoke one to create another.`,
    );
    expect(await card.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    expect(await overflowsSideways(page)).toBe(false);
    // The server says the same to a request that gets past the screen.
    const res = await ctx.request.post(`${live.server.url}/rest/v1/api-keys?locale=de`, {
      headers: { 'X-CSRF-Token': await people.csrfOf(ctx), Origin: live.server.url },
      data: { name: 'one more', scope: 'read' },
    });
    expect(res.status()).toBe(403);
    expect(((await res.json()) as { errors: { message: string }[] }).errors[0]?.message).toBe(
      `Höchstens ${MAX_API_KEYS} Schlüssel gleichzeitig; widerrufe zuerst einen.`,
    );
    await shot(card, 'full-375');
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('explains to a person without a verified identity who may hold keys, with the way there', async () => {
    for (const [locale, prefix] of [
      ['en', ''],
      ['de', '/de'],
    ] as const) {
      const ctx = await people.signedIn('affiliate@example.com', 375);
      const { page, problems } = await open(ctx, `${prefix}/settings#api-keys`);
      const card = section(page);
      const box = card.locator('[data-api-keys-not-eligible]');
      await box.waitFor();
      expect(await card.getByRole('button').count()).toBe(0);
      expect(await box.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([
        `${prefix}/verification`,
        `${prefix}/webhooks`,
        `${prefix}/developers#api`,
      ]);
      if (locale === 'en') {
        expect(await box.textContent()).toContain(
          'API keys are for merchants and for people whose identity is verified.',
        );
        expect(await seriousViolations(page, 'section#api-keys')).toEqual([]);
      }
      expect(await overflowsSideways(page)).toBe(false);
      await shot(card, `not-eligible-${locale}-375`);
      expect(problems).toEqual([]);
      await ctx.close();
    }
  });

  it('looks right at 375 and 1440 px, light and dark, in English, German and Hebrew', async () => {
    const VENDOR = 'vendor@example.com';
    verifyIdentity(VENDOR);
    const setup = await people.signedIn(VENDOR, 1440);
    const made = await people.api<{ key: { id: string }; secret: string }>(setup, '/rest/v1/api-keys', {
      name: 'Market maker for the euro listings',
      scope: 'trade',
    });
    await people.api(setup, '/rest/v1/api-keys', { name: 'Price watcher', scope: 'read' });
    expect((await signedFetch(made.key.id, made.secret, 'GET', '/rest/v1/users/me')).status).toBe(200);
    await setup.close();

    const cases = [
      ['en', ''],
      ['de', '/de'],
      ['he', '/he'],
    ] as const;
    for (const [locale, prefix] of cases) {
      for (const width of [375, 1440]) {
        for (const colorScheme of ['light', 'dark'] as const) {
          if (locale === 'he' && colorScheme === 'dark') continue;
          const ctx = await people.signedIn(VENDOR, width, { colorScheme });
          const { page, problems } = await open(ctx, `${prefix}/settings#api-keys`);
          const card = section(page);
          expect(await rows(page).count()).toBe(2);
          // The page as the anchor leaves it (scrolling is smooth): the section at the top, its link marked.
          await expect.poll(() => card.evaluate((el) => Math.round(el.getBoundingClientRect().top))).toBeLessThan(200);
          await expect
            .poll(() => page.locator('.settings-nav a[aria-current]').textContent())
            .toBe(await page.locator('.settings-nav a[href="#api-keys"]').textContent());
          await page.waitForTimeout(300);
          await page.screenshot({ path: shotPath(`api-keys-page-${locale}-${width}-${colorScheme}.png`) });
          await shot(card, `list-${locale}-${width}-${colorScheme}`);
          // The one-time panel, then the key made for it is revoked again.
          await card.locator('#api-key-name').fill('Temporary key with a name long enough to wrap');
          await card.locator('input[name="scope"][value="trade"]').check();
          await card.locator('form button[type="submit"]').click();
          const panel = card.locator('[data-api-key-new]');
          await panel.waitFor();
          const id = (await panel.getByTestId('api-key-new-id').textContent()) ?? '';
          expect(await overflowsSideways(page)).toBe(false);
          await shot(card, `new-${locale}-${width}-${colorScheme}`);
          const res = await ctx.request.delete(`${live.server.url}/rest/v1/api-keys/${id}`, {
            headers: { 'X-CSRF-Token': await people.csrfOf(ctx), Origin: live.server.url },
          });
          expect(res.status()).toBe(200);
          expect(problems).toEqual([]);
          await ctx.close();
        }
      }
    }
  });
});
