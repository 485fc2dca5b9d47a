import { describe, expect, it } from 'vitest';
import { serverAndBrowser } from './harness.ts';

// The signed-in screens on the narrowest phone in languages with long words: none may scroll
// sideways (a box that does not let its text wrap pushes the whole page). The moderator sees every
// screen, the moderators' queues included. The static pages have their own walk in
// marketing.test.ts.

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
];

describe('signed-in screens at 320 px', () => {
  it.each(['de', 'ru'])('never scroll sideways in %s', async (lang) => {
    const context = await live.browser.newContext({ viewport: { width: 320, height: 800 } });
    const base = live.server.url;
    await context.request.get(`${base}/rest/v1/auth/challenge`);
    const csrf = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
    const login = await context.request.post(`${base}/rest/v1/auth/login`, {
      headers: { 'X-CSRF-Token': csrf, Origin: base },
      data: { email: 'moderator@example.com', password: 'Coinfair-demo-2026!' },
    });
    expect(login.status()).toBe(200);
    const page = await context.newPage();
    for (const screen of SCREENS) {
      const response = await page.goto(`${base}/${lang}${screen}`, { waitUntil: 'networkidle' });
      expect(response?.status(), screen).toBe(200);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      expect(overflow, `/${lang}${screen}`).toBeLessThanOrEqual(0);
    }
    await context.close();
  });
});
