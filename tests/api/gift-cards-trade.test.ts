import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../server/services/context.ts';
import { verifyLedger } from '../../server/services/ledger/invariants.ts';
import { errorOf } from '../support/api-errors.ts';
import { type GiftOffer, giftCardFixtures } from '../support/gift-card-fixtures.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import type { Browser, TradeData } from '../support/trade-fixtures.ts';
import type { TestUser } from '../support/users.ts';

// Trades paid with gift cards over HTTP (issue 18): the start with the buyer's cards and every
// refusal, a race for the same cards, the vendor who pays with cards on a buy offer, and the
// gift code check per role (add, remove, reveal). What each ending does to the cards is
// tests/api/gift-cards-settlement.test.ts. 100 USD at 100,000 USD/BTC is 100,000 sat.

let t: TestApp;
let g: ReturnType<typeof giftCardFixtures>;
let vendor: Browser;
let buyer: Browser;
let stranger: Browser;
let moderator: Browser;
let vendorUser: TestUser;
let buyerUser: TestUser;
let offer: GiftOffer;

const AMOUNT = 100_000;
const ledgerIsSound = async () => expect(await verifyLedger(t.db)).toEqual([]);
const satoshi = (btc: string) => Math.round(Number(btc) * 1e8);

beforeEach(async () => {
  t = await createTestApp({ config: { DISPUTE_WAIT_MINUTES: 30 } });
  g = giftCardFixtures(t);
  ({ vendor, buyer, stranger, moderator, vendorUser, buyerUser } = await g.giftMarket());
  offer = await g.giftOffer(vendor);
});
afterEach(() => t?.close());

