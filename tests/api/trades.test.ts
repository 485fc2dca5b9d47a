import { generateSync } from 'otplib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInProcessBus, type EventBus } from '../../server/realtime/bus.ts';
import { tradeChannel } from '../../server/realtime/channels.ts';
import { systemContext } from '../../server/services/context.ts';
import { verifyLedger } from '../../server/services/ledger/invariants.ts';
import { systemAccount } from '../../server/services/ledger/ledger.ts';
import { TRADES_CHANNEL } from '../../server/services/trades/trades.ts';
import { errorOf } from '../support/api-errors.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { type Browser, type TradeData, tradeFixtures } from '../support/trade-fixtures.ts';

// Trades over HTTP: the start with every refusal, the lifecycle per role, expiry, disputes and
// their resolution, chat, and the ledger after each. 100 USD at 100,000 USD/BTC is 100,000 sat;
// the seller's 1 % fee (bank transfers) is 1,000 sat more in escrow.

let t: TestApp;
let bus: EventBus;
let f: ReturnType<typeof tradeFixtures>;
let vendor: Browser;
let buyer: Browser;
let offer: Awaited<ReturnType<typeof f.createOffer>>;

const VENDOR = 'vendor@example.com';
const BUYER = 'buyer@example.com';
const MODERATOR = 'moderator@example.com';
const AMOUNT = 100_000;
const FEE = 1_000;

const dataOf = async (res: Response) => ((await res.json()) as { data: TradeData }).data;
const ledgerIsSound = async () => expect(await verifyLedger(t.db)).toEqual([]);

beforeEach(async () => {
  bus = createInProcessBus();
  t = await createTestApp({ bus, config: { DISPUTE_WAIT_MINUTES: 30 } });
  f = tradeFixtures(t);
  ({ vendor, buyer } = await f.openMarket(1_000_000));
  offer = await f.createOffer(vendor);
});
afterEach(() => t?.close());

