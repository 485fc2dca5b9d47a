import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { systemContext } from '../../server/services/context.ts';
import { formatCryptoAmount } from '../../src/lib/shared/format-crypto.ts';
import { CRYPTO_DECIMALS, fromMinorUnits } from '../../src/lib/shared/money.ts';
import type { MyProofView, ProofPublicationView } from '../../src/lib/shared/views/proof.ts';
import { seriousViolations, serverAndBrowser } from './harness.ts';
import { browserPeople, DEMO_PASSWORD, type PersonBrowser } from './people.ts';
import { messageKeys, overflowsSideways, problemsBut, screenshotter, shotPath } from './screen-checks.ts';

// The wallet's proof-of-liabilities panel (issue 24; docs/trust.md): before any publication it
// says so plainly; after one, "Verify my balance" checks the person's proofs in the browser and
// shows the balance each commits to, included under the published root; the proof it offers for
// download passes `node scripts/verify-proof.ts`; a tampered proof is refused, a network failure
// offers a retry. No console problems, no sideways scroll on a phone, no serious axe violation;
// screenshots at 375 and 1440 px, light and dark, in English, German and Hebrew:
// test-results/wallet-proof/.

// No scheduled publication: the test publishes when it wants one.
const live = serverAndBrowser({ PROOF_INTERVAL_HOURS: '0' });
const people = browserPeople(live);
const root = join(import.meta.dirname, '..', '..');
mkdirSync(shotPath('wallet-proof'), { recursive: true });
const shot = screenshotter('wallet-proof/wallet');
const KEYS = messageKeys('wallet');
const BUYER = 'buyer@example.com';

/** The buyer signed in, in a context that keeps the pages' Content-Security-Policy (no axe-core there). */
async function strictContext(width: number): Promise<BrowserContext> {
  const ctx = await live.browser.newContext({ viewport: { width, height: 900 } });
  await ctx.addCookies([{ name: 'cookie_settings', value: '11111111', url: live.server.url }]);
  await ctx.request.get(`${live.server.url}/rest/v1/auth/challenge`);
  await people.api(ctx, '/rest/v1/auth/login', { email: BUYER, password: DEMO_PASSWORD });
  return ctx;
}

/** The buyer's wallet in a new page at `width`, hydrated; its console problems collected. */
async function walletOf(width: number, path = '/wallet', options: PersonBrowser & { strict?: boolean } = {}) {
  const { strict, ...browser } = options;
  const ctx = strict ? await strictContext(width) : await people.signedIn(BUYER, width, browser);
  const problems: string[] = [];
  const page = await people.open(ctx, path, problems);
  return { ctx, page, problems, panel: page.locator('[data-proof-panel]') };
}

const verify = async (page: Page) => {
  await page.locator('.wallet-proof-verify').click();
  await page.locator('[data-proof-panel]:not([data-state="idle"]):not([data-state="checking"])').waitFor();
};

const text = async (page: Page, selector: string) =>
  ((await page.locator(selector).first().textContent()) ?? '').replace(/\s/g, ' ');

const latest = async (ctx: BrowserContext) => (await people.api<ProofPublicationView[]>(ctx, '/rest/v1/proof'))[0];

