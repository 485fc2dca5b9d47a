import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page, Response } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { fundOnServer } from '../support/offer-funds.ts';
import { seriousViolations, serverAndBrowser, untranslatedKeys } from './harness.ts';
import { browserPeople } from './people.ts';
import { messageKeys, overflowsSideways, problemsBut, screenshotter } from './screen-checks.ts';

// The market-grade listing (issue 22, decisions 133 and 134): dense rows (vendor with face,
// reputation and trades; the payment method with its group's mark; limits; price and margin; one
// compact button), a sort select whose order is the API's and the address's, the coins' marks on
// the market tabs, and cards on a phone with the same facts. Screenshots: test-results/listing-market-*.png.

const live = serverAndBrowser();
const people = browserPeople(live);
const LISTING = '/buy-bitcoin/any/usd';
const shot = screenshotter('listing-market');
const problems: string[] = [];
const KEYS = messageKeys('listing', 'offers');

let avatarSrc = '';
let withPhoto = { email: '', username: '' };

beforeAll(async () => {
  await fundOnServer(live.server);
  // Everyone seen in the last hour, each at another minute: "recently seen" has an order to show.
  live.server.sql(
    `UPDATE users SET last_seen_at = ? - (id % 50) * 60000 WHERE email LIKE '%@vendors.example.com'`,
    Date.now(),
  );
  // A vendor of the listing uploads a photo, as the settings page does.
  withPhoto = live.server.row<{ email: string; username: string }>(
    `SELECT u.email, u.username FROM offers o JOIN users u ON u.id = o.owner_id
      JOIN fiat_currencies fc ON fc.id = o.fiat_currency_id
      WHERE fc.code = 'USD' AND o.type = 'sell' AND o.crypto_currency_id = 1 AND o.status = 'active'
        AND u.email LIKE '%@vendors.example.com' ORDER BY o.id LIMIT 1`,
  ) ?? { email: '', username: '' };
  const vendor = await people.signedIn(withPhoto.email, 1440);
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#7c3aed' } })
    .png()
    .toBuffer();
  const upload = await vendor.request.post(`${live.server.url}/rest/v1/users/avatar-upload`, {
    headers: { 'X-CSRF-Token': await people.csrfOf(vendor), Origin: live.server.url },
    multipart: { file: { name: 'me.png', mimeType: 'image/png', buffer: png } },
  });
  expect(upload.status(), await upload.text()).toBe(200);
  const { fileUrl } = ((await upload.json()) as { data: { fileUrl: string } }).data;
  avatarSrc = (await people.api<{ url: string }>(vendor, '/rest/v1/users/process-avatar', { fileUrl })).url;
  await vendor.close();
}, 60_000);

const open = (ctx: BrowserContext, path: string) => people.open(ctx, path, problems);
const rowHashes = (page: Page) =>
  page.locator('[data-offer]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-offer')));
const sortSelect = (page: Page) => page.getByLabel('Sort by');

