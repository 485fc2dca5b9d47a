import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { API_KEY_RATE_LIMIT, API_KEY_RATE_WINDOW_SECONDS, MAX_API_KEYS } from '../../src/lib/shared/api-keys.ts';
import { WEBHOOK_EXAMPLE_NAMES, WEBHOOK_EXAMPLES } from '../../src/lib/shared/webhook-examples.ts';
import { openConsented, seriousViolations, serverAndBrowser } from './harness.ts';

// The developers' page (issue 21), where the /webhooks screen's "how to receive webhooks" link
// and the settings' API keys section's link land: it renders in every direction and width, every
// event is on it with the body the server sends, the API for bots shows the bot docs/api.md holds
// (the one tests/api/bot-example.test.ts runs) and leads to the reference, code keeps its own
// scrollbar, and the footer leads to it. Screenshots of the API section (and the page's top) at 375
// and 1440 px, light and dark, English, German and Hebrew, land in test-results/developers-*.png for
// a person to look at.

const live = serverAndBrowser();

/** The page at `path`, with what the console said while it loaded. */
async function open(path: string, { width = 1440 }: { width?: number } = {}) {
  const context = await live.browser.newContext({ viewport: { width, height: 900 } });
  await context.addCookies([{ name: 'cookie_settings', value: '11111111', url: live.server.url }]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const response = await page.goto(live.server.url + path, { waitUntil: 'networkidle' });
  return { page, errors, status: response?.status() };
}

const close = (page: Page) => page.context().close();

const SHOTS = join(import.meta.dirname, '..', '..', 'test-results');
/** The bot of docs/api.md: its one ```js block. */
const BOT = /```js\n([\s\S]*?)```/.exec(readFileSync(join(import.meta.dirname, '../../docs/api.md'), 'utf8'))?.[1];
const SIGNING_HEADERS = ['X-Api-Key', 'X-Api-Timestamp', 'X-Api-Nonce', 'X-Api-Signature'];
const RATE_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'Retry-After'];