describe('the wallet proof-of-liabilities panel', () => {
  it('says plainly that nothing is published yet', async () => {
    const { ctx, page, problems, panel } = await walletOf(375);
    expect(await panel.getAttribute('data-state')).toBe('none');
    expect(await text(page, '[data-proof-none]')).toContain('No proof of liabilities has been published yet');
    expect(await page.locator('.wallet-proof-verify').count()).toBe(0);
    expect(await overflowsSideways(page)).toBe(false);
    await panel.scrollIntoViewIfNeeded();
    await shot(page, 'none-en-375-light', false);
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it("verifies the buyer's balance in the browser, and the downloaded proof verifies offline", async () => {
    const funding = await people.signedIn(BUYER, 1440);
    await people.fund(funding, BUYER, '0.015');
    await funding.close();
    await live.server.backend.services.proof.publish(systemContext('test'), { source: 'operator' });

    // With the pages' own CSP: the lazy check and the download must work under it.
    const { ctx, page, problems, panel } = await walletOf(1440, '/wallet', { strict: true });
    const published = await latest(ctx);
    const btcRoot = published?.roots.find((r) => r.currency === 'BTC')?.rootHash as string;
    const wallet = await people.api<{ cryptoCurrencyCode: string; balance: string }[]>(ctx, '/rest/v1/balances');
    const btc = wallet.find((b) => b.cryptoCurrencyCode === 'BTC')?.balance as string;
    expect(Number(btc)).toBeGreaterThanOrEqual(0.015);
    expect(await panel.getAttribute('data-state')).toBe('idle');
    expect(await page.locator('[data-root="BTC"] code').getAttribute('data-hash')).toBe(btcRoot);
    expect(await page.locator('[data-proof-result]').getAttribute('aria-live')).toBe('polite');
    // Each copy button is named with the hash it copies.
    expect(await page.getByRole('button', { name: 'Copy BTC root hash', exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Verify my balance', exact: true }).count()).toBe(1);

    await verify(page);
    expect(await page.locator('[data-outcome]').getAttribute('data-outcome')).toBe('verified');
    const line = page.locator('.wallet-proof-list li[data-currency="BTC"]');
    expect(await line.getAttribute('data-ok')).toBe('true');
    // The balance the proof commits to is the wallet's, in the wallet's own format (8 decimals).
    expect(await text(page, '.wallet-proof-list li[data-currency="BTC"] [data-amount]')).toBe(
      formatCryptoAmount(btc, 'BTC', 'en'),
    );
    expect(await line.textContent()).toContain(btcRoot.slice(0, 10));
    expect(await text(page, '.wallet-proof-outcome .alert')).toContain('Verified');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-proof-download]').click(),
    ]);
    expect(download.suggestedFilename()).toBe('proof.json');
    const file = await download.path();
    const run = spawnSync(process.execPath, ['scripts/verify-proof.ts', file, '--root', btcRoot], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^VALID: usr_/);
    expect(run.stdout).toContain(`${fromMinorUnits(Math.round(Number(btc) * 1e8), CRYPTO_DECIMALS.BTC)} BTC`);
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('says the check failed for a tampered proof, and never that it is verified', async () => {
    const { ctx, page, problems, panel } = await walletOf(375);
    await page.route('**/rest/v1/proof/me**', async (route) => {
      const response = await route.fetch();
      const json = (await response.json()) as { data: MyProofView };
      const proof = json.data.proofs.find((p) => p.currency === 'BTC');
      if (proof) proof.leaf.balance += 100_000;
      await route.fulfill({ response, json });
    });
    await verify(page);
    expect(await panel.getAttribute('data-state')).toBe('checked');
    expect(await page.locator('[data-outcome]').getAttribute('data-outcome')).toBe('failed');
    expect(await page.locator('.wallet-proof-list li[data-currency="BTC"]').getAttribute('data-ok')).toBe('false');
    expect(await text(page, '.wallet-proof-outcome .alert')).toContain('The check failed');
    expect(await text(page, '.wallet-proof-list li[data-currency="BTC"]')).toContain('Not valid');
    expect(await text(page, '[data-proof-panel]')).not.toContain('Verified');
    expect(await overflowsSideways(page)).toBe(false);
    await panel.scrollIntoViewIfNeeded();
    await shot(page, 'failed-en-375-light', false);
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('offers a retry when the proof cannot be fetched', async () => {
    const { ctx, page, problems, panel } = await walletOf(375);
    await page.route('**/rest/v1/proof/me**', (route) => route.abort('internetdisconnected'));
    await verify(page);
    expect(await panel.getAttribute('data-state')).toBe('network');
    expect(await text(page, '[data-proof-network]')).toContain('could not be loaded');
    await panel.scrollIntoViewIfNeeded();
    await shot(page, 'network-en-375-light', false);
    await page.unroute('**/rest/v1/proof/me**');
    await page.locator('[data-proof-network] button').click();
    await page.locator('[data-outcome="verified"]').waitFor();
    expect(problems.filter((p) => !p.includes('net::ERR_INTERNET_DISCONNECTED'))).toEqual([]);
    await ctx.close();
  });

  for (const locale of ['en', 'de', 'he'] as const)
    it(`reads well in ${locale} at 375 and 1440 px, light and dark`, async () => {
      const path = locale === 'en' ? '/wallet' : `/${locale}/wallet`;
      for (const width of [375, 1440])
        for (const colorScheme of ['light', 'dark'] as const) {
          const { ctx, page, problems, panel } = await walletOf(width, path, { colorScheme });
          await verify(page);
          expect(await page.locator('[data-outcome]').getAttribute('data-outcome')).toBe('verified');
          const words = (await panel.textContent()) ?? '';
          expect(words.match(KEYS) ?? [], `${locale}: untranslated`).toEqual([]);
          expect(await overflowsSideways(page), `${locale} ${width}`).toBe(false);
          if (width === 375) expect(await seriousViolations(page, '[data-proof-panel]'), locale).toEqual([]);
          await panel.scrollIntoViewIfNeeded();
          await shot(page, `${locale}-${width}-${colorScheme}`, false);
          await panel.screenshot({ path: shotPath(`wallet-proof/panel-${locale}-${width}-${colorScheme}.png`) });
          expect(problemsBut(problems, [])).toEqual([]);
          await ctx.close();
        }
    });
});
