import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { verifySavedStatement } from '../../server/services/statements/verify.ts';
import type { ExportView } from '../../src/lib/shared/exports.ts';
import { seriousViolations, serverAndBrowser, untranslatedKeys } from './harness.ts';
import { browserPeople, type PersonBrowser } from './people.ts';
import { messageKeys, overflowsSideways, screenshotter, shotPath } from './screen-checks.ts';

// "Export my data" in settings (issue 24; docs/decisions/158-data-exports.md): the person asks
// for a range of days in a format, watches it being prepared (the jobs' leader of the built
// server builds it; the panel polls), downloads the ZIP while it is valid, and sees an expired
// one marked. No console problems or hydration warnings, no sideways scroll, no serious axe
// violation; screenshots at 375 and 1440 px, light and dark, in English, German and Hebrew:
// test-results/exports/.

const live = serverAndBrowser();
const people = browserPeople(live);
mkdirSync(shotPath('exports'), { recursive: true });
const shot = screenshotter('exports/settings');
const KEYS = messageKeys('settings.export', 'settings.statements', 'errors');
const BUYER = 'buyer@example.com';
const VENDOR = 'vendor@example.com';
const today = () => new Date().toISOString().slice(0, 10);

async function settingsOf(email: string, width: number, path = '/settings', options: PersonBrowser = {}) {
  const ctx = await people.signedIn(email, width, options);
  const problems: string[] = [];
  const page = await people.open(ctx, path, problems);
  return { ctx, page, problems, panel: page.locator('section#export') };
}

/** An export of `email`'s built to the end by the server's job (asked for over the API). */
async function readyExport(ctx: BrowserContext, format: 'csv' | 'json') {
  const made = await people.api<ExportView>(ctx, '/rest/v1/exports', { format, from: '2026-01-01', to: today() });
  await expect
    .poll(async () => (await people.api<ExportView>(ctx, `/rest/v1/exports/${made.id}`)).status, { timeout: 20_000 })
    .toBe('ready');
  return made;
}

describe('the export panel in settings', () => {
  it('requests an export, shows it being prepared, and downloads the ZIP once ready', async () => {
    const { ctx, page, problems, panel } = await settingsOf(BUYER, 1440);
    expect(await panel.locator('h2').textContent()).toBe('Export my data');
    expect(await page.locator('.settings-nav a[href="#export"]').count()).toBe(1);
    expect(await panel.locator('#export-to').inputValue()).toBe(today());

    // A last day before the first is refused in the form, field by field.
    await panel.locator('#export-from').fill('2026-11-20');
    await panel.locator('#export-to').fill('2026-11-19');
    await panel.getByRole('button', { name: 'Request export' }).click();
    expect(await panel.locator('#export-to-error').textContent()).toBe(
      'The last day must not be before the first day.',
    );
    expect(await panel.locator('#export-to').getAttribute('aria-invalid')).toBe('true');

    await panel.locator('#export-from').fill('2026-01-01');
    await panel.locator('#export-to').fill(today());
    await panel.getByRole('button', { name: 'Request export' }).click();
    await panel.locator('[role="status"]', { hasText: 'Export requested' }).waitFor();
    const item = panel.locator('.export-item').first();
    expect(['queued', 'building', 'ready']).toContain(await item.getAttribute('data-export-status'));
    // The job builds it and the panel's polling brings the link, without a reload.
    await panel.locator('.export-item[data-export-status="ready"]').first().waitFor({ timeout: 20_000 });
    expect(await item.textContent()).toContain('Available until');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      item.getByRole('link', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`coinfair-export-2026-01-01-to-${today()}.zip`);
    const files = unzipSync(new Uint8Array(await readFile((await download.path()) as string)));
    expect(Object.keys(files)).toContain('trades.csv');
    expect(strFromU8(files['README.txt'] as Uint8Array)).toContain('Coinfair data export for');
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('offers today’s signed statement and the closed months, as files the offline check accepts', async () => {
    const { ctx, page, problems, panel } = await settingsOf(BUYER, 375);
    const statements = panel.locator('.statement-links');
    expect(await statements.locator('h3').textContent()).toBe('Signed statements');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      statements.getByRole('link', { name: "Download today's statement (JSON)" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('coinfair-statement.json');
    // What `node scripts/verify-statement.ts` runs on the saved file, with the key the site publishes.
    const key = await (await ctx.request.get(`${live.server.url}/.well-known/coinfair-statement-key`)).text();
    const verdict = verifySavedStatement(await readFile((await download.path()) as string, 'utf8'), key);
    expect(verdict.ok, verdict.message).toBe(true);
    // One link per closed month after today's; with none closed yet, the panel says so.
    const months = await people.api<{ months: unknown[] }>(ctx, '/rest/v1/statements');
    await expect.poll(() => statements.locator('li').count()).toBe(1 + months.months.length);
    if (months.months.length === 0) expect(await statements.textContent()).toContain('No month has closed');
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('marks an expired export and offers no download for it', async () => {
    const { ctx, page, problems, panel } = await settingsOf(VENDOR, 375);
    const made = await readyExport(ctx, 'json');
    live.server.sql('UPDATE data_exports SET expires_at = ? WHERE public_id = ?', Date.now() - 1, made.id);
    await page.reload();
    await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
    const item = panel.locator(`.export-item[data-export-status="expired"]`);
    expect(await item.count()).toBe(1);
    expect(await item.textContent()).toContain('Expired: the download link is no longer valid.');
    expect(await item.getByRole('link').count()).toBe(0);
    expect(problems).toEqual([]);
    await ctx.close();
  });

  for (const locale of ['en', 'de', 'he'] as const)
    it(`reads well in ${locale} at 375 and 1440 px, light and dark`, async () => {
      const path = locale === 'en' ? '/settings#export' : `/${locale}/settings#export`;
      const setup = await people.signedIn(VENDOR, 1440);
      await readyExport(setup, 'csv');
      await setup.close();
      for (const width of [375, 1440])
        for (const colorScheme of ['light', 'dark'] as const) {
          const { ctx, page, problems, panel } = await settingsOf(VENDOR, width, path, { colorScheme });
          expect(await panel.locator('.export-item[data-export-status="ready"]').count()).toBeGreaterThan(0);
          expect(((await panel.textContent()) ?? '').match(KEYS) ?? [], `${locale}: untranslated`).toEqual([]);
          expect(await untranslatedKeys(page, KEYS), locale).toEqual([]);
          expect(await overflowsSideways(page), `${locale} ${width}`).toBe(false);
          expect(await seriousViolations(page, 'section#export'), `${locale} ${width} ${colorScheme}`).toEqual([]);
          await panel.scrollIntoViewIfNeeded();
          await shot(page, `${locale}-${width}-${colorScheme}`, false);
          await panel.screenshot({ path: shotPath(`exports/panel-${locale}-${width}-${colorScheme}.png`) });
          expect(problems).toEqual([]);
          await ctx.close();
        }
    });
});