describe('sorting', () => {
  it('lists the API’s order for every choice, in the address too, and renders it on a fresh load', async () => {
    const ctx = await people.context(1440);
    const page = await open(ctx, LISTING);
    expect(await sortSelect(page).inputValue()).toBe('price');
    const options = await sortSelect(page).locator('option').allTextContents();
    expect(options).toEqual(['Best price', 'Lowest minimum', 'Highest maximum', 'Best reputation', 'Recently seen']);

    for (const sort of ['reputation', 'limit-min', 'limit-max', 'last-seen'] as const) {
      const answer = page.waitForResponse(
        (r) => r.url().includes('/rest/v1/offers?') && r.url().includes(`sort=${sort}`),
      );
      await sortSelect(page).selectOption(sort);
      const expected = ((await (await answer).json()) as { data: { hash: string }[] }).data.map((o) => o.hash);
      expect(expected.length).toBeGreaterThan(3);
      await page.waitForURL(`**${LISTING}?sort=${sort}`);
      await expect.poll(() => rowHashes(page)).toEqual(expected);
      // The server renders the same order at that address.
      const fresh = await open(ctx, `${LISTING}?sort=${sort}`);
      expect(await rowHashes(fresh)).toEqual(expected);
      expect(await sortSelect(fresh).inputValue()).toBe(sort);
      await fresh.close();
    }

    // Reputation reads off the rows: net feedback never rises down the list of the recently seen.
    await sortSelect(page).selectOption('reputation');
    await page.waitForURL(`**${LISTING}?sort=reputation`);
    const net = await page.locator('.listing-list:last-of-type li').evaluateAll((rows) => {
      const stale = rows.findIndex((row) => row.classList.contains('offers-note'));
      return rows.slice(0, stale === -1 ? rows.length : stale).map((row) => {
        const [plus, minus] = (row.querySelector('.offer-feedback')?.textContent ?? '').match(/\d+/g) ?? [];
        return Number(plus) - Number(minus);
      });
    });
    expect(net.length).toBeGreaterThan(3);
    expect(net).toEqual([...net].sort((a, b) => b - a));

    // Back to the best price: the address has no `sort` again.
    await sortSelect(page).selectOption('price');
    await page.waitForURL((url) => url.pathname === LISTING && url.search === '');
    // An order the listing does not know is a missing page, as any bad listing address.
    expect((await ctx.request.get(`${live.server.url}${LISTING}?sort=cheapest`)).status()).toBe(404);
    expect(await seriousViolations(page)).toEqual([]);
    await ctx.close();
    expect(problemsBut(problems, [])).toEqual([]);
  });
});

describe('icons and faces', () => {
  it('marks each payment method with its group, the markets with their coins, and shows uploaded photos', async () => {
    const ctx = await people.context(1440);
    const sprites: Response[] = [];
    const page = await ctx.newPage();
    page.on('response', (r) => {
      if (/listing-icons\.[\w-]+\.svg$/.test(new URL(r.url()).pathname)) sprites.push(r);
    });
    await page.goto(live.server.url + LISTING);
    await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });

    // Every row's method has its group's mark, drawn (the sprite loaded: the mark has a size).
    const marks = await page.locator('[data-offer] .offer-method').evaluateAll((cells) =>
      cells.map((cell) => {
        const use = cell.querySelector('svg.pm-icon use');
        const box = (use as SVGGraphicsElement | null)?.getBBox();
        return {
          group: cell.getAttribute('data-group'),
          href: use?.getAttribute('href')?.split('#')[1],
          drawn: (box?.width ?? 0) > 0,
        };
      }),
    );
    expect(marks.length).toBeGreaterThan(3);
    for (const mark of marks) {
      expect(mark.href).toMatch(/^pm-/);
      expect(mark.drawn, `${mark.group}`).toBe(true);
    }
    expect(marks.some((m) => m.href === `pm-${m.group}`)).toBe(true);
    // One sprite for the page, cached for a year under its hashed name.
    expect(sprites).toHaveLength(1);
    expect((await sprites[0]?.allHeaders())?.['cache-control']).toContain('immutable');
    // The four market tabs carry their coin.
    expect(
      await page
        .locator('.listing-tabs a use')
        .evaluateAll((uses) => uses.map((u) => u.getAttribute('href')?.split('#')[1])),
    ).toEqual(['coin-btc', 'coin-usdt', 'coin-btc', 'coin-usdt']);

    // The vendor who uploaded a photo shows it; the others their initial.
    const faces = await page.locator('[data-offer] .offer-vendor').evaluateAll((cells) =>
      cells.map((cell) => {
        const face = cell.querySelector('.offer-avatar');
        return {
          name: cell.querySelector('.offer-vendor-name')?.textContent ?? '',
          src: face?.tagName === 'IMG' ? face.getAttribute('src') : null,
          initial: face?.tagName === 'SPAN' ? face.textContent : null,
        };
      }),
    );
    const photos = faces.filter((f) => f.src !== null);
    expect(photos.length).toBeGreaterThan(0);
    for (const face of photos) {
      expect(face.name).toBe(withPhoto.username);
      expect(face.src).toBe(avatarSrc);
    }
    for (const face of faces.filter((f) => f.src === null)) {
      expect(face.initial).toBe(Array.from(face.name)[0]?.toLocaleUpperCase());
    }
    const photo = page.locator(`img.offer-avatar[src="${avatarSrc}"]`).first();
    await photo.scrollIntoViewIfNeeded();
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await ctx.close();
    expect(problemsBut(problems, [])).toEqual([]);
  });
});

