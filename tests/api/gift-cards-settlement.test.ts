import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../server/services/context.ts';
import { verifyLedger } from '../../server/services/ledger/invariants.ts';
import { errorOf } from '../support/api-errors.ts';
import { cardPictures, type GiftOffer, giftCardFixtures } from '../support/gift-card-fixtures.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import type { Browser } from '../support/trade-fixtures.ts';
import type { TestUser } from '../support/users.ts';

// What each ending of a gift-card trade does to its cards (issue 18, docs/gift-cards.md "States"):
// released → used; cancelled or expired before a reveal → free again and usable in a new trade;
// the buyer's cancel after a reveal refused; the seller's return (no code redeemed) → cancelled,
// coins back, every card free; disputes settled either way. The ledger is sound after each.

let t: TestApp;
let g: ReturnType<typeof giftCardFixtures>;
let vendor: Browser;
let buyer: Browser;
let stranger: Browser;
let moderator: Browser;
let vendorUser: TestUser;
let buyerUser: TestUser;
let offer: GiftOffer;
let pictures: Awaited<ReturnType<typeof cardPictures>>;

const FUNDS = 1_000_000;
const AMOUNT = 100_000;
const ledgerIsSound = async () => expect(await verifyLedger(t.db)).toEqual([]);

beforeAll(async () => {
  pictures = await cardPictures();
});
beforeEach(async () => {
  t = await createTestApp({ config: { DISPUTE_WAIT_MINUTES: 30 } });
  g = giftCardFixtures(t);
  ({ vendor, buyer, stranger, moderator, vendorUser, buyerUser } = await g.giftMarket(FUNDS));
  offer = await g.giftOffer(vendor);
});
afterEach(() => t?.close());

/** A trade paid with a 60 and a 40 USD card; with `paid`, marked paid. */
async function giftTrade({ paid = false } = {}) {
  const ids = (await g.saveCards(buyer, [60, 40])) as [string, string];
  const { data } = await g.startGiftTrade(buyer, offer, ids);
  const path = `/rest/v1/trade/${data.hash}`;
  if (paid) expect((await buyer.post(`${path}/paid`)).status).toBe(200);
  return { hash: data.hash, ids, path };
}

const states = async (ids: string[]) => Promise.all(ids.map((id) => g.stateOf(buyer, id)));
const statusOf = async (b: Browser, hash: string) =>
  ((await (await b.get(`/rest/v1/trade/${hash}`)).json()).data as { status: string }).status;
const reveal = async (path: string, id: string) =>
  expect((await vendor.post(`${path}/gift-cards/${id}/reveal`)).status).toBe(200);

