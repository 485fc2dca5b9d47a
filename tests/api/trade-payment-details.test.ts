import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BusEvent, createInProcessBus, type EventBus } from '../../server/realtime/bus.ts';
import { tradeChannel } from '../../server/realtime/channels.ts';
import { errorOf } from '../support/api-errors.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { type Browser, type TradeData, tradeFixtures } from '../support/trade-fixtures.ts';

// POST /rest/v1/trade/{id}/payment-details (decision 125): the seller writes where the buyer pays
// while the trade waits for payment; the buyer reads it at once (an event on the trade's channel),
// the chat says so, the trail keeps it, and each side is notified: the seller when a trade starts
// without details, the buyer when they arrive or change.

let t: TestApp;
let bus: EventBus;
let f: ReturnType<typeof tradeFixtures>;
let vendor: Browser;
let buyer: Browser;
let offer: Awaited<ReturnType<typeof f.createOffer>>;

const DETAILS = 'IBAN DE89 3704 0044 0532 0130 00\nErika Mustermann, reference: your username';

type Trade = TradeData & { paymentDetails: string | null; actions: Record<string, boolean>; version: number };

beforeEach(async () => {
  bus = createInProcessBus();
  t = await createTestApp({ bus });
  f = tradeFixtures(t);
  ({ vendor, buyer } = await f.openMarket(1_000_000));
  // A sell offer without instructions: nothing tells the buyer where to pay.
  offer = await f.createOffer(vendor, { trade_instructions: '' });
});
afterEach(() => t?.close());

const write = (who: Browser, hash: string, body: unknown) => who.post(`/rest/v1/trade/${hash}/payment-details`, body);
const tradeOf = async (who: Browser, hash: string) =>
  (await (await who.get(`/rest/v1/trade/${hash}`)).json()).data as Trade;
const systemLines = async (who: Browser, hash: string) =>
  ((await (await who.get(`/rest/v1/trade/${hash}/messages`)).json()).data as { text: string; isSystem: boolean }[])
    .filter((line) => line.isSystem)
    .map((line) => line.text);
const trail = (hash: string) =>
  t.db.sql.all<{ action: string; note: string | null; actorRole: string }>(
    `SELECT t.action, t.note, t.actor_role AS actorRole FROM trade_transitions t JOIN trades r ON r.id = t.trade_id
     WHERE r.hash = ? ORDER BY t.id`,
    [hash],
  );
const inbox = async (who: Browser) => {
  await t.services.notificationsSettled();
  return (await (await who.get('/rest/v1/notifications')).json()).data as { type: string; messageTk: string }[];
};

