import { mkdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { systemContext } from '../../server/services/context.ts';
import type { ProofPublicationView, ReservesView } from '../../src/lib/shared/views/proof.ts';
import { seriousViolations, serverAndBrowser } from './harness.ts';
import { openPublicPage, overflowsSideways, screenshotter, shotPath } from './screen-checks.ts';

// The public proof page (issue 24, decision 149): before any publication it says so; after one it
// shows the root hash and totals the API publishes, the history, and what the platform's addresses
// hold. No console errors, no sideways scroll on a phone, no serious axe violations; screenshots at
// 375 and 1440 px, light and dark, in English, German and Hebrew: test-results/proof-of-reserves/.

// No publication on the schedule: the first test sees the page before any.
const live = serverAndBrowser({ PROOF_INTERVAL_HOURS: '0' });
mkdirSync(shotPath('proof-of-reserves'), { recursive: true });
const shot = screenshotter('proof-of-reserves/page');
const job = systemContext('test');

const open = (path: string, options: Parameters<typeof openPublicPage>[3] = {}) =>
  openPublicPage(live, path, '[data-proof]:not([data-state="loading"])', options);

const close = (page: Page) => page.context().close();

/** axe's serious violations; it is injected as an inline script, which the page's policy rightly refuses. */
async function axe(path: string, dark = false) {
  const { page } = await open(path, { width: 375, dark, bypassCSP: true });
  const found = await seriousViolations(page);
  await close(page);
  return found;
}
const json = async <T>(path: string) => ((await (await fetch(live.server.url + path)).json()) as { data: T }).data;

/** A confirmed deposit on the simulated chain, credited. */
async function deposit(email: string, currency: 'BTC' | 'USDT', amount: number) {
  const { services } = live.server.backend;
  const user = live.server.row<{ id: number }>('SELECT id FROM users WHERE email = ?', email);
  await services.chain.simulateDeposit(job, { userId: user?.id as number, currency, amount });
  await services.chain.mine(job, { ticks: 20 });
}

describe('/proof-of-reserves', () => {
  it('says honestly that nothing is published yet', async () => {
    const { page, problems } = await open('/proof-of-reserves', { width: 375 });
    expect(await page.locator('[data-proof]').getAttribute('data-state')).toBe('empty');
    await expect.poll(() => page.locator('.empty-note').isVisible()).toBe(true);
    expect(await page.locator('.empty-note').textContent()).toContain('Nothing has been published yet');
    // The cards hold their place from the first paint (no layout shift); nothing owed is shown.
    expect(await page.locator('[data-list="latest"] [data-slot="owed"]').allTextContents()).toEqual(['—', '—']);
    expect(await page.locator('table').isVisible()).toBe(false);
    expect(await overflowsSideways(page)).toBe(false);
    expect(problems).toEqual([]);
    await shot(page, 'empty-en-375-light');
    await close(page);
    expect(await axe('/proof-of-reserves')).toEqual([]);
  });

  it('shows the published root, the totals, the history and the reserves after a publication', async () => {
    await deposit('buyer@example.com', 'BTC', 1_500_000);
    await deposit('vendor@example.com', 'USDT', 250_000_000);
    await live.server.backend.services.proof.publish(job, { source: 'operator' });
    await live.server.backend.services.proof.publish(job, { source: 'operator' });
    const [latest] = await json<ProofPublicationView[]>('/rest/v1/proof');
    const reserves = await json<ReservesView>('/rest/v1/proof/reserves');
    const btc = latest?.roots.find((root) => root.currency === 'BTC');

    const { page, problems } = await open('/proof-of-reserves');
    expect(await page.locator('[data-proof]').getAttribute('data-state')).toBe('ready');
    const cards = page.locator('[data-list="latest"] article');
    expect(await cards.count()).toBe(2);
    expect(await cards.first().locator('[data-slot="root"]').textContent()).toBe(btc?.rootHash);
    const owed = (await cards.first().locator('[data-slot="owed"]').textContent()) ?? '';
    expect(owed.replace(/[\u2066\u2069]/g, '').replace(/\s/g, ' ')).toBe(`${Number(btc?.total)} BTC`);
    expect(await page.locator('[data-slot="publicationId"]').textContent()).toBe(latest?.id);
    // Two publications of two currencies.
    expect(await page.locator('[data-list="history"] tr').count()).toBe(4);
    const address = reserves.currencies[0]?.addresses[0]?.address as string;
    expect(await page.locator('[data-list="reserves"]').textContent()).toContain(address);
    expect(await page.locator('.empty-note').isVisible()).toBe(false);
    expect(problems).toEqual([]);
    await close(page);
  });

  it("ships its figures in about a kilobyte of script, within the static pages' 5 KB", async () => {
    const context = await live.browser.newContext();
    const page = await context.newPage();
    const bodies: Promise<Buffer>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') bodies.push(response.body());
    });
    await page.goto(`${live.server.url}/proof-of-reserves`, { waitUntil: 'networkidle' });
    const inline = await page.locator('script:not([src])').evaluateAll((els) => els.map((el) => el.textContent ?? ''));
    const own = inline.find((code) => code.includes('[data-proof]')) ?? '';
    const total = [...inline.map((code) => Buffer.from(code)), ...(await Promise.all(bodies))].reduce(
      (sum, code) => sum + gzipSync(code).length,
      0,
    );
    console.log(`/proof-of-reserves JS (gzip): ${total} bytes in all, the page's own ${gzipSync(own).length}`);
    expect(own).not.toBe('');
    expect(total).toBeLessThanOrEqual(5 * 1024);
    await context.close();
  });

  for (const locale of ['en', 'de', 'he'] as const)
    it(`reads well in ${locale} at 375 and 1440 px, light and dark`, async () => {
      const path = locale === 'en' ? '/proof-of-reserves' : `/${locale}/proof-of-reserves`;
      for (const width of [375, 1440])
        for (const dark of [false, true]) {
          const { page, problems } = await open(path, { width, dark });
          expect(await page.locator('[data-proof]').getAttribute('data-state')).toBe('ready');
          expect(await overflowsSideways(page), `${locale} ${width}`).toBe(false);
          expect(problems).toEqual([]);
          await shot(page, `${locale}-${width}-${dark ? 'dark' : 'light'}`);
          await close(page);
          if (width === 375) expect(await axe(path, dark), `${locale} ${dark ? 'dark' : 'light'}`).toEqual([]);
        }
    });
});