describe('/developers', () => {
  it.each(['/developers', '/de/developers'])(
    '%s lists every event with its example body, without errors',
    async (path) => {
      const { page, errors, status } = await open(path);
      expect(status).toBe(200);
      expect(await page.locator('section#webhooks').count()).toBe(1);
      const text = (await page.locator('#webhooks').textContent()) ?? '';
      for (const name of WEBHOOK_EXAMPLE_NAMES) expect(text, name).toContain(name);
      // The example bodies on the page are the ones the unit test holds to the server's shapes.
      for (const name of WEBHOOK_EXAMPLE_NAMES) {
        const shown = await page.locator(`#event-${name.replaceAll('.', '-')} pre`).textContent();
        expect(JSON.parse(shown ?? ''), name).toEqual(WEBHOOK_EXAMPLES[name]);
      }
      // No key left untranslated (a missing one would show as `developers.…`).
      expect(await page.locator('main').textContent()).not.toMatch(/developers\.\w/);
      expect(errors).toEqual([]);
      await close(page);
    },
  );

  it.each([
    ['/developers', ''],
    ['/de/developers', '/de'],
  ])('%s explains the API for bots with the bot of docs/api.md', async (path, prefix) => {
    const { page, errors, status } = await open(path);
    expect(status).toBe(200);
    expect(await page.locator('section#api').count()).toBe(1);
    const text = (await page.locator('#api').textContent()) ?? '';
    for (const header of [...SIGNING_HEADERS, ...RATE_HEADERS]) expect(text, header).toContain(header);
    for (const reason of ['unknown_key', 'bad_timestamp', 'bad_nonce', 'replayed', 'bad_signature', 'key_root_changed'])
      expect(text, reason).toContain(reason);
    // The numbers are the server's own.
    expect(text).toContain(`${API_KEY_RATE_LIMIT};w=${API_KEY_RATE_WINDOW_SECONDS}`);
    expect(await page.locator('#api-keys + ul li').first().textContent()).toContain(String(MAX_API_KEYS));
    // The bot shown is the block of docs/api.md, byte for byte, left to right.
    expect(BOT).toBeTruthy();
    const bot = page.locator('#api pre[data-bot]');
    expect(await bot.textContent()).toBe(BOT?.trimEnd());
    expect(await bot.evaluate((pre) => getComputedStyle(pre).direction)).toBe('ltr');
    // Where keys are made, and the raw document.
    expect(await page.locator(`#api a[href="${prefix}/settings#api-keys"]`).count()).toBe(1);
    expect(await page.locator('#api a[href="/rest/v1/openapi.json"]').count()).toBe(1);
    const openapi = await page.request.get(`${live.server.url}/rest/v1/openapi.json`);
    expect(openapi.status()).toBe(200);
    expect(((await openapi.json()) as { openapi: string }).openapi).toMatch(/^3\.1\./);
    expect(await page.locator('main').textContent()).not.toMatch(/developers\.\w/);
    expect(errors).toEqual([]);
    // The reference, in the reader's language.
    await page.locator(`#api a.text-link[href="${prefix}/developers/api"]`).click();
    await page.waitForURL(new RegExp(`${prefix}/developers/api$`));
    expect(await page.locator('#coinfair-api-reference').count()).toBe(1);
    await close(page);
  });

  it('leads from its contents to the API for bots and the reference', async () => {
    const { page } = await open('/de/developers');
    await page.locator('.toc a[href="#api"]').click();
    await page.waitForURL(/#api$/);
    // Scrolled (smoothly) to its title, below the fixed header at the top of the screen.
    await page.waitForFunction(() => {
      const top = document.getElementById('api-title')?.getBoundingClientRect().top ?? -1;
      return top > 0 && top < 200;
    });
    expect(await page.locator('.toc a[href="/de/developers/api"]').count()).toBe(1);
    await close(page);
    // On a phone the side contents are hidden; links on top lead to both parts and the reference.
    const phone = await open('/de/developers', { width: 375 });
    const jump = phone.page.locator('nav.jump a');
    expect(await jump.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([
      '#webhooks',
      '#api',
      '/de/developers/api',
    ]);
    expect(await phone.page.locator('.toc').isVisible()).toBe(false);
    await close(phone.page);
  });

  it.each([
    ['/developers', 'en'],
    ['/de/developers', 'de'],
    ['/he/developers', 'he'],
  ])('%s shows the API section at 375 and 1440 px, light and dark', async (path, name) => {
    mkdirSync(SHOTS, { recursive: true });
    for (const width of [375, 1440])
      for (const colorScheme of ['light', 'dark'] as const) {
        if (name === 'he' && colorScheme === 'dark') continue;
        const page = await openConsented(live, path, { width, colorScheme, bypassCSP: true });
        await page.waitForLoadState('networkidle');
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
          0,
        );
        const shot = `${name}-${width}-${colorScheme}.png`;
        await page.screenshot({ path: join(SHOTS, `developers-top-${shot}`) });
        // The section alone: the fixed header would be stitched over a tall one.
        await page.addStyleTag({ content: '#site-header { visibility: hidden !important; }' });
        await page.locator('section#api').screenshot({ path: join(SHOTS, `developers-api-${shot}`) });
        await close(page);
      }
  });

  it('is what the footer links to', async () => {
    const { page } = await open('/de/fees');
    await page.locator('.site-footer a[href="/de/developers"]').click();
    await page.waitForURL(/\/de\/developers$/);
    expect(await page.locator('h1').textContent()).toBeTruthy();
    await close(page);
  });

  it.each(['/developers', '/de/developers', '/he/developers'])(
    '%s fits a 375 px screen: code scrolls inside its block, never the page',
    async (path) => {
      const { page } = await open(path, { width: 375 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      const blocks = await page.locator('pre.code').evaluateAll((pres) =>
        pres.map((pre) => ({
          scrolls: pre.scrollWidth > pre.clientWidth,
          overflowX: getComputedStyle(pre).overflowX,
          direction: getComputedStyle(pre).direction,
          font: getComputedStyle(pre).fontFamily,
        })),
      );
      expect(blocks.some((block) => block.scrolls)).toBe(true);
      for (const block of blocks) {
        expect(block.overflowX).toBe('auto');
        // Code reads left to right in Hebrew too.
        expect(block.direction).toBe('ltr');
        expect(block.font).toMatch(/mono/i);
      }
      await close(page);
    },
  );

  it.each(['light', 'dark'] as const)('has no serious or critical accessibility violations (%s)', async (scheme) => {
    const page = await openConsented(live, '/developers', { colorScheme: scheme, bypassCSP: true });
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await close(page);
  });
});