describe('POST /rest/v1/trade', () => {
  it('starts a trade: the seller’s coins and fee go into escrow, the buyer gets the chat url', async () => {
    const res = await buyer.post('/rest/v1/trade', f.startBody(offer, '100'));
    expect(res.status).toBe(201);
    const trade = await dataOf(res);
    expect(trade).toMatchObject({
      status: 'active_funded',
      chatUrl: `/trade/${trade.hash}`,
      role: 'buyer',
      isVendor: false,
      cryptoAmount: '0.00100000',
      btcAmount: { satoshi: AMOUNT, btc: '0.00100000' },
      fee: { amount: '0.00001000', percentage: 1 },
      fiatAmount: 100,
      currency: 'USD',
      fiatPricePerBtc: 100000,
      paymentDetails: 'IBAN DE89 3704 0044 0532 0130 00, reference: your username.',
      seller: { username: 'vendor', profile: '/profile/vendor' },
      actions: { markPaid: true, release: false, cancel: true, dispute: false },
      isGccTrade: false,
      isBankTransferTrade: true,
    });
    expect(trade.expiresAt - (trade.startedAt as number)).toBe(30 * 60);
    expect(await f.balance(VENDOR)).toBe(1_000_000 - AMOUNT - FEE);
    expect(
      (
        await t.services.ledger.account(systemContext('test'), {
          kind: 'trade_escrow',
          reference: trade.hash,
          currency: 'BTC',
        })
      )?.balance,
    ).toBe(AMOUNT + FEE);
    await ledgerIsSound();
  });

  it('refuses visitors, requests without a CSRF token and bad input, field by field', async () => {
    expect((await t.send('/rest/v1/trade', { method: 'POST', json: f.startBody(offer, '100') })).status).toBe(401);
    const cookie = [...buyer.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const noCsrf = await t.send('/rest/v1/trade', {
      method: 'POST',
      json: f.startBody(offer, '100'),
      headers: { cookie, 'x-csrf-token': 'B'.repeat(43) },
    });
    expect(noCsrf.status).toBe(403);
    const bad = await buyer.post('/rest/v1/trade', f.startBody(offer, '100', { amount_fiat: '1e5' }));
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'amount_fiat' });
    const missing = await buyer.post('/rest/v1/trade', { offer_hash: offer.hash });
    expect(missing.status).toBe(400);
    expect(await f.balance(VENDOR)).toBe(1_000_000);
  });

  it('refuses amounts outside the limits and amounts that no longer match the price', async () => {
    const low = await buyer.post('/rest/v1/trade', f.startBody(offer, '10'));
    expect(low.status).toBe(400);
    expect(await errorOf(low)).toMatchObject({ field: 'amount_fiat', message: expect.stringContaining('50') });
    const mismatch = await buyer.post('/rest/v1/trade', f.startBody(offer, '100', { amount_btc: '0.0011' }));
    expect(mismatch.status).toBe(409);
    expect(await errorOf(mismatch)).toMatchObject({ code: 'fiat_and_btc_amount_mismatch', field: 'amount_btc' });
    // Within the tolerance of 1 %, the trade is made at the current price.
    const close = await buyer.post('/rest/v1/trade', f.startBody(offer, '100', { amount_btc: '0.000995' }));
    expect(close.status).toBe(201);
    expect((await dataOf(close)).btcAmount?.satoshi).toBe(AMOUNT);
  });

  it('asks for a reload when the offer changed since the page was read', async () => {
    const stale = offer.originalData;
    const edit = await vendor.send(`/rest/v1/offers/${offer.hash}`, {
      method: 'PUT',
      json: {
        type: 'sell',
        crypto_currency_code: 'BTC',
        currency: 'USD',
        payment_method: 'bank-transfer',
        price_type: 'fixed',
        fixed_price: '100000',
        fiat_min: '60',
        fiat_max: '5000',
        payment_window: 30,
      },
    });
    expect(edit.status).toBe(200);
    const res = await buyer.post('/rest/v1/trade', f.startBody(offer, '100', { original_data: stale }));
    expect(res.status).toBe(409);
    const body = (await res.json()) as { errors: { code: string }[]; meta: { action: string } };
    expect(body.errors[0]?.code).toBe('OFFER_CHANGED');
    expect(body.meta.action).toBe('reload');
  });

  it('refuses trading with yourself, a seller without the coins, and gold offers without the terms', async () => {
    const own = await vendor.post('/rest/v1/trade', f.startBody(offer, '100'));
    expect(own.status).toBe(403);
    expect((await errorOf(own))?.message).toBe('This is your own offer.');
    const big = await buyer.post('/rest/v1/trade', f.startBody(offer, '1000'));
    expect(big.status, await big.clone().text()).toBe(409);
    expect(await errorOf(big)).toMatchObject({ code: 'INSUFFICIENT_FUNDS', field: 'amount_fiat' });
    const gold = await f.createOffer(vendor, { is_gold: true });
    const noTerms = await buyer.post('/rest/v1/trade', f.startBody(gold, '100'));
    expect(noTerms.status).toBe(400);
    expect(await errorOf(noTerms)).toMatchObject({ field: 'gold_terms' });
    expect((await buyer.post('/rest/v1/trade', f.startBody(gold, '100', { gold_terms: 1 }))).status).toBe(201);
    await ledgerIsSound();
  });

  it('on a buy offer the person who answers sells from their own wallet', async () => {
    const buyOffer = await f.createOffer(vendor, { type: 'buy' });
    const poor = await buyer.post('/rest/v1/trade', f.startBody(buyOffer, '100'));
    expect(poor.status).toBe(409);
    expect((await errorOf(poor))?.message).toContain('Your BTC balance');
    await f.fund(BUYER, 'BTC', 500_000);
    const trade = await dataOf(await buyer.post('/rest/v1/trade', f.startBody(buyOffer, '100')));
    expect(trade).toMatchObject({ role: 'seller', isVendor: false, buyer: { username: 'vendor' } });
    expect(await f.balance(BUYER)).toBe(500_000 - AMOUNT - FEE);
  });
});

