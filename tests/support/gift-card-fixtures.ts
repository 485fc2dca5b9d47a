import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { GiftCardView, GiftCodeCheckView } from '../../src/lib/shared/views/gift-cards.ts';
import type { TestApp } from './test-app.ts';
import { type Browser, type TradeData, tradeFixtures } from './trade-fixtures.ts';
import { createUser } from './users.ts';

// What gift-card tests share (issue 18): the ids of brands and currencies, a card body and its
// save, pictures, a gift-card offer at a fixed 100,000 USD per BTC (so 100 USD is 100,000 sat),
// the gift-card start, and the gift code check. The parties are fresh people, not the demo
// accounts: the demo buyers keep cards of their own, which would blur every list.

export type GiftOffer = Awaited<ReturnType<ReturnType<typeof tradeFixtures>['createOffer']>>;

export interface GiftTradeStarted {
  message: string;
  chatUrl: string;
  data: TradeData;
}

export const GIFT_BRAND = 'amazon-gift-card';

let made = 0;

/** A code no other test saved: letters, digits and dashes as printed on a card. */
export function uniqueCode(): string {
  made += 1;
  return `GC${made}-${randomBytes(4).toString('hex').toUpperCase()}-TEST`;
}

/** A small JPEG and PNG, made by sharp (no binary fixtures in the repository). */
export async function cardPictures() {
  const jpeg = await sharp({ create: { width: 640, height: 400, channels: 3, background: '#c0392b' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'SecretCam', Copyright: 'Card Owner' } })
    .toBuffer();
  const png = await sharp({ create: { width: 640, height: 480, channels: 4, background: '#27ae6080' } })
    .png()
    .toBuffer();
  return { jpeg, png };
}

export function pictureForm(bytes: Uint8Array, type = 'image/jpeg', name = 'card.jpg') {
  const body = new FormData();
  body.append('file', new File([new Uint8Array(bytes)], name, { type }));
  return body;
}

export function giftCardFixtures(t: TestApp) {
  const f = tradeFixtures(t);

  const idOf = async (table: 'payment_methods' | 'fiat_currencies', column: 'slug' | 'code', value: string) => {
    const row = await t.db.sql.get<{ id: number }>(`SELECT id FROM ${table} WHERE ${column} = ?`, [value]);
    if (!row) throw new Error(`no ${table} ${value}`);
    return Number(row.id);
  };
  const brandId = (slug: string) => idOf('payment_methods', 'slug', slug);
  const currencyId = (code: string) => idOf('fiat_currencies', 'code', code);

  /** A valid save body: an Amazon e-card of 50 USD with a fresh code; `overrides` replace fields. */
  async function cardBody(overrides: Record<string, unknown> = {}) {
    return {
      code: uniqueCode(),
      value: 50,
      fiat_currency_id: await currencyId('USD'),
      payment_method_id: await brandId(GIFT_BRAND),
      receipt: false,
      images: [],
      type: 'ecard',
      ...overrides,
    };
  }

  async function saveCard(b: Browser, overrides: Record<string, unknown> = {}): Promise<GiftCardView> {
    const res = await b.post('/rest/v1/gift-cards', await cardBody(overrides));
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { data: GiftCardView }).data;
  }

  /** Cards of the given values (major units), saved by `b`; their ids in order. */
  async function saveCards(b: Browser, values: number[], overrides: Record<string, unknown> = {}) {
    const ids: string[] = [];
    for (const value of values) ids.push((await saveCard(b, { value, ...overrides })).id);
    return ids;
  }

  async function uploadPicture(b: Browser, bytes: Uint8Array, type = 'image/jpeg') {
    const res = await b.send('/rest/v1/gift-cards/images', { method: 'POST', body: pictureForm(bytes, type) });
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { data: { id: string; url: string } }).data;
  }

  /** A gift-card offer (Amazon, USD, 100,000 USD per BTC); the vendor sells by default. */
  const giftOffer = (vendor: Browser, overrides: Record<string, unknown> = {}) =>
    f.createOffer(vendor, {
      payment_method: GIFT_BRAND,
      trade_instructions: 'Send the card codes through the gift code check.',
      ...overrides,
    });

  /** What the choose-cards modal posts for `fiat` at the offer's price. */
  async function giftStartBody(offer: GiftOffer, fiat: string, ids: string[], overrides: Record<string, unknown> = {}) {
    return {
      offer_hash: offer.hash,
      fiat_currency_id: await currencyId('USD'),
      payment_method_id: await brandId(GIFT_BRAND),
      amount_fiat: fiat,
      amount_btc: (Number(fiat) / offer.fiatPricePerCrypto).toFixed(8),
      gift_card_ids: ids,
      original_data: offer.originalData,
      ...overrides,
    };
  }

  async function startGiftTrade(b: Browser, offer: GiftOffer, ids: string[], fiat = '100') {
    const res = await b.post('/rest/v1/gift-cards/trade/start', await giftStartBody(offer, fiat, ids));
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as GiftTradeStarted;
  }

  async function check(b: Browser, hash: string): Promise<GiftCodeCheckView> {
    const res = await b.get(`/rest/v1/trade/${hash}/gift-cards`);
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { data: GiftCodeCheckView }).data;
  }

  async function myCards(b: Browser): Promise<GiftCardView[]> {
    const res = await b.get('/rest/v1/gift-cards');
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { data: GiftCardView[] }).data;
  }

  const stateOf = async (b: Browser, id: string) => (await myCards(b)).find((card) => card.id === id)?.state;

  /** The card's audit trail, oldest first: [action, actor role]. */
  const eventsOf = async (id: string) =>
    (
      await t.db.sql.all<{ action: string; role: string }>(
        `SELECT e.action, e.actor_role AS role FROM gift_card_events e JOIN gift_cards c ON c.id = e.card_id
          WHERE c.public_id = ? ORDER BY e.id`,
        [id],
      )
    ).map((row) => [row.action, row.role]);

  /**
   * A quiet market with fresh people: the demo offers paused, a vendor with `vendorBtc` satoshi,
   * a fully verified buyer, a stranger and a moderator, all signed in.
   */
  async function giftMarket(vendorBtc = 1_000_000) {
    await f.sql(`UPDATE offers SET status = 'paused'`);
    const vendorUser = await createUser(t, { vendor: true, verified: true, funded: { BTC: vendorBtc } });
    const buyerUser = await createUser(t, { verified: true });
    const strangerUser = await createUser(t, { verified: true });
    const moderatorUser = await createUser(t, { role: 'moderator' });
    await f.everyoneOnline();
    return {
      vendorUser,
      buyerUser,
      strangerUser,
      vendor: await vendorUser.signIn(),
      buyer: await buyerUser.signIn(),
      stranger: await strangerUser.signIn(),
      moderator: await moderatorUser.signIn(),
    };
  }

  return {
    ...f,
    brandId,
    currencyId,
    cardBody,
    saveCard,
    saveCards,
    uploadPicture,
    giftOffer,
    giftStartBody,
    startGiftTrade,
    check,
    myCards,
    stateOf,
    eventsOf,
    giftMarket,
  };
}

export type GiftCardFixtures = ReturnType<typeof giftCardFixtures>;