/** Each cell's box in the first row, relative to the row. */
const rowLayout = (page: Page) =>
  page
    .locator('[data-offer]')
    .first()
    .evaluate((row) => {
      const r = row.getBoundingClientRect();
      const box = (selector: string) => {
        const b = row.querySelector(selector)?.getBoundingClientRect();
        return b ? { top: b.top - r.top, left: b.left - r.left, width: b.width, height: b.height } : null;
      };
      return {
        width: r.width,
        height: r.height,
        vendor: box('.offer-vendor'),
        method: box('.offer-method'),
        limits: box('.offer-limits'),
        price: box('.offer-price-cell'),
        action: box('.offer-action .btn'),
      };
    });

describe.each([375, 1440])('at %i px', (width) => {
  it.each([
    ['', 'light'],
    ['', 'dark'],
    ['/de', 'light'],
    ['/he', 'dark'],
  ] as const)('lays out dense rows in "%s" (%s)', async (lang, scheme) => {
    const ctx = await people.context(width, { colorScheme: scheme });
    const page = await open(ctx, `${lang}${LISTING}`);
    await shot(page, `${width}-${lang.slice(1) || 'en'}-${scheme}`, width === 375);
    expect(await overflowsSideways(page)).toBe(false);
    expect(await untranslatedKeys(page, KEYS)).toEqual([]);
    const layout = await rowLayout(page);
    const { vendor, method, limits, price, action } = layout;
    if (!vendor || !method || !limits || !price || !action)
      throw new Error(`a cell is missing: ${JSON.stringify(layout)}`);
    if (width === 1440) {
      // One line per offer: five columns side by side, in reading order; 71 px in English, 92 in
      // German and Hebrew, whose presence words push the vendor's facts to a second line.
      expect(layout.height).toBeLessThanOrEqual(96);
      const starts = [vendor, method, limits, price, action].map((b) => b.left);
      expect(starts).toEqual([...starts].sort((a, b) => (lang === '/he' ? b - a : a - b)));
    } else {
      // A card in three bands: the vendor across the top; the method with the price; the limits
      // with the one compact button (201 px in English, 242 in German, where words wrap).
      expect(layout.height).toBeLessThanOrEqual(250);
      const bottom = (b: typeof vendor) => b.top + b.height - 1;
      expect(method.top).toBeGreaterThanOrEqual(bottom(vendor));
      expect(price.top).toBeGreaterThanOrEqual(bottom(vendor));
      expect(limits.top).toBeGreaterThanOrEqual(bottom(method));
      expect(action.top).toBeGreaterThanOrEqual(bottom(price));
      expect(action.width).toBeLessThan(layout.width / 2);
    }
    await ctx.close();
    expect(problemsBut(problems, [])).toEqual([]);
  });
});

describe('weight', () => {
  it('keeps the listing within its script budget (issue 4: 120 KB gzip)', async () => {
    const ctx = await people.context(1440);
    const page = await ctx.newPage();
    const scripts = new Map<string, number>();
    page.on('response', async (r) => {
      if (r.request().resourceType() === 'script')
        scripts.set(new URL(r.url()).pathname, gzipSync(await r.body()).length);
    });
    await page.goto(live.server.url + LISTING, { waitUntil: 'networkidle' });
    const inline = await page.locator('script:not([src])').evaluateAll((s) => s.map((e) => e.textContent ?? ''));
    const total = [...scripts.values(), ...inline.map((code) => gzipSync(code).length)].reduce((a, b) => a + b, 0);
    console.log(`listing JS (gzip): ${(total / 1024).toFixed(1)} KB in ${scripts.size} files`);
    expect(total).toBeLessThanOrEqual(120 * 1024);
    await ctx.close();
  });
});
