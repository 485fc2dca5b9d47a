import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { fundOnServer } from '../support/offer-funds.ts';
import { serverAndBrowser } from './harness.ts';
import { amazonGiftOffer, browserPeople, type StartableOffer, sepaOffer } from './people.ts';
import { overflowsSideways, problemsBut, screenshotter } from './screen-checks.ts';

// A newcomer's first hour, the listing and the offer (issue 22): the amount searched for goes with
// every offer link and starts the offer's widget; a maximum brought down by the person's own
// trading limit says why, with the way to raise it; the static home page does not invite a
// signed-in person to register; in Hebrew, Latin names and amounts sit in <bdi> elements on the
// listing, the offer and the trade page, so "Adaeze O." keeps its full stop at its end; on a
// phone a long vendor name never breaks mid-word, and the presence dot and "· N trades" stay
// with their words. Screenshots: test-results/offer-carry-*.png.

const live = serverAndBrowser();
const people = browserPeople(live);
const VENDOR = 'vendor@example.com';
const BUYER = 'buyer@example.com';
/** The vendor's name for this file: long enough to need an ellipsis in a phone's card. */
const LONG_NAME = 'Featherstonehaugh_Maximilian_Bartholomew';
const shot = screenshotter('offer-carry');
const problems: string[] = [];

let offer: StartableOffer | undefined;
let offerHash = '';

beforeAll(async () => {
  await fundOnServer(live.server, `email LIKE '%@vendors.example.com'`);
  live.server.sql('UPDATE users SET username = ? WHERE email = ?', LONG_NAME, VENDOR);
  const vendor = await people.signedIn(VENDOR, 1440);
  await people.fund(vendor, VENDOR, '0.5');
  // Up to 20,000 EUR, above what the demo buyer's verification level leaves, and the cheapest: the
  // first row of its listing.
  offer = await people.api<StartableOffer>(
    vendor,
    '/rest/v1/offers',
    sepaOffer({ fiat_max: '20000', fixed_price: '60000' }),
  );
  offerHash = offer.hash;
  await vendor.close();
}, 60_000);

const open = (ctx: BrowserContext, path: string) => people.open(ctx, path, problems);
const visitor = (width: number, colorScheme: 'light' | 'dark' = 'light') => people.context(width, { colorScheme });

/** The row of this file's offer in a listing. */
const ourRow = (page: Page) => page.locator(`[data-offer="${offerHash}"]`);