async function disputed(path: string) {
  t.clock.now += 30 * 60_000;
  const res = await buyer.post(`${path}/dispute`, {
    dispute_reason_id: 'paid_not_released',
    dispute_reason_text: 'I sent the cards an hour ago.',
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

const resolve = async (hash: string, winner: 'buyer' | 'seller') => {
  const res = await moderator.post(`/rest/v1/moderation/trades/${hash}/resolve`, { winner });
  expect(res.status, await res.clone().text()).toBe(200);
};

describe('release', () => {
  it('uses every card and pays the buyer', async () => {
    const { hash, ids, path } = await giftTrade({ paid: true });
    await reveal(path, ids[0]);
    expect((await vendor.post(`${path}/release`, {})).status).toBe(200);
    expect(await states(ids)).toEqual(['used', 'used']);
    expect(await g.balance(buyerUser.email)).toBe(AMOUNT);
    expect(await g.eventsOf(ids[1])).toEqual([
      ['saved', 'owner'],
      ['attached', 'buyer'],
      ['used', 'seller'],
    ]);
    // Used cards stay where they are: not deletable, not reusable.
    expect((await buyer.send(`/rest/v1/gift-cards/${ids[0]}`, { method: 'DELETE' })).status).toBe(409);
    expect((await buyer.get(`/rest/v1/gift-cards/unused/${offer.hash}?fiatAmount=100`)).status).toBe(200);
    expect((await g.check(vendor, hash)).cards.every((c) => c.code !== null)).toBe(true);
    expect((await g.check(buyer, hash)).cards.every((c) => c.code === null)).toBe(true);
    await ledgerIsSound();
  });
});

describe('cancel and expiry', () => {
  it('before a reveal: the cards are free again and start a new trade', async () => {
    const first = await giftTrade({ paid: true });
    const cancelled = await buyer.post(`${first.path}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(await states(first.ids)).toEqual(['free', 'free']);
    expect((await g.myCards(buyer)).map((c) => c.tradeHash)).toEqual([null, null]);
    expect(await g.balance(vendorUser.email)).toBe(FUNDS);
    expect(await g.eventsOf(first.ids[0])).toEqual([
      ['saved', 'owner'],
      ['attached', 'buyer'],
      ['freed', 'buyer'],
    ]);
    const again = await g.startGiftTrade(buyer, offer, first.ids);
    expect(await states(first.ids)).toEqual(['in_use', 'in_use']);
    // The seller withdraws before the buyer paid: free again too.
    expect((await vendor.post(`/rest/v1/trade/${again.data.hash}/cancel`)).status).toBe(200);
    expect(await states(first.ids)).toEqual(['free', 'free']);
    await ledgerIsSound();
  });

  it('the buyer cannot cancel after a reveal (409); the trade and the cards stay', async () => {
    const { hash, ids, path } = await giftTrade({ paid: true });
    await reveal(path, ids[0]);
    const res = await buyer.post(`${path}/cancel`);
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toMatchObject({ code: 'GIFT_CARD_REVEALED' });
    expect(await statusOf(buyer, hash)).toBe('paid');
    expect(await states(ids)).toEqual(['revealed', 'in_use']);
    expect(await g.balance(vendorUser.email)).toBeLessThan(FUNDS - AMOUNT);
    await ledgerIsSound();
  });

  it('the payment window frees the cards of an unpaid trade', async () => {
    const { hash, ids } = await giftTrade();
    expect(await t.services.trades.expireDue(systemContext('trades'))).toBe(0);
    t.clock.now += 30 * 60_000;
    expect(await t.services.trades.expireDue(systemContext('trades'))).toBe(1);
    expect(await statusOf(buyer, hash)).toBe('cancelled_system');
    expect(await states(ids)).toEqual(['free', 'free']);
    expect(await g.eventsOf(ids[0])).toEqual([
      ['saved', 'owner'],
      ['attached', 'buyer'],
      ['freed', 'system'],
    ]);
    expect(await g.balance(vendorUser.email)).toBe(FUNDS);
    await g.everyoneOnline();
    await g.startGiftTrade(buyer, offer, ids);
    await ledgerIsSound();
  });
});

describe('the seller gives the cards back', () => {
  it('after a reveal: cancelled by the seller, the coins back, every card free', async () => {
    const { hash, ids, path } = await giftTrade({ paid: true });
    await reveal(path, ids[0]);
    expect((await buyer.post(`${path}/gift-cards/return`)).status).toBe(403);
    expect((await stranger.post(`${path}/gift-cards/return`)).status).toBe(404);
    const res = await vendor.post(`${path}/gift-cards/return`);
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json()).data).toMatchObject({ status: 'cancelled_seller' });
    expect(await states(ids)).toEqual(['free', 'free']);
    expect(await g.eventsOf(ids[0])).toEqual([
      ['saved', 'owner'],
      ['attached', 'buyer'],
      ['revealed', 'seller'],
      ['returned', 'seller'],
    ]);
    expect(await g.balance(vendorUser.email)).toBe(FUNDS);
    expect(await g.balance(buyerUser.email)).toBe(0);
    // Over: a second return (a double click) answers the trade as it is; a reveal is refused.
    const twice = await vendor.post(`${path}/gift-cards/return`);
    expect((await twice.json()).data).toMatchObject({ status: 'cancelled_seller' });
    expect(await g.balance(vendorUser.email)).toBe(FUNDS);
    expect((await vendor.post(`${path}/gift-cards/${ids[1]}/reveal`)).status).toBe(409);
    expect((await g.check(vendor, hash)).can.returnCards).toBe(false);
    await ledgerIsSound();
  });

  it('not before the buyer paid, and from a dispute too', async () => {
    const unpaid = await giftTrade();
    const early = await vendor.post(`${unpaid.path}/gift-cards/return`);
    expect(early.status).toBe(409);
    expect(await errorOf(early)).toMatchObject({ code: 'TRADE_STATE_CHANGED' });
    expect(await states(unpaid.ids)).toEqual(['in_use', 'in_use']);
    await buyer.post(`${unpaid.path}/paid`);
    await disputed(unpaid.path);
    expect((await vendor.post(`${unpaid.path}/gift-cards/return`)).status).toBe(200);
    expect(await statusOf(vendor, unpaid.hash)).toBe('cancelled_seller');
    expect(await states(unpaid.ids)).toEqual(['free', 'free']);
    await ledgerIsSound();
  });
});

describe('disputes', () => {
  it('won by the seller: the revealed card is used, the unopened one free', async () => {
    const { hash, ids, path } = await giftTrade({ paid: true });
    await reveal(path, ids[0]);
    await disputed(path);
    await resolve(hash, 'seller');
    expect(await statusOf(vendor, hash)).toBe('dispute_won_seller');
    expect(await states(ids)).toEqual(['used', 'free']);
    expect(await g.eventsOf(ids[0])).toEqual([
      ['saved', 'owner'],
      ['attached', 'buyer'],
      ['revealed', 'seller'],
      ['kept', 'moderator'],
    ]);
    expect(await g.balance(vendorUser.email)).toBe(FUNDS);
    await ledgerIsSound();
  });

  it('a moderator reopens a trade that kept an opened card, never one whose cards went back', async () => {
    const kept = await giftTrade({ paid: true });
    await reveal(kept.path, kept.ids[0]);
    await disputed(kept.path);
    await resolve(kept.hash, 'seller');
    const reopened = await moderator.post(`/rest/v1/moderation/trades/${kept.hash}/reopen`);
    expect(reopened.status, await reopened.clone().text()).toBe(200);
    expect(await statusOf(vendor, kept.hash)).toBe('dispute_open');

    const returned = await giftTrade();
    expect((await buyer.post(`${returned.path}/cancel`)).status).toBe(200);
    const refused = await moderator.post(`/rest/v1/moderation/trades/${returned.hash}/reopen`);
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toContain('went back to the buyer');
    expect(await statusOf(vendor, returned.hash)).toBe('cancelled_buyer');
    expect(await states(returned.ids)).toEqual(['free', 'free']);
    await ledgerIsSound();
  });

  it('won by the buyer: every card used, the coins to the buyer', async () => {
    const { hash, ids, path } = await giftTrade({ paid: true });
    await disputed(path);
    await resolve(hash, 'buyer');
    expect(await states(ids)).toEqual(['used', 'used']);
    expect(await g.balance(buyerUser.email)).toBe(AMOUNT);
    await ledgerIsSound();
  });
});

describe('pictures in a trade', () => {
  it('the seller sees the cards’ pictures once they are in the trade, a moderator in a dispute, a stranger never', async () => {
    const image = await g.uploadPicture(buyer, pictures.jpeg);
    const card = await g.saveCard(buyer, { value: 100, images: [image.id] });
    expect((await vendor.get(image.url)).status).toBe(404);
    const { data } = await g.startGiftTrade(buyer, offer, [card.id]);
    const path = `/rest/v1/trade/${data.hash}`;
    expect((await vendor.get(image.url)).status).toBe(200);
    expect((await stranger.get(image.url)).status).toBe(404);
    // A picture of a card's back may show its code: moderators read it as the code, in a dispute.
    expect((await moderator.get(image.url)).status).toBe(404);
    expect((await g.check(vendor, data.hash)).cards[0]?.images).toEqual([image]);
    await buyer.post(`${path}/paid`);
    await disputed(path);
    expect((await moderator.get(image.url)).status).toBe(200);
    // Given back to "My gift cards": the seller's and the moderator's look ends.
    expect((await vendor.post(`${path}/gift-cards/return`)).status).toBe(200);
    expect((await vendor.get(image.url)).status).toBe(404);
    expect((await moderator.get(image.url)).status).toBe(404);
    expect((await buyer.get(image.url)).status).toBe(200);
  });
});
