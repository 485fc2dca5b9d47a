import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverAndBrowser } from './harness.ts';

// Issue 23: the offer page shifted by 0.18 (Lighthouse, mobile) when its tour button appeared
// after load. The page's cumulative layout shift, read from Chromium's own layout-shift entries,
// must stay under 0.02 (Lighthouse's "good" is 0.1). Scripts are held back a little, as on a phone
// network: whatever they add then lands after the first paint, where it would count. At 375 px
// the offer's main column also moved down 190 px (0.136) when the vendor card, placed before it by
// CSS but after it in the document, arrived in a later piece of the streamed page; the card now
// comes first in the document too.

const live = serverAndBrowser();
const SCRIPT_DELAY_MS = 400;

function offerPath(): string {
  const hash = live.server.row<{ hash: string }>("SELECT hash FROM offers WHERE type = 'sell' LIMIT 1")?.hash;
  if (!hash) throw new Error('the demo data has no offer');
  return `/offers/${hash}`;
}

/** The sum of the page's layout shifts not caused by input, after its scripts ran and settled. */
async function cumulativeLayoutShift(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
            if (!entry.hadRecentInput) total += entry.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
        // Two frames after the observer's buffered entries were delivered.
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => resolve(total), 100)));
      }),
  );
}

describe('the offer page does not move as it loads', () => {
  it.each([375, 1440])('CLS under 0.02 at %i px', async (width) => {
    const path = offerPath();
    const context = await live.browser.newContext({ viewport: { width, height: 800 } });
    await context.addCookies([{ name: 'cookie_settings', value: '11111111', url: live.server.url }]);
    const page = await context.newPage();
    await page.route('**/dist/**/*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, SCRIPT_DELAY_MS));
      await route.continue();
    });
    await page.goto(live.server.url + path, { waitUntil: 'networkidle' });
    const cls = await cumulativeLayoutShift(page);
    // Measured after the tour's script ran: its button answers.
    await page.locator('[data-tour-start]').click();
    await page.locator('[data-tour-popover]:not([hidden])').waitFor();
    expect(cls).toBeLessThan(0.02);
    await context.close();
  });
});