describe.each([375, 1440])('the amount searched for, at %i px', (width) => {
  it('goes with the offer link and starts the offer widget with it', async () => {
    people.everyoneOnline(VENDOR);
    const ctx = await visitor(width);
    const page = await open(ctx, '/buy-bitcoin/sepa/eur?fiat-min=120');
    // Server-rendered links already carry it.
    expect(await ourRow(page).locator('.offer-action a').getAttribute('href')).toBe(
      `/offers/${offerHash}?amount=120&currency=EUR`,
    );
    // The amount in the box follows the person's typing.
    await page.locator('.listing-filters').getByLabel('Amount', { exact: true }).fill('250');
    await page.waitForURL(/fiat-min=250/);
    const link = ourRow(page).locator('.offer-action a');
    await expect.poll(() => link.getAttribute('href')).toBe(`/offers/${offerHash}?amount=250&currency=EUR`);
    await link.click();
    await page.waitForURL(/\/offers\//);
    await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
    expect(await page.locator('.start-inputs input').first().inputValue()).toBe('250');
    // The way back keeps the search.
    expect(await page.locator('.offer-back a').getAttribute('href')).toBe('/buy-bitcoin/sepa/eur?fiat-min=250');

    // An amount in another currency is not taken for this offer's.
    await page.goto(`${live.server.url}/offers/${offerHash}?amount=250&currency=USD`);
    await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
    expect(await page.locator('.start-inputs input').first().inputValue()).toBe('50');
    await ctx.close();
  });
});

describe('the offer page for a person with a trading limit', () => {
  it('says the maximum is what the verification level leaves, with the way to raise it', async () => {
    people.everyoneOnline(VENDOR, BUYER);
    const buyer = await people.signedIn(BUYER, 375);
    const { meta } = await (await buyer.request.get(`${live.server.url}/rest/v1/offers/${offerHash}`)).json();
    expect(meta.limits).toMatchObject({ min: 50, cappedBy: 'verification' });
    expect(meta.limits.max).toBeLessThan(20000);

    const page = await open(buyer, `/offers/${offerHash}?amount=15000&currency=EUR`);
    const note = page.locator('[data-cap="verification"]');
    expect(await note.textContent()).toContain(`verification level ${meta.limits.level}`);
    expect(await note.getByRole('link', { name: 'Raise your limit' }).getAttribute('href')).toBe('/verification');
    // The amount from the search is above this person's maximum: the widget says so at once.
    expect(await page.locator('.start-trade .field-error').textContent()).toContain('The largest amount is');
    await shot(page, 'capped-375');
    await buyer.close();
  });
});

describe('the home page', () => {
  it('invites a visitor to register, and sends a signed-in person to the wallet and the offers', async () => {
    const visible = (page: Page, cta: string) => page.locator(`[data-cta="${cta}"]`).isVisible();
    const ctx = await visitor(1440);
    const page = await ctx.newPage();
    await page.goto(`${live.server.url}/`);
    expect(await visible(page, 'hero-register')).toBe(true);
    expect(await visible(page, 'hero-wallet')).toBe(false);
    expect(await visible(page, 'cta-register')).toBe(true);
    expect(await visible(page, 'cta-browse')).toBe(false);
    await ctx.close();

    const buyer = await people.signedIn(BUYER, 375);
    const home = await buyer.newPage();
    await home.goto(`${live.server.url}/de`);
    expect(await visible(home, 'hero-register')).toBe(false);
    expect(await visible(home, 'cta-register')).toBe(false);
    expect(await home.locator('[data-cta="hero-wallet"]').textContent()).toContain('Zu deiner Wallet');
    expect(await home.locator('[data-cta="hero-wallet"]').getAttribute('href')).toBe('/de/wallet');
    expect(await visible(home, 'cta-browse')).toBe(true);
    expect(await home.getByText('Dein Konto ist bereit.').isVisible()).toBe(true);
    await buyer.close();
  });
});

/**
 * Whether `locator`'s own text ends, on screen, at its right edge: "O." with its stop after the O
 * (`letter`), as a Latin name reads in a Hebrew page when it is isolated.
 */
const stopAfter = (locator: ReturnType<Page['locator']>, letter = 'O') =>
  locator.evaluate((el, letter) => {
    const text = [...el.childNodes].find((node) => node.nodeType === Node.TEXT_NODE);
    if (!text) return 'no text';
    const content = text.textContent ?? '';
    const range = document.createRange();
    const at = (i: number) => {
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      return range.getBoundingClientRect().left;
    };
    return at(content.lastIndexOf('.')) > at(content.lastIndexOf(letter));
  }, letter);

/** The same for the first match of `selector`. */
const stopAfterLetter = (page: Page, selector: string) => stopAfter(page.locator(selector).first());

describe('Hebrew', () => {
  it('isolates Latin names and amounts on the listing, the offer and the trade page', async () => {
    people.everyoneOnline(VENDOR, BUYER);
    const ctx = await visitor(1440);
    const listing = await open(ctx, '/he/buy-bitcoin/sepa/eur');
    const name = ourRow(listing).locator('.offer-vendor-name');
    expect(await name.evaluate((el) => el.tagName)).toBe('BDI');
    expect(await name.textContent()).toBe(LONG_NAME);
    expect(
      await ourRow(listing)
        .locator('.offer-method-name')
        .evaluate((el) => el.tagName),
    ).toBe('BDI');
    expect(await ourRow(listing).locator('.offer-price-cell bdi').count()).toBe(1);

    const offerPage = await open(ctx, `/he/offers/${offerHash}`);
    expect(await offerPage.locator('#vendor-card-name bdi').textContent()).toBe(LONG_NAME);
    expect((await offerPage.locator('h1 bdi').allTextContents()).some((text) => text.includes('SEPA'))).toBe(true);
    await ctx.close();

    // A trade whose buyer paid as "Adaeze O.": the full stop stays after the O.
    const buyer = await people.signedIn(BUYER, 1440);
    if (!offer) throw new Error('no offer');
    const { hash } = await people.startTrade(buyer, offer, '100');
    live.server.sql('UPDATE trades SET payer_name = ? WHERE hash = ?', 'Adaeze O.', hash);
    const trade = await open(buyer, `/he/trade/${hash}`);
    expect(await trade.locator('[data-fact="partner"] bdi').textContent()).toBe(LONG_NAME);
    expect(await trade.locator('#trade-info-title bdi').allTextContents()).toContain(LONG_NAME);
    expect(await trade.locator('[data-payer-name] bdi').textContent()).toBe('Adaeze O.');
    expect(await stopAfterLetter(trade, '[data-payer-name] bdi')).toBe(true);
    await buyer.close();
    expect(problemsBut(problems, [])).toEqual([]);
  });
});

describe('a phone', () => {
  it('shows a long vendor name on one line with an ellipsis, the dot and the trades kept whole', async () => {
    people.everyoneOnline(VENDOR);
    for (const lang of ['', '/de', '/he']) {
      const ctx = await visitor(375);
      const page = await open(ctx, `${lang}/buy-bitcoin/sepa/eur`);
      const row = ourRow(page);
      const name = row.locator('.offer-vendor-name');
      const box = await name.evaluate((el) => ({
        height: el.getBoundingClientRect().height,
        line: Number.parseFloat(getComputedStyle(el).lineHeight),
        cut: el.scrollWidth > el.clientWidth,
        title: el.getAttribute('title'),
        // Its own direction: a Latin name is cut at its end in Hebrew too, its start in view.
        direction: getComputedStyle(el).direction,
      }));
      expect(box.direction).toBe('ltr');
      // One line, cut with an ellipsis, the whole name in its title.
      expect(box.height).toBeLessThanOrEqual(box.line + 1);
      expect(box.cut).toBe(true);
      expect(box.title).toBe(LONG_NAME);
      // The dot on the line of its words; "· N trades" on one line.
      const [dot, words] = await row
        .locator('.offer-presence')
        .evaluate((el) => [
          el.querySelector('.presence-dot')?.getBoundingClientRect().top ?? 0,
          el.getBoundingClientRect().top,
        ]);
      expect(Math.abs((dot ?? 0) - (words ?? 0))).toBeLessThan(12);
      const trades = await row.locator('.offer-trades').evaluate((el) => ({
        height: el.getBoundingClientRect().height,
        line: Number.parseFloat(getComputedStyle(el).lineHeight),
      }));
      expect(trades.height).toBeLessThanOrEqual(trades.line + 1);
      expect(await overflowsSideways(page)).toBe(false);

      // The offer's vendor card: the name cut the same way, the page no wider than the phone.
      await page.goto(`${live.server.url}${lang}/offers/${offerHash}`);
      const cardName = page.locator('#vendor-card-name bdi');
      expect(await cardName.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      expect(await cardName.evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
      expect(await page.locator('#vendor-card-name').getAttribute('title')).toBe(LONG_NAME);
      expect(await overflowsSideways(page)).toBe(false);
      await ctx.close();
    }
  });

  it('takes screenshots of the listing and the offer in both themes, German and Hebrew', async () => {
    people.everyoneOnline(VENDOR);
    for (const width of [375, 1440]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const lang of ['de', 'he']) {
          const ctx = await visitor(width, colorScheme);
          const page = await open(ctx, `/${lang}/buy-bitcoin/sepa/eur?fiat-min=120`);
          await shot(page, `listing-${lang}-${width}-${colorScheme}`);
          await page.goto(`${live.server.url}/${lang}/offers/${offerHash}?amount=120&currency=EUR`);
          await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
          await shot(page, `offer-${lang}-${width}-${colorScheme}`);
          await ctx.close();
        }
      }
    }
    expect(problemsBut(problems, [])).toEqual([]);
  }, 120_000);
});

describe('Hebrew, the remaining screens (decision 132)', () => {
  const isolated = async (locator: ReturnType<Page['locator']>, name: string, letter: string) => {
    expect(await locator.evaluate((el) => el.tagName)).toBe('BDI');
    expect(await locator.textContent()).toBe(name);
    expect(await stopAfter(locator, letter)).toBe(true);
  };

  it('keeps "Adaeze O." whole in the header, the bell, the gift-code trade, the disputes queue and affiliates', async () => {
    // The buyer and the vendor with Latin names that end in a full stop.
    live.server.sql('UPDATE users SET username = ? WHERE email = ?', 'Adaeze O.', BUYER);
    live.server.sql('UPDATE users SET username = ? WHERE email = ?', 'Chidi N.', VENDOR);
    people.everyoneOnline(VENDOR, BUYER);
    if (!offer) throw new Error('no offer');

    // The header's name slot, filled by its script.
    const buyer = await people.signedIn(BUYER, 1440);
    const home = await buyer.newPage();
    await home.goto(`${live.server.url}/he/`);
    const headerName = home.locator('.account-menu [data-account-name]');
    await expect.poll(() => headerName.textContent()).toBe('Adaeze O.');
    await isolated(headerName, 'Adaeze O.', 'O');

    // A trade the buyer starts rings the vendor's bell: "Adaeze O. started a trade with you".
    const { hash } = await people.startTrade(buyer, offer, '100');
    const vendor = await people.signedIn(VENDOR, 1440);
    const vendorHome = await vendor.newPage();
    const joined = new Promise<void>((resolve) =>
      vendorHome.on('websocket', (ws) =>
        ws.on('framereceived', (frame) => {
          if (/"subscribed","channel":"notifications:/.test(String(frame.payload))) resolve();
        }),
      ),
    );
    await vendorHome.goto(`${live.server.url}/he/`);
    await joined;
    await vendorHome.locator('[data-testid="notification-bell"]').click();
    const inBell = vendorHome.locator('#bell-popup .bell-item strong bdi', { hasText: 'Adaeze O.' }).first();
    await inBell.waitFor();
    await isolated(inBell, 'Adaeze O.', 'O');

    // The moderators' queue: the trade in dispute, both names and the one who opened it.
    live.server.sql(
      `UPDATE trades SET status = 'dispute_open', paid_at = ?, disputed_at = ?,
       dispute_opened_by = (SELECT id FROM users WHERE email = ?) WHERE hash = ?`,
      Date.now() - 3_600_000,
      Date.now(),
      BUYER,
      hash,
    );
    const moderator = await people.signedIn('moderator@example.com', 1440);
    const queue = await moderator.newPage();
    await queue.goto(`${live.server.url}/he/moderation/disputes`);
    const entry = queue.locator(`[data-dispute="${hash}"]`);
    await isolated(entry.locator('a bdi', { hasText: 'Adaeze O.' }), 'Adaeze O.', 'O');
    await isolated(entry.locator('a bdi', { hasText: 'Chidi N.' }), 'Chidi N.', 'N');
    await isolated(entry.locator('.muted bdi', { hasText: 'Adaeze O.' }), 'Adaeze O.', 'O');
    await moderator.close();

    // The vendor's affiliates screen: the buyer signed up with the vendor's link.
    live.server.sql(
      `UPDATE users SET referred_by_id = (SELECT id FROM users WHERE email = ?) WHERE email = ?`,
      VENDOR,
      BUYER,
    );
    live.server.sql('UPDATE users SET is_affiliate = 1 WHERE email = ?', VENDOR);
    const affiliates = await open(vendor, '/he/affiliates');
    await isolated(
      affiliates.locator('[data-testid="referral-row"][data-username="Adaeze O."] .aff-username bdi'),
      'Adaeze O.',
      'O',
    );

    // The gift-code trade page names the vendor of a gift-card offer.
    const gift = await people.api<{ hash: string }>(vendor, '/rest/v1/offers', amazonGiftOffer());
    const giftTrade = await open(buyer, `/he/offers/${gift.hash}/gift-code-trade`);
    await isolated(giftTrade.locator('.gct-facts a bdi'), 'Chidi N.', 'N');
    await shot(giftTrade, 'gift-code-trade-he-1440');
    await vendor.close();
    await buyer.close();
    expect(problemsBut(problems, [])).toEqual([]);
  }, 90_000);
});