describe('the lifecycle', () => {
  it('mark paid (buyer) → release (seller): the buyer gets the coins, the fee goes to fee income', async () => {
    const trade = await f.startTrade(buyer, offer);
    const path = `/rest/v1/trade/${trade.hash}`;
    const wrongSide = await vendor.post(`${path}/paid`);
    expect(wrongSide.status).toBe(403);
    const paid = await buyer.post(`${path}/paid`);
    expect(paid.status).toBe(200);
    expect(await dataOf(paid)).toMatchObject({ status: 'paid', isPaid: true, actions: { markPaid: false } });
    expect((await buyer.post(`${path}/release`)).status).toBe(403);
    const released = await vendor.post(`${path}/release`, {});
    expect(released.status).toBe(200);
    expect(await dataOf(released)).toMatchObject({
      status: 'released',
      tradeCompleted: true,
      actions: { cancel: false },
    });
    expect(await f.balance(BUYER)).toBe(AMOUNT);
    expect((await t.services.ledger.account(systemContext('test'), systemAccount('fee_income', 'BTC')))?.balance).toBe(
      FEE,
    );
    const completed = await t.db.sql.all<{ n: number }>(
      'SELECT completed_trades AS n FROM users WHERE email IN (?, ?) ORDER BY email',
      [BUYER, VENDOR],
    );
    expect(completed.map((r) => r.n)).toEqual([1, expect.any(Number)]);
    // A double click answers the trade as it is; a cancel after the release is refused.
    expect(await dataOf(await vendor.post(`${path}/release`, {}))).toMatchObject({ status: 'released' });
    const late = await buyer.post(`${path}/cancel`);
    expect(late.status).toBe(409);
    expect(await errorOf(late)).toMatchObject({ code: 'TRADE_STATE_CHANGED' });
    expect(await f.balance(BUYER)).toBe(AMOUNT);
    await ledgerIsSound();
  });

  it('the buyer may cancel until the release; the seller only before the buyer paid', async () => {
    const first = await f.startTrade(buyer, offer);
    expect((await buyer.post(`/rest/v1/trade/${first.hash}/paid`)).status).toBe(200);
    const sellerTooLate = await vendor.post(`/rest/v1/trade/${first.hash}/cancel`);
    expect(sellerTooLate.status).toBe(409);
    const cancelled = await dataOf(await buyer.post(`/rest/v1/trade/${first.hash}/cancel`));
    expect(cancelled).toMatchObject({ status: 'cancelled_buyer', cancelledAt: expect.any(Number) });
    expect(await f.balance(VENDOR)).toBe(1_000_000);

    const second = await f.startTrade(buyer, offer);
    const bySeller = await dataOf(await vendor.post(`/rest/v1/trade/${second.hash}/cancel`));
    expect(bySeller.status).toBe('cancelled_seller');
    expect(await f.balance(VENDOR)).toBe(1_000_000);
    await ledgerIsSound();
  });

  it('hides a trade from everyone but its parties and moderators', async () => {
    const trade = await f.startTrade(buyer, offer);
    const stranger = await f.signedIn('affiliate@example.com');
    expect((await stranger.get(`/rest/v1/trade/${trade.hash}`)).status).toBe(404);
    expect((await stranger.post(`/rest/v1/trade/${trade.hash}/cancel`)).status).toBe(404);
    expect((await t.send(`/rest/v1/trade/${trade.hash}`)).status).toBe(401);
    const moderator = await f.signedIn(MODERATOR);
    const seen = await dataOf(await moderator.get(`/rest/v1/trade/${trade.hash}`));
    expect(seen).toMatchObject({ role: 'moderator', actions: { release: false, cancel: false } });
    // A moderator is no party: releasing or cancelling is not theirs to do.
    expect((await moderator.post(`/rest/v1/trade/${trade.hash}/release`, {})).status).toBe(403);
    expect((await buyer.get('/rest/v1/trade/zzzzzzzzzzz')).status).toBe(404);
    const canFollow = async (email: string) =>
      t.services.trades.canFollow({ actor: { type: 'user', userId: await f.userId(email) } }, { hash: trade.hash });
    expect(await canFollow('affiliate@example.com')).toBe(false);
    expect(await canFollow(BUYER)).toBe(true);
    expect(await canFollow(MODERATOR)).toBe(true);
  });

  it('lists running trades with the ones that need attention', async () => {
    const waiting = await f.startTrade(buyer, offer);
    const paid = await f.startTrade(buyer, offer);
    await buyer.post(`/rest/v1/trade/${paid.hash}/paid`);
    const res = await vendor.get('/rest/v1/trade/active');
    const body = (await res.json()) as { data: TradeData[]; meta: { alarmedTrades: string[] } };
    expect(body.data.map((d) => d.hash).sort()).toEqual([waiting.hash, paid.hash].sort());
    expect(body.meta.alarmedTrades).toEqual([paid.hash]);
  });

  it('asks for the release code when the seller turned release 2FA on', async () => {
    const setup = await vendor.post('/rest/v1/users/2fa/setup');
    const { secret } = (await setup.json()).data as { secret: string };
    const code = (offset: number) => generateSync({ secret, epoch: Math.floor((t.clock.now + offset) / 1000) });
    expect((await vendor.post('/rest/v1/users/2fa/confirm', { code: code(0) })).status).toBe(200);
    const trade = await f.startTrade(buyer, offer);
    expect((await dataOf(await vendor.get(`/rest/v1/trade/${trade.hash}`))).releaseNeedsCode).toBe(true);
    const path = `/rest/v1/trade/${trade.hash}/release`;
    const none = await vendor.post(path, {});
    expect(none.status).toBe(400);
    expect(await errorOf(none)).toMatchObject({ code: 'RELEASE_CODE_REQUIRED', field: 'code' });
    const wrong = await vendor.post(path, { code: '000000' === code(30_000) ? '111111' : '000000' });
    expect(wrong.status).toBe(400);
    expect(await errorOf(wrong)).toMatchObject({ code: 'RELEASE_CODE_INVALID' });
    expect(await f.balance(BUYER)).toBe(0);
    const right = await vendor.post(path, { code: code(30_000) });
    expect(right.status).toBe(200);
    expect(await f.balance(BUYER)).toBe(AMOUNT);
  });
});