describe('POST /rest/v1/gift-cards/trade/start', () => {
  it('starts with cards adding up to the amount: escrow locked, the cards in use', async () => {
    const ids = await g.saveCards(buyer, [60, 40]);
    const started = await g.startGiftTrade(buyer, offer, ids);
    const trade = started.data;
    expect(started).toMatchObject({ message: expect.any(String), chatUrl: `/trade/${trade.hash}` });
    expect(trade).toMatchObject({ status: 'active_funded', role: 'buyer', fiatAmount: 100, isGccTrade: true });
    const fee = satoshi(trade.fee.amount);
    expect(fee).toBeGreaterThan(0);
    expect(await g.balance(vendorUser.email)).toBe(1_000_000 - AMOUNT - fee);
    const escrow = await t.services.ledger.account(systemContext('test'), {
      kind: 'trade_escrow',
      reference: trade.hash,
      currency: 'BTC',
    });
    expect(escrow?.balance).toBe(AMOUNT + fee);
    for (const id of ids) {
      expect(await g.stateOf(buyer, id)).toBe('in_use');
      expect(await g.eventsOf(id)).toEqual([
        ['saved', 'owner'],
        ['attached', 'buyer'],
      ]);
    }
    expect((await g.myCards(buyer)).map((c) => c.tradeHash)).toEqual([trade.hash, trade.hash]);
    const lines = (await (await buyer.get(`/rest/v1/trade/${trade.hash}/messages`)).json()).data as { text: string }[];
    expect(lines.map((l) => l.text)).toContain('trade.system.gift_cards_attached');
    await ledgerIsSound();
  });

  it('refuses cards that are not the buyer’s to give, and leaves the escrow untouched', async () => {
    const [mine] = await g.saveCards(buyer, [60]);
    const [theirs] = await g.saveCards(stranger, [40]);
    const [inUse] = await g.saveCards(buyer, [100]);
    await g.startGiftTrade(buyer, offer, [inUse as string]);
    const [deleted] = await g.saveCards(buyer, [40]);
    await buyer.send(`/rest/v1/gift-cards/${deleted}`, { method: 'DELETE' });
    const [apple] = await g.saveCards(buyer, [40], { payment_method_id: await g.brandId('apple-gift-card') });
    const [euro] = await g.saveCards(buyer, [40], { fiat_currency_id: await g.currencyId('EUR') });
    const balance = await g.balance(vendorUser.email);

    const attempt = async (ids: string[], status: number, code: string, key?: string) => {
      const res = await buyer.post('/rest/v1/gift-cards/trade/start', await g.giftStartBody(offer, '100', ids));
      expect(res.status, JSON.stringify(ids)).toBe(status);
      const error = await errorOf(res);
      expect(error, JSON.stringify(ids)).toMatchObject({ code });
      if (key) expect(error.details?.[0]?.key).toBe(key);
    };
    await attempt([mine as string, theirs as string], 404, 'NOT_FOUND');
    await attempt([mine as string, 'gcd_AAAAAAAAAAAAAAAA'], 404, 'NOT_FOUND');
    await attempt([mine as string, deleted as string], 404, 'NOT_FOUND');
    await attempt([inUse as string], 409, 'GIFT_CARD_UNAVAILABLE');
    await attempt([mine as string, apple as string], 400, 'ERROR_INPUT_VALIDATION', 'gift_card_wrong_brand');
    await attempt([mine as string, euro as string], 400, 'ERROR_INPUT_VALIDATION', 'gift_card_wrong_brand');
    await attempt([mine as string], 409, 'GIFT_CARDS_DO_NOT_COVER');
    const [extra] = await g.saveCards(buyer, [50]);
    await attempt([mine as string, extra as string], 409, 'GIFT_CARDS_DO_NOT_COVER');

    expect(await g.balance(vendorUser.email)).toBe(balance);
    expect(await g.stateOf(buyer, mine as string)).toBe('free');
    expect(await g.stateOf(stranger, theirs as string)).toBe('free');
    await ledgerIsSound();
  });

  it('refuses a stale price, a wrong brand or currency, bad input and visitors', async () => {
    const ids = await g.saveCards(buyer, [100]);
    const stale = await buyer.post(
      '/rest/v1/gift-cards/trade/start',
      await g.giftStartBody(offer, '100', ids, { amount_btc: '0.0011' }),
    );
    expect(stale.status).toBe(409);
    expect(await errorOf(stale)).toMatchObject({ code: 'fiat_and_btc_amount_mismatch', field: 'amount_btc' });
    const wrong = await buyer.post(
      '/rest/v1/gift-cards/trade/start',
      await g.giftStartBody(offer, '100', ids, {
        fiat_currency_id: await g.currencyId('EUR'),
        payment_method_id: await g.brandId('apple-gift-card'),
      }),
    );
    expect(wrong.status).toBe(400);
    expect((await errorOf(wrong)).details?.map((d) => d.field).sort()).toEqual([
      'fiat_currency_id',
      'payment_method_id',
    ]);
    for (const overrides of [
      { gift_card_ids: [] },
      { gift_card_ids: [ids[0], ids[0]] },
      { gift_card_ids: ['card-1'] },
      { amount_fiat: 'lots' },
      { offer_hash: '../x' },
    ]) {
      const res = await buyer.post(
        '/rest/v1/gift-cards/trade/start',
        await g.giftStartBody(offer, '100', ids, overrides),
      );
      expect(res.status, JSON.stringify(overrides)).toBe(400);
    }
    const body = await g.giftStartBody(offer, '100', ids);
    expect((await t.send('/rest/v1/gift-cards/trade/start', { method: 'POST', json: body })).status).toBe(401);
    expect(await g.stateOf(buyer, ids[0] as string)).toBe('free');
    await ledgerIsSound();
  });

  it('refuses a buy offer (the vendor pays with cards there) and one’s own offer', async () => {
    const buyOffer = await g.giftOffer(vendor, { type: 'buy' });
    await g.fund(buyerUser.email, 'BTC', 500_000);
    const ids = await g.saveCards(buyer, [100]);
    const res = await buyer.post('/rest/v1/gift-cards/trade/start', await g.giftStartBody(buyOffer, '100', ids));
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toMatchObject({ code: 'FORBIDDEN' });
    expect(await g.balance(buyerUser.email)).toBe(500_000);
    const own = await g.saveCards(vendor, [100]);
    expect(
      (await vendor.post('/rest/v1/gift-cards/trade/start', await g.giftStartBody(offer, '100', own))).status,
    ).toBe(403);
    expect(await g.stateOf(buyer, ids[0] as string)).toBe('free');
    await ledgerIsSound();
  });

  it('refuses an offer not paid with gift cards', async () => {
    const bank = await g.createOffer(vendor);
    const ids = await g.saveCards(buyer, [100]);
    const res = await buyer.post(
      '/rest/v1/gift-cards/trade/start',
      await g.giftStartBody(bank, '100', ids, { payment_method_id: await g.brandId('bank-transfer') }),
    );
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toMatchObject({ code: 'FORBIDDEN', message: 'This offer is not paid with gift cards.' });
    expect(await g.balance(vendorUser.email)).toBe(1_000_000);
    expect(await g.stateOf(buyer, ids[0] as string)).toBe('free');
  });

  it('lets one of two starts with the same cards win, run at once', async () => {
    const ids = await g.saveCards(buyer, [60, 40]);
    const body = await g.giftStartBody(offer, '100', ids);
    const answers = await Promise.all([
      buyer.post('/rest/v1/gift-cards/trade/start', body),
      buyer.post('/rest/v1/gift-cards/trade/start', body),
    ]);
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
    const loser = answers.find((res) => res.status === 409) as Response;
    expect(await errorOf(loser)).toMatchObject({ code: 'GIFT_CARD_UNAVAILABLE' });
    const winner = (await (answers.find((res) => res.status === 201) as Response).json()).data as TradeData;
    expect((await g.myCards(buyer)).map((c) => [c.state, c.tradeHash])).toEqual([
      ['in_use', winner.hash],
      ['in_use', winner.hash],
    ]);
    expect(await g.balance(vendorUser.email)).toBe(1_000_000 - AMOUNT - satoshi(winner.fee.amount));
    const trades = await t.db.sql.all('SELECT id FROM trades WHERE offer_id = (SELECT id FROM offers WHERE hash = ?)', [
      offer.hash,
    ]);
    expect(trades).toHaveLength(1);
    await ledgerIsSound();
  });

  it('a plain start on a gift-card offer whose vendor sells asks for the cards', async () => {
    const res = await buyer.post('/rest/v1/trade', g.startBody(offer, '100'));
    expect(res.status).toBe(409);
    const error = await errorOf(res);
    expect(error).toMatchObject({ code: 'GIFT_CARDS_REQUIRED', meta: { action: 'gift_cards' } });
    expect(await g.balance(vendorUser.email)).toBe(1_000_000);
  });
});

