import { describe, expect, it } from 'vitest';
import { serverAndBrowser } from './harness.ts';

// The API reference (issue 21): Scalar's viewer, served from our own origin, reads the document
// the server generates and shows the routes, with no request to another origin and nothing the
// page's Content-Security-Policy refuses.

const live = serverAndBrowser();

async function open(path: string, width = 1440, colorScheme: 'light' | 'dark' = 'light') {
  const context = await live.browser.newContext({ viewport: { width, height: 900 }, colorScheme });
  await context.addCookies([{ name: 'cookie_settings', value: '11111111', url: live.server.url }]);
  const page = await context.newPage();
  const errors: string[] = [];
  const foreign: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => {
    if (!request.url().startsWith(live.server.url) && !request.url().startsWith('data:')) foreign.push(request.url());
  });
  const response = await page.goto(live.server.url + path, { waitUntil: 'networkidle' });
  return { page, errors, foreign, status: response?.status() };
}

describe('/developers/api', () => {
  it('shows every area of the generated document, from our own origin only', async () => {
    const { page, errors, foreign, status } = await open('/developers/api');
    expect(status).toBe(200);
    await page.getByText('Coinfair API').first().waitFor({ timeout: 15_000 });
    const text = (await page.locator('#coinfair-api-reference').textContent()) ?? '';
    for (const shown of ['Trades', 'Webhooks', 'API keys', 'Wallet', '/rest/v1/trade/{id}/release', 'X-Api-Signature'])
      expect(text, shown).toContain(shown);
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await page.screenshot({ path: '/tmp/shots/api-reference-1440.png' });
    await page.context().close();
  });

  it.each([
    ['/de/developers/api', 375, 'light'],
    ['/developers/api', 375, 'dark'],
  ] as const)('%s at %i px (%s) has no errors and no sideways scroll', async (path, width, scheme) => {
    const { page, errors } = await open(path, width, scheme);
    await page.getByText('Coinfair API').first().waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
    await page.screenshot({
      path: `/tmp/shots/api-reference-${width}-${scheme}-${path.startsWith('/de/') ? 'de' : 'en'}.png`,
    });
    await page.context().close();
  });
});
