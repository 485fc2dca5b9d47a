import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverAndBrowser, untranslatedKeys } from './harness.ts';
import { browserPeople, sepaOffer } from './people.ts';
import { messageKeys, overflowsSideways, problemsBut, screenshotter } from './screen-checks.ts';

// The offer page says, before its start button, what the offer will ask of the person (issue 22,
// decision 138): the proofs its vendor requires, each with when it is due, and the payment terms a
// gold offer has them accept; an offer that asks nothing says nothing. In every language, in both
// themes and on a phone. Screenshots: test-results/offer-proofs-*.png.

const live = serverAndBrowser();
const people = browserPeople(live);
const VENDOR = 'vendor@example.com';
const shot = screenshotter('offer-proofs');
const problems: string[] = [];

let asking = '';
let plain = '';

beforeAll(async () => {
  const vendor = await people.signedIn(VENDOR, 1440);
  await people.fund(vendor, VENDOR, '0.5');
  // The proofs given out of trade order: the page lists the one due first, first.
  asking = (
    await people.api<{ hash: string }>(
      vendor,
      '/rest/v1/offers',
      sepaOffer({
        is_gold: true,
        trade_requirements: [
          { kind: 'receipt', stage: 'before_paid', optional: true },
          { kind: 'photo_id', stage: 'before_reveal', optional: false },
        ],
      }),
    )
  ).hash;
  plain = (await people.api<{ hash: string }>(vendor, '/rest/v1/offers', sepaOffer())).hash;
  await vendor.close();
}, 60_000);

const open = (ctx: BrowserContext, path: string) => people.open(ctx, path, problems);
const asks = (page: Page) => page.getByTestId('proofs-asked');

describe('what the offer asks before the trade starts', () => {
  it('lists the proofs with when each is due, and the gold terms, before the start button', async () => {
    people.everyoneOnline(VENDOR);
    const ctx = await people.context(1440);
    const page = await open(ctx, `/offers/${asking}`);
    expect(await asks(page).getByRole('heading').textContent()).toBe('What this offer asks of you');
    const items = await asks(page)
      .locator('li')
      .evaluateAll((els) =>
        els.map((el) => ({
          ask: (el as HTMLElement).dataset.ask,
          text: el.textContent,
        })),
      );
    expect(items).toEqual([
      { ask: 'gold', text: "Accept the vendor's payment termsBefore the trade starts" },
      { ask: 'photo_id', text: "Photo IDUpload it before the vendor's payment details show" },
      { ask: 'receipt', text: 'Payment receiptOptionalUpload it before the trade can be marked paid' },
    ]);
    expect(await asks(page).locator('.start-asks-how').textContent()).toContain('the vendor checks it');
    // Before the button, inside the start form.
    const before = await page.evaluate(() => {
      const list = document.querySelector('[data-testid="proofs-asked"]');
      const button = document.querySelector('.start-submit');
      return Boolean(list && button && list.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    expect(before).toBe(true);

    // An offer that asks for nothing says nothing.
    await page.goto(`${live.server.url}/offers/${plain}`);
    await page.locator('.start-submit').waitFor();
    expect(await asks(page).count()).toBe(0);
    await ctx.close();
    expect(problemsBut(problems, [])).toEqual([]);
  });

  it('is said in every language, on a phone and in both themes (screenshots)', async () => {
    people.everyoneOnline(VENDOR);
    for (const lang of ['de', 'he', 'ja', 'ru']) {
      const ctx = await people.context(375);
      const page = await open(ctx, `/${lang}/offers/${asking}`);
      expect(await asks(page).locator('li').count()).toBe(3);
      expect(await untranslatedKeys(page, messageKeys('offer', 'trade'))).toEqual([]);
      expect(await overflowsSideways(page)).toBe(false);
      await ctx.close();
    }
    for (const width of [375, 1440]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const lang of ['de', 'he']) {
          const ctx = await people.context(width, { colorScheme });
          const page = await open(ctx, `/${lang}/offers/${asking}`);
          await asks(page).scrollIntoViewIfNeeded();
          await shot(page, `${lang}-${width}-${colorScheme}`);
          await ctx.close();
        }
      }
    }
    expect(problemsBut(problems, [])).toEqual([]);
  }, 120_000);
});
