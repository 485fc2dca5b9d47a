import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../server/services/context.ts';
import { serverAndBrowser } from './harness.ts';

// Issue 23: pages must not move as they load. A page's cumulative layout shift, read from
// Chromium's own layout-shift entries, must stay under 0.02 (Lighthouse's "good" is 0.1). Scripts
// and the API answers a page fetches are held back a little, as on a phone network: whatever they
// add then lands after the first paint, where it would count.
// - The offer page shifted by 0.18 (Lighthouse, mobile) when its tour button appeared after load.
//   At 375 px its main column also moved down 190 px (0.136) when the vendor card, placed before it
//   by CSS but after it in the document, arrived in a later piece of the streamed page; the card
//   now comes first in the document too.
// - A page that arrives in pieces was painted half-parsed: Chromium paints when its parser waits
//   for more, and the header's later items (the bell) pushed its earlier ones aside; on the home
//   page the market strip grew, and its title moved, as its first coin arrived (CI saw it under
//   load). No frame is painted now before the header, and on the home page the strip, is whole
//   (decision 170).
// - The proof-of-reserves page shifted by 0.17 when its figures arrived and pushed the sections
//   below them down; it now holds their place from the first paint (see the page's comment).

// No publication on the schedule: the proof page is first seen before any, then after one.
const live = serverAndBrowser({ PROOF_INTERVAL_HOURS: '0' });
const DELAY_MS = 400;

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

/** A page at `width` whose scripts and API answers arrive DELAY_MS late, loaded until the network rests. */
async function openSlowly(path: string, width: number): Promise<Page> {
  const context = await live.browser.newContext({ viewport: { width, height: 800 } });
  await context.addCookies([{ name: 'cookie_settings', value: '11111111', url: live.server.url }]);
  const page = await context.newPage();
  const late = async (route: Parameters<Parameters<Page['route']>[1]>[0]) => {
    await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
    await route.continue();
  };
  await page.route('**/dist/**/*.js', late);
  await page.route('**/rest/v1/**', late);
  await page.goto(live.server.url + path, { waitUntil: 'networkidle' });
  return page;
}

describe('the offer page does not move as it loads', () => {
  it.each([375, 1440])('CLS under 0.02 at %i px', async (width) => {
    const page = await openSlowly(offerPath(), width);
    const cls = await cumulativeLayoutShift(page);
    // Measured after the tour's script ran: its button answers.
    await page.locator('[data-tour-start]').click();
    await page.locator('[data-tour-popover]:not([hidden])').waitFor();
    expect(cls).toBeLessThan(0.02);
    await page.context().close();
  });
});

describe('the proof-of-reserves page does not move as its figures arrive', () => {
  let published = false;
  const measure = async (width: number, state: string) => {
    const page = await openSlowly('/proof-of-reserves', width);
    await page.locator(`[data-proof][data-state="${state}"]`).waitFor();
    const cls = await cumulativeLayoutShift(page);
    await page.context().close();
    return cls;
  };

  it.each([375, 1440])('before any publication: CLS under 0.02 at %i px', async (width) => {
    expect(await measure(width, 'empty')).toBeLessThan(0.02);
  });

  it.each([375, 1440])('after a publication: CLS under 0.02 at %i px', async (width) => {
    if (!published) await live.server.backend.services.proof.publish(systemContext('test'), { source: 'operator' });
    published = true;
    expect(await measure(width, 'ready')).toBeLessThan(0.02);
  });
});

/**
 * A proxy in front of the server that sends a page's HTML in pieces, cut before each of `cuts`
 * (strings of the page), with a pause after each: the browser's parser waits between them, which
 * is when Chromium paints what it has. Everything else passes through whole.
 */
function piecemealProxy(cuts: string[], pauseMs: number) {
  const pause = () => new Promise((resolve) => setTimeout(resolve, pauseMs));
  const proxy = createServer(async (req, res) => {
    const answer = await fetch(live.server.url + req.url, { headers: { cookie: req.headers.cookie ?? '' } });
    const body = Buffer.from(await answer.arrayBuffer());
    const html = (answer.headers.get('content-type') ?? '').startsWith('text/html');
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
    if (!html) return void res.end(body);
    let text = body.toString('utf8');
    for (const cut of cuts) {
      const at = text.indexOf(cut);
      if (at < 0) return void res.end(`the page has no ${cut}`);
      res.write(text.slice(0, at));
      text = text.slice(at);
      await pause();
    }
    res.end(text);
  });
  beforeAll(() => new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
  return {
    url: () => `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
  };
}

/** Every layout shift of `path` loaded through `origin`, as "value: moved nodes". */
async function shiftsThrough(origin: string, path: string, width: number): Promise<string[]> {
  const context = await live.browser.newContext({ viewport: { width, height: 900 } });
  await context.addCookies([{ name: 'cookie_settings', value: '11111111', url: origin }]);
  const page = await context.newPage();
  await page.addInitScript(() => {
    const win = window as unknown as { shiftLog: string[] };
    win.shiftLog = [];
    type Shift = { value: number; sources?: { node?: Node }[] };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as Shift[]) {
        const names = (entry.sources ?? []).map(({ node }) =>
          node instanceof Element ? `${node.tagName}.${node.getAttribute('class')}` : String(node?.nodeName),
        );
        win.shiftLog.push(`${entry.value.toFixed(5)}: ${names.join(' ')}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(origin + path, { waitUntil: 'networkidle' });
  await page.locator('[data-market-strip][data-state="ready"]').waitFor();
  const shifts = await page.evaluate(() => (window as unknown as { shiftLog: string[] }).shiftLog);
  await context.close();
  return shifts;
}

describe('a page that arrives in pieces is not painted half-parsed', () => {
  // Cut in the header before the bell (the last of its row), and on the home page inside the first
  // coin of the market strip, before its price (the slot that gives the coin its height).
  const proxy = piecemealProxy(['<div class="bell-wrap"', '<bdi class="market-price"'], 400);

  it.each([375, 1440])('the home page at %i px: no layout shift at all', async (width) => {
    expect(await shiftsThrough(proxy.url(), '/', width)).toEqual([]);
  });

  it('in Hebrew, right to left, at 1440 px: no layout shift at all', async () => {
    expect(await shiftsThrough(proxy.url(), '/he', 1440)).toEqual([]);
  });
});