describe('a buy offer: the vendor pays with cards in the trade', () => {
  it('starts plainly; mark paid waits for cards adding up to the amount', async () => {
    const buyOffer = await g.giftOffer(vendor, { type: 'buy' });
    await g.fund(buyerUser.email, 'BTC', 500_000);
    const trade = await g.startTrade(buyer, buyOffer);
    expect(trade).toMatchObject({ role: 'seller', status: 'active_funded' });
    const path = `/rest/v1/trade/${trade.hash}`;
    // The vendor is the buyer here: their cards, their mark paid.
    const empty = await vendor.post(`${path}/paid`);
    expect(empty.status).toBe(409);
    expect(await errorOf(empty)).toMatchObject({ code: 'GIFT_CARDS_DO_NOT_COVER' });
    const [sixty, forty, fifty] = (await g.saveCards(vendor, [60, 40, 50])) as [string, string, string];
    const added = await vendor.post(`${path}/gift-cards`, { gift_card_ids: [sixty] });
    expect(added.status, await added.clone().text()).toBe(200);
    expect((await added.json()).data).toMatchObject({
      role: 'buyer',
      cardsTotal: 60,
      tradeInfo: { amount: 100, error: 'cards_do_not_cover' },
      can: { add: true, remove: true, reveal: false },
    });
    const short = await vendor.post(`${path}/paid`);
    expect(short.status).toBe(409);
    expect(await errorOf(short)).toMatchObject({ code: 'GIFT_CARDS_DO_NOT_COVER' });
    const over = await vendor.post(`${path}/gift-cards`, { gift_card_ids: [fifty] });
    expect(over.status).toBe(409);
    expect(await errorOf(over)).toMatchObject({ code: 'GIFT_CARDS_DO_NOT_COVER' });
    // The seller does not add cards.
    const [sellers] = await g.saveCards(buyer, [40]);
    expect((await buyer.post(`${path}/gift-cards`, { gift_card_ids: [sellers] })).status).toBe(403);
    expect((await vendor.post(`${path}/gift-cards`, { gift_card_ids: [forty] })).status).toBe(200);
    expect((await g.check(vendor, trade.hash)).tradeInfo.error).toBeNull();
    const paid = await vendor.post(`${path}/paid`);
    expect(paid.status, await paid.clone().text()).toBe(200);
    // Paid: the cards are settled.
    const late = await vendor.post(`${path}/gift-cards`, { gift_card_ids: [fifty] });
    expect(late.status).toBe(409);
    expect(await errorOf(late)).toMatchObject({ code: 'TRADE_STATE_CHANGED' });
    expect((await vendor.send(`${path}/gift-cards/${forty}`, { method: 'DELETE' })).status).toBe(409);
    await ledgerIsSound();
  });
});