describe('the payment window', () => {
  it('cancels an unpaid trade past its window and returns the escrow; paid trades never expire', async () => {
    const unpaid = await f.startTrade(buyer, offer);
    const paid = await f.startTrade(buyer, offer);
    await buyer.post(`/rest/v1/trade/${paid.hash}/paid`);
    expect(await t.services.trades.expireDue(systemContext('trades'))).toBe(0);
    t.clock.now += 30 * 60_000;
    expect(await t.services.trades.expireDue(systemContext('trades'))).toBe(1);
    expect((await dataOf(await buyer.get(`/rest/v1/trade/${unpaid.hash}`))).status).toBe('cancelled_system');
    expect((await dataOf(await buyer.get(`/rest/v1/trade/${paid.hash}`))).status).toBe('paid');
    expect(await f.balance(VENDOR)).toBe(1_000_000 - AMOUNT - FEE);
    // Marking paid after the expiry is too late.
    expect((await buyer.post(`/rest/v1/trade/${unpaid.hash}/paid`)).status).toBe(409);
    expect(await t.services.trades.expireDue(systemContext('trades'))).toBe(0);
    await ledgerIsSound();
  });
});

describe('disputes', () => {
  it('open after the wait, with a listed reason; a moderator settles for the buyer', async () => {
    const reasons = (await (await t.send('/rest/v1/dispute/reasons')).json()).data as { id: string; title: string }[];
    expect(reasons.map((r) => r.id)).toContain('paid_not_released');
    const trade = await f.startTrade(buyer, offer);
    const path = `/rest/v1/trade/${trade.hash}`;
    const body = { dispute_reason_id: 'paid_not_released', dispute_reason_text: 'I paid an hour ago.' };
    expect((await buyer.post(`${path}/dispute`, body)).status).toBe(409);
    await buyer.post(`${path}/paid`);
    const early = await buyer.post(`${path}/dispute`, body);
    expect(early.status).toBe(403);
    t.clock.now += 30 * 60_000;
    const wrongReason = await buyer.post(`${path}/dispute`, { ...body, dispute_reason_id: 'payment_not_received' });
    expect(wrongReason.status).toBe(400);
    expect(await errorOf(wrongReason)).toMatchObject({ field: 'dispute_reason_id' });
    const opened = await dataOf(await buyer.post(`${path}/dispute`, body));
    expect(opened).toMatchObject({
      status: 'dispute_open',
      isDisputed: true,
      dispute: { reasonId: 'paid_not_released', text: 'I paid an hour ago.', openedBy: 'buyer' },
    });
    // Parties cannot settle; a moderator can.
    expect((await buyer.post(`/rest/v1/moderation/trades/${trade.hash}/resolve`, { winner: 'buyer' })).status).toBe(
      404,
    );
    const moderator = await f.signedIn(MODERATOR);
    const queue = (await (await moderator.get('/rest/v1/moderation/disputes')).json()).data as TradeData[];
    expect(queue.map((q) => q.hash)).toEqual([trade.hash]);
    expect((await buyer.get('/rest/v1/moderation/disputes')).status).toBe(403);
    const won = await moderator.post(`/rest/v1/moderation/trades/${trade.hash}/resolve`, { winner: 'buyer' });
    expect(await dataOf(won)).toMatchObject({ status: 'dispute_won_buyer', tradeCompleted: true });
    expect(await f.balance(BUYER)).toBe(AMOUNT);
    await ledgerIsSound();
  });

  it('a moderator reopens a cancelled trade, locking the seller’s coins again, then settles for the seller', async () => {
    const trade = await f.startTrade(buyer, offer);
    await buyer.post(`/rest/v1/trade/${trade.hash}/cancel`);
    const moderator = await f.signedIn(MODERATOR);
    const reopened = await dataOf(await moderator.post(`/rest/v1/moderation/trades/${trade.hash}/reopen`));
    expect(reopened.status).toBe('dispute_open');
    expect(await f.balance(VENDOR)).toBe(1_000_000 - AMOUNT - FEE);
    const settled = await dataOf(
      await moderator.post(`/rest/v1/moderation/trades/${trade.hash}/resolve`, { winner: 'seller' }),
    );
    expect(settled.status).toBe('dispute_won_seller');
    expect(await f.balance(VENDOR)).toBe(1_000_000);
    await ledgerIsSound();
  });
});