describe('POST /rest/v1/trade/{id}/payment-details', () => {
  it('lets the seller write them; the buyer reads them at once, the chat and the trail say so', async () => {
    const trade = await f.startTrade(buyer, offer);
    expect((await tradeOf(buyer, trade.hash)).paymentDetails).toBe('');
    expect((await tradeOf(vendor, trade.hash)).actions.paymentDetails).toBe(true);
    expect((await tradeOf(buyer, trade.hash)).actions.paymentDetails).toBe(false);
    const live: BusEvent[] = [];
    const off = bus.subscribe(tradeChannel(trade.hash), (event) => live.push(event));

    const res = await write(vendor, trade.hash, { payment_details: `  ${DETAILS}  ` });
    expect(res.status, await res.clone().text()).toBe(200);
    const answered = (await res.json()).data as Trade;
    expect(answered).toMatchObject({ paymentDetails: DETAILS, role: 'seller', version: trade.version + 1 });
    expect((await tradeOf(buyer, trade.hash)).paymentDetails).toBe(DETAILS);
    expect(live).toEqual([{ type: 'payment_details', payload: { version: trade.version + 1 } }]);
    expect(await systemLines(buyer, trade.hash)).toEqual([
      'trade.system.active_funded',
      'trade.system.payment_details_added',
    ]);

    // A change is a line of its own; the same text again (a double click) is nothing new.
    expect((await write(vendor, trade.hash, { payment_details: 'PayPal: erika@example.com' })).status).toBe(200);
    expect((await write(vendor, trade.hash, { payment_details: 'PayPal: erika@example.com' })).status).toBe(200);
    expect((await systemLines(buyer, trade.hash)).slice(1)).toEqual([
      'trade.system.payment_details_added',
      'trade.system.payment_details_changed',
    ]);
    expect(await trail(trade.hash)).toEqual([
      { action: 'start', note: null, actorRole: 'buyer' },
      { action: 'payment_details', note: 'added', actorRole: 'seller' },
      { action: 'payment_details', note: 'changed', actorRole: 'seller' },
    ]);
    off();
  });

  it('asks the seller for them when a trade starts without, and tells the buyer when they come', async () => {
    const trade = await f.startTrade(buyer, offer);
    const sellerTypes = (await inbox(vendor)).map((n) => n.messageTk);
    expect(sellerTypes).toContain('notifications.msg.trade_payment_details_missing');
    expect((await inbox(buyer)).map((n) => n.type)).not.toContain('trade_payment_details');

    await write(vendor, trade.hash, { payment_details: DETAILS });
    await write(vendor, trade.hash, { payment_details: `${DETAILS}\nBIC COBADEFFXXX` });
    const told = (await inbox(buyer)).filter((n) => n.type === 'trade_payment_details').map((n) => n.messageTk);
    expect(told.sort()).toEqual([
      'notifications.msg.trade_payment_details_added',
      'notifications.msg.trade_payment_details_changed',
    ]);
  });

  it('asks nobody when the offer’s instructions say where to pay', async () => {
    const withInstructions = await f.createOffer(vendor, { trade_instructions: DETAILS });
    await f.startTrade(buyer, withInstructions);
    expect((await inbox(vendor)).map((n) => n.type)).not.toContain('trade_payment_details_missing');
  });

  it('is the seller’s alone, and only until the trade is paid', async () => {
    const trade = await f.startTrade(buyer, offer);
    const byBuyer = await write(buyer, trade.hash, { payment_details: DETAILS });
    expect(byBuyer.status).toBe(403);
    expect(await errorOf(byBuyer)).toMatchObject({ code: 'FORBIDDEN' });
    const moderator = await f.signedIn('moderator@example.com');
    expect((await write(moderator, trade.hash, { payment_details: DETAILS })).status).toBe(403);
    expect((await write(vendor, 'NoSuchTrade1', { payment_details: DETAILS })).status).toBe(404);
    expect((await t.send(`/rest/v1/trade/${trade.hash}/payment-details`, { method: 'POST', json: {} })).status).toBe(
      401,
    );

    expect((await buyer.post(`/rest/v1/trade/${trade.hash}/paid`)).status).toBe(200);
    const late = await write(vendor, trade.hash, { payment_details: DETAILS });
    expect(late.status).toBe(409);
    expect(await errorOf(late)).toMatchObject({ code: 'TRADE_STATE_CHANGED' });
    expect((await tradeOf(vendor, trade.hash)).actions.paymentDetails).toBe(false);
    expect((await tradeOf(buyer, trade.hash)).paymentDetails).toBe('');
  });

  it('refuses text that is missing, blank or too long, naming the field', async () => {
    const trade = await f.startTrade(buyer, offer);
    for (const body of [
      {},
      { payment_details: '   ' },
      { payment_details: 'x'.repeat(3001) },
      { payment_details: 7 },
    ]) {
      const res = await write(vendor, trade.hash, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe('ERROR_INPUT_VALIDATION');
      expect(error.details?.map((d: { field: string }) => d.field)).toEqual(['payment_details']);
    }
    expect(await systemLines(buyer, trade.hash)).toEqual(['trade.system.active_funded']);
  });
});