describe('the gift code check', () => {
  async function started(values = [60, 40]) {
    const ids = await g.saveCards(buyer, values);
    const { data } = await g.startGiftTrade(buyer, offer, ids, String(values.reduce((a, b) => a + b, 0)));
    return { hash: data.hash, ids: ids as [string, ...string[]], path: `/rest/v1/trade/${data.hash}` };
  }

  it('shows each role its side, never a code before a reveal; a stranger gets 404', async () => {
    const { hash } = await started();
    const asBuyer = await g.check(buyer, hash);
    expect(asBuyer).toMatchObject({
      role: 'buyer',
      tradeInfo: { amount: 100, currency: { code: 'USD' }, error: null },
      cardsTotal: 100,
      opponentUser: { username: vendorUser.username },
      can: { add: true, remove: true, reveal: false, returnCards: false },
    });
    expect(asBuyer.cards.map((c) => [c.value, c.state, c.code])).toEqual([
      [60, 'in_use', null],
      [40, 'in_use', null],
    ]);
    expect(await g.check(vendor, hash)).toMatchObject({
      role: 'seller',
      opponentUser: { username: buyerUser.username },
      can: { add: false, remove: false, reveal: false, returnCards: false },
    });
    expect(await g.check(moderator, hash)).toMatchObject({
      role: 'moderator',
      opponentUser: null,
      can: { add: false, remove: false, reveal: false, returnCards: false },
    });
    expect((await stranger.get(`/rest/v1/trade/${hash}/gift-cards`)).status).toBe(404);
    expect((await t.send(`/rest/v1/trade/${hash}/gift-cards`)).status).toBe(401);
    await buyer.post(`/rest/v1/trade/${hash}/paid`);
    expect((await g.check(vendor, hash)).can).toEqual({ add: false, remove: false, reveal: true, returnCards: true });
    expect((await g.check(buyer, hash)).can).toEqual({ add: false, remove: false, reveal: false, returnCards: false });
  });

  it('is for gift-card trades only', async () => {
    const bankOffer = await g.createOffer(vendor);
    const trade = await g.startTrade(buyer, bankOffer);
    const res = await buyer.get(`/rest/v1/trade/${trade.hash}/gift-cards`);
    expect(res.status).toBe(403);
    const [card] = await g.saveCards(buyer, [100]);
    expect((await buyer.post(`/rest/v1/trade/${trade.hash}/gift-cards`, { gift_card_ids: [card] })).status).toBe(403);
    expect((await vendor.post(`/rest/v1/trade/${trade.hash}/gift-cards/return`)).status).toBe(403);
  });

  it('the buyer removes an unopened card before paying and adds another; nobody else may', async () => {
    const { hash, ids, path } = await started();
    const [first, second] = ids;
    expect((await vendor.send(`${path}/gift-cards/${second}`, { method: 'DELETE' })).status).toBe(403);
    expect((await stranger.send(`${path}/gift-cards/${second}`, { method: 'DELETE' })).status).toBe(404);
    const removed = await buyer.send(`${path}/gift-cards/${second}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect((await removed.json()).data).toMatchObject({ cardsTotal: 60, tradeInfo: { error: 'cards_do_not_cover' } });
    expect(await g.stateOf(buyer, second as string)).toBe('free');
    expect(await g.eventsOf(second as string)).toEqual([
      ['saved', 'owner'],
      ['attached', 'buyer'],
      ['removed', 'buyer'],
    ]);
    expect((await buyer.send(`${path}/gift-cards/${second}`, { method: 'DELETE' })).status).toBe(404);
    const short = await buyer.post(`${path}/paid`);
    expect(short.status).toBe(409);
    expect(await errorOf(short)).toMatchObject({ code: 'GIFT_CARDS_DO_NOT_COVER' });
    const [other] = await g.saveCards(stranger, [40]);
    expect((await buyer.post(`${path}/gift-cards`, { gift_card_ids: [other] })).status).toBe(404);
    const back = await buyer.post(`${path}/gift-cards`, { gift_card_ids: [second] });
    expect(back.status).toBe(200);
    expect((await back.json()).data).toMatchObject({ cardsTotal: 100, tradeInfo: { error: null } });
    expect((await buyer.post(`${path}/paid`)).status).toBe(200);
    expect((await buyer.send(`${path}/gift-cards/${first}`, { method: 'DELETE' })).status).toBe(409);
    expect((await g.check(buyer, hash)).cards).toHaveLength(2);
  });

  it('reveals to the seller after paid, audits every reveal, and refuses the buyer', async () => {
    const { hash, ids, path } = await started();
    const [first, second] = ids;
    const before = await vendor.post(`${path}/gift-cards/${first}/reveal`);
    expect(before.status).toBe(403);
    expect(await errorOf(before)).toMatchObject({ code: 'FORBIDDEN' });
    expect((await buyer.post(`${path}/paid`)).status).toBe(200);
    const byBuyer = await buyer.post(`${path}/gift-cards/${first}/reveal`);
    expect(byBuyer.status).toBe(403);
    expect((await stranger.post(`${path}/gift-cards/${first}/reveal`)).status).toBe(404);
    const notHere = await vendor.post(`${path}/gift-cards/gcd_AAAAAAAAAAAAAAAA/reveal`);
    expect(notHere.status).toBe(404);

    const revealed = await vendor.post(`${path}/gift-cards/${first}/reveal`);
    expect(revealed.status).toBe(200);
    const { data } = (await revealed.json()) as { data: { id: string; code: string; revealedAt: number } };
    expect(data).toEqual({
      id: first,
      code: expect.stringMatching(/-TEST$/),
      revealedAt: Math.floor(t.clock.now / 1000),
    });
    t.clock.now += 60_000;
    const again = await vendor.post(`${path}/gift-cards/${first}/reveal`);
    expect((await again.json()).data).toEqual(data);
    expect(await g.eventsOf(first)).toEqual([
      ['saved', 'owner'],
      ['attached', 'buyer'],
      ['revealed', 'seller'],
      ['revealed', 'seller'],
    ]);

    const seller = await g.check(vendor, hash);
    expect(seller.cards.map((c) => [c.id, c.state, c.code])).toEqual([
      [first, 'revealed', data.code],
      [second, 'in_use', null],
    ]);
    const asBuyer = await g.check(buyer, hash);
    expect(asBuyer.cards.map((c) => c.code)).toEqual([null, null]);
    expect(JSON.stringify(asBuyer)).not.toContain(data.code);
    const lines = (await (await buyer.get(`${path}/messages`)).json()).data as { text: string }[];
    expect(lines.filter((l) => l.text === 'trade.system.gift_card_revealed')).toHaveLength(1);
    expect(JSON.stringify(lines)).not.toContain(data.code);
  });

  it('a moderator reveals only in a dispute, and then sees the code in the check', async () => {
    const { hash, ids, path } = await started([100]);
    const [card] = ids;
    await buyer.post(`${path}/paid`);
    const early = await moderator.post(`${path}/gift-cards/${card}/reveal`);
    expect(early.status).toBe(403);
    t.clock.now += 30 * 60_000;
    const opened = await buyer.post(`${path}/dispute`, {
      dispute_reason_id: 'paid_not_released',
      dispute_reason_text: 'I sent the card an hour ago.',
    });
    expect(opened.status, await opened.clone().text()).toBe(200);
    expect((await g.check(moderator, hash)).cards[0]?.code).toBeNull();
    expect((await g.check(moderator, hash)).can.reveal).toBe(true);
    const res = await moderator.post(`${path}/gift-cards/${card}/reveal`);
    expect(res.status).toBe(200);
    const { code } = (await res.json()).data as { code: string };
    const seen = await g.check(moderator, hash);
    expect(seen.cards.map((c) => [c.state, c.code])).toEqual([['in_use', code]]);
    // A moderator's read opens nothing for the seller.
    expect((await g.check(vendor, hash)).cards[0]?.code).toBeNull();
    expect(await g.eventsOf(card)).toEqual([
      ['saved', 'owner'],
      ['attached', 'buyer'],
      ['revealed', 'moderator'],
    ]);
  });
});
