import type { BrowserContextOptions } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations, serverAndBrowser } from './harness.ts';

// The signed-in screens as a whole: on the narrowest phone in languages with long words none may
// scroll sideways (a box that does not let its text wrap pushes the whole page), and none has a
// serious axe-core violation in either theme. The moderator sees every screen, the moderators'
// queues included. The static pages have their own walks in marketing.test.ts.

const live = serverAndBrowser();
const SCREENS = [
  '/trades',
  '/wallet',
  '/settings',
  '/notifications',
  '/verification',
  '/verification/review',
  '/moderation/disputes',
  '/profile/moderator',
  '/offers/new',
  '/my-offers',
  '/affiliates',
  '/webhooks',
  '/kiosk',
];

/** A page of the moderator's, signed in through the API, the cookie choice made. */
async function moderatorPage(options: BrowserContextOptions) {
  const base = live.server.url;
  const context = await live.browser.newContext(options);
  await context.addCookies([{ name: 'cookie_settings', value: '11111111', url: base }]);
  await context.request.get(`${base}/rest/v1/auth/challenge`);
  const csrf = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const login = await context.request.post(`${base}/rest/v1/auth/login`, {
    headers: { 'X-CSRF-Token': csrf, Origin: base },
    data: { email: 'moderator@example.com', password: 'Coinfair-demo-2026!' },
  });
  expect(login.status()).toBe(200);
  return context.newPage();
}

async function visit(page: Awaited<ReturnType<typeof moderatorPage>>, path: string) {
  const response = await page.goto(live.server.url + path, { waitUntil: 'networkidle' });
  expect(response?.status(), path).toBe(200);
}

describe('signed-in screens at 320 px', () => {
  it.each(['de', 'ru'])('never scroll sideways in %s', async (lang) => {
    const page = await moderatorPage({ viewport: { width: 320, height: 800 } });
    for (const screen of SCREENS) {
      await visit(page, `/${lang}${screen}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      expect(overflow, `/${lang}${screen}`).toBeLessThanOrEqual(0);
    }
    await page.context().close();
  });
});

describe('signed-in screens and axe-core', () => {
  it.each(['light', 'dark'] as const)('have no serious or critical violations in the %s theme', async (scheme) => {
    const page = await moderatorPage({ viewport: { width: 1280, height: 900 }, colorScheme: scheme, bypassCSP: true });
    const found: string[] = [];
    for (const screen of SCREENS) {
      await visit(page, screen);
      for (const violation of await seriousViolations(page)) found.push(`${screen} ${violation}`);
    }
    expect(found).toEqual([]);
    await page.context().close();
  });
});