describe('chat', () => {
  it('stores lines as text, for the parties and moderators, and announces them live', async () => {
    const trade = await f.startTrade(buyer, offer);
    const live: unknown[] = [];
    const internal: unknown[] = [];
    const offLive = bus.subscribe(tradeChannel(trade.hash), (event) => live.push(event));
    const offInternal = bus.subscribe(TRADES_CHANNEL, (event) => internal.push(event));
    const res = await buyer.post(`/rest/v1/trade/${trade.hash}/messages`, { text: '<b>Hello</b> — paying now' });
    expect(res.status).toBe(201);
    const lines = (await (await vendor.get(`/rest/v1/trade/${trade.hash}/messages`)).json()).data as {
      text: string;
      author: string | null;
      isSystem: boolean;
    }[];
    expect(lines.map((l) => [l.author, l.text, l.isSystem])).toEqual([
      [null, 'trade.system.active_funded', true],
      ['buyer', '<b>Hello</b> — paying now', false],
    ]);
    expect(live).toEqual([
      { type: 'message', payload: expect.objectContaining({ text: '<b>Hello</b> — paying now' }) },
    ]);
    expect(internal).toEqual([
      {
        type: 'trade.message',
        payload: expect.objectContaining({ tradeHash: trade.hash, recipientIds: [await f.userId(VENDOR)] }),
      },
    ]);
    await buyer.post(`/rest/v1/trade/${trade.hash}/paid`);
    expect(live.at(-1)).toMatchObject({ type: 'paid', payload: { status: 'paid' } });
    expect(internal.at(-1)).toMatchObject({
      type: 'trade.changed',
      payload: { action: 'paid', tradeHash: trade.hash },
    });
    offLive();
    offInternal();
    const empty = await buyer.post(`/rest/v1/trade/${trade.hash}/messages`, { text: '   ' });
    expect(empty.status).toBe(400);
    const stranger = await f.signedIn('affiliate@example.com');
    expect((await stranger.post(`/rest/v1/trade/${trade.hash}/messages`, { text: 'hi' })).status).toBe(404);
  });
});
