import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../server/services/context.ts';
import { WEBHOOK_RETRY_SECONDS } from '../../src/lib/shared/webhooks.ts';
import { errorOf } from '../support/api-errors.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { type Browser, tradeFixtures } from '../support/trade-fixtures.ts';
import { type Received, type Receiver, startReceiver } from '../support/webhook-receiver.ts';

// Merchants' webhooks, the delivery side (issue 21): the outbox written with each change, bodies
// and signatures checked by the Standard Webhooks library's own verifier, retries with backoff for a
// day, then the webhook disabled and the merchant told; secret rotation, resends, test events, the
// log's pages. The clock starts at the real time: the verifier refuses timestamps 5 minutes off.

let t: TestApp;
let f: ReturnType<typeof tradeFixtures>;
let receiver: Receiver;
let vendor: Browser;
let buyer: Browser;
let offer: Awaited<ReturnType<typeof f.createOffer>>;
let secret: string;

const VENDOR = 'vendor@example.com';

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

beforeEach(async () => {
  t = await createTestApp({
    config: { WEBHOOKS_ALLOW_LOCAL: 'on', DISPUTE_WAIT_MINUTES: 30 },
    clock: { now: Date.now() },
    webhookTimeoutMs: 300,
  });
  f = tradeFixtures(t);
  ({ vendor, buyer } = await f.openMarket(100_000_000));
  await f.verifyFully(VENDOR);
  await f.verifyFully('buyer@example.com');
  offer = await f.createOffer(vendor);
  await f.sql('UPDATE users SET is_merchant = 1 WHERE id = ?', await f.userId(VENDOR));
  receiver.reset();
  const saved = await vendor.post('/rest/v1/webhooks', { url: receiver.url('/vendor') });
  expect(saved.status, await saved.clone().text()).toBe(200);
  secret = (await saved.json()).data.secret;
  receiver.received.length = 0;
});
afterEach(() => t?.close());

const deliver = () => t.services.webhookDeliveries.runOnce();
/** The bodies the vendor's receiver got, verified with the library every receiver would use. */
const verified = (requests: Received[], key = secret) =>
  requests.map(
    (r) =>
      new Webhook(key).verify(r.body, r.headers as Record<string, string>) as {
        type: string;
        timestamp: string;
        data: Record<string, unknown>;
      },
  );
const log = async () => (await (await vendor.get('/rest/v1/webhooks/deliveries')).json()).data;

describe('events from the outbox', () => {
  it('delivers a trade’s life to the merchant, each body signed and in its documented shape', async () => {
    const trade = await f.startTrade(buyer, offer, '500');
    await buyer.post(`/rest/v1/trade/${trade.hash}/messages`, { text: 'Paying now' });
    await buyer.post(`/rest/v1/trade/${trade.hash}/paid`);
    await vendor.post(`/rest/v1/trade/${trade.hash}/release`, {});
    await vendor.post(`/rest/v1/feedback/${trade.hash}/give`, { rating: 'positive', message: 'Quick' });
    await buyer.post(`/rest/v1/feedback/${trade.hash}/give`, { rating: 'positive', message: 'Fast seller' });
    expect(await deliver()).toBe(5);
    const bodies = verified(receiver.to('/vendor'));
    expect(bodies.map((b) => b.type)).toEqual([
      'trade.started',
      'trade.chat_message_received',
      'trade.paid',
      'trade.crypto_sold',
      'feedback.received',
    ]);
    const [started, chat, paid, sold, feedback] = bodies;
    const tradeView = {
      hash: trade.hash,
      url: `http://localhost/trade/${trade.hash}`,
      buyer: expect.any(String),
      seller: expect.any(String),
      fiatAmount: '500.00',
      currency: 'USD',
      cryptoAmount: expect.stringMatching(/^0\.\d{8}$/),
      cryptoCurrency: 'BTC',
    };
    expect(started?.data).toEqual({
      trade: { ...tradeView, status: 'active_funded', previousStatus: null },
      role: 'seller',
      actor: 'buyer',
      at: expect.any(Number),
    });
    expect(chat?.data).toEqual({
      trade: { hash: trade.hash, url: `http://localhost/trade/${trade.hash}` },
      message: {
        id: expect.any(Number),
        author: expect.any(String),
        authorRole: 'buyer',
        text: 'Paying now',
        attachment: null,
        at: expect.any(Number),
      },
    });
    expect(paid?.data).toMatchObject({ trade: { status: 'paid', previousStatus: 'active_funded' }, role: 'seller' });
    expect(sold?.data).toMatchObject({ trade: { status: 'released' }, role: 'seller', actor: 'seller' });
    expect(feedback?.data).toMatchObject({ from: expect.any(String), rating: 'positive', message: 'Fast seller' });
    expect(Date.parse(started?.timestamp ?? '')).toBeGreaterThan(0);
    // The same webhook-id on the log as in the header; each delivered once.
    const entries = await log();
    expect(entries).toHaveLength(5);
    expect(
      entries.every((d: { status: string; attempts: number }) => d.status === 'delivered' && d.attempts === 1),
    ).toBe(true);
    expect(new Set(entries.map((d: { id: string }) => d.id))).toEqual(
      new Set(receiver.to('/vendor').map((r) => r.headers['webhook-id'])),
    );
    // The buyer has no webhook: nothing was queued for them.
    expect(
      await t.db.sql.get('SELECT count(*) AS n FROM webhook_deliveries WHERE user_id <> ?', [await f.userId(VENDOR)]),
    ).toEqual({ n: 0 });
  });

  it('queues only the events the merchant follows, and nothing once the webhook is removed', async () => {
    await vendor.post('/rest/v1/webhooks/events', {
      events: [
        { name: 'trade.started', checked: false },
        { name: 'trade.chat_message_received', checked: false },
      ],
    });
    const trade = await f.startTrade(buyer, offer, '500');
    await buyer.post(`/rest/v1/trade/${trade.hash}/messages`, { text: 'hello' });
    await buyer.post(`/rest/v1/trade/${trade.hash}/paid`);
    await deliver();
    expect(verified(receiver.to('/vendor')).map((b) => b.type)).toEqual(['trade.paid']);
    await vendor.send('/rest/v1/webhooks', { method: 'DELETE' });
    await buyer.post(`/rest/v1/trade/${trade.hash}/cancel`);
    expect(await deliver()).toBe(0);
  });

  it('tells the seller a cancel, and a buyer-merchant what it bought', async () => {
    const trade = await f.startTrade(buyer, offer, '500');
    await buyer.post(`/rest/v1/trade/${trade.hash}/cancel`);
    await deliver();
    const last = verified(receiver.to('/vendor')).at(-1);
    expect(last).toMatchObject({ type: 'trade.cancelled_or_expired', data: { reason: 'cancelled', actor: 'buyer' } });
  });

  it('delivers deposits when seen and when credited', async () => {
    const vendorId = await f.userId(VENDOR);
    const row = await t.services.chain.simulateDeposit(systemContext('test'), {
      userId: vendorId,
      currency: 'BTC',
      amount: 125_000,
    });
    await t.services.chain.mine(systemContext('test'), { ticks: 3 });
    await deliver();
    const bodies = verified(receiver.to('/vendor'));
    expect(bodies.map((b) => b.type)).toEqual(['wallet.deposit_pending', 'wallet.deposit_confirmed']);
    expect(bodies[0]?.data).toEqual({
      deposit: {
        id: row.publicId,
        currency: 'BTC',
        network: row.network,
        amount: '0.00125000',
        txid: row.txid,
        confirmations: 0,
        requiredConfirmations: row.requiredConfirmations,
      },
    });
  });
});

describe('retries', () => {
  it('retries with backoff for a day, then fails, disables the webhook and tells the merchant', async () => {
    receiver.behave('/vendor', { status: 503 });
    await vendor.post('/rest/v1/webhooks/test');
    await f.startTrade(buyer, offer, '500');
    expect(await deliver()).toBe(2);
    let [first] = await log();
    expect(first).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 503, error: 'non-2xx answer' });
    // Not due yet: nothing goes.
    expect(await deliver()).toBe(0);
    for (const [i, wait] of WEBHOOK_RETRY_SECONDS.entries()) {
      [first] = await log();
      expect(first.nextAttemptAt, `retry ${i + 1}`).toBe(Math.floor(t.clock.now / 1000) + wait);
      t.clock.now += wait * 1000;
      await deliver();
    }
    const entries = await log();
    expect(entries.map((d: { status: string }) => d.status)).toEqual(['failed', 'failed']);
    // The first to run out disabled the webhook; the other failed with it, unsent.
    const attempts = entries.map((d: { attempts: number }) => d.attempts).sort((a: number, b: number) => b - a);
    expect(attempts[0]).toBe(WEBHOOK_RETRY_SECONDS.length + 1);
    expect(entries.every((d: { nextAttemptAt: number | null }) => d.nextAttemptAt === null)).toBe(true);
    const view = (await (await vendor.get('/rest/v1/webhooks')).json()).data;
    expect(view).toMatchObject({ status: 'disabled', enabled: false, disabledReason: 'deliveries_failed' });
    const inbox = (await (await vendor.get('/rest/v1/notifications')).json()).data as { type: string; link: string }[];
    expect(inbox.find((n) => n.type === 'webhook_disabled')).toMatchObject({ link: '/webhooks' });
    // Nothing more is queued, and a test cannot be sent until the URL is saved again.
    await f.startTrade(buyer, offer, '400');
    expect(await deliver()).toBe(0);
    const test = await vendor.post('/rest/v1/webhooks/test');
    expect((await errorOf(test)).code).toBe('WEBHOOK_NOT_ENABLED');
    receiver.behave('/vendor', 'echo-header');
    const again = await vendor.post('/rest/v1/webhooks', { url: receiver.url('/vendor') });
    expect((await again.json()).data).toMatchObject({ status: 'enabled', disabledReason: null });
  });

  it('counts a timeout, a refused connection and a redirect as failures, with their latency', async () => {
    receiver.behave('/vendor', 'hang');
    await vendor.post('/rest/v1/webhooks/test');
    await deliver();
    const [hung] = await log();
    expect(hung).toMatchObject({ status: 'pending', responseStatus: null, error: 'no answer within 300 ms' });
    expect(hung.latencyMs).toBeGreaterThanOrEqual(290);
    receiver.behave('/vendor', 'redirect');
    t.clock.now += 5_000;
    await deliver();
    expect((await log())[0]).toMatchObject({ responseStatus: 307, error: 'redirect (not followed)', attempts: 2 });
    receiver.behave('/vendor', 'echo-header');
    t.clock.now += 30_000;
    await deliver();
    expect((await log())[0]).toMatchObject({ status: 'delivered', responseStatus: 200, attempts: 3, error: null });
  });

  it('sends again what a stopped process had claimed, with the same webhook-id', async () => {
    await vendor.post('/rest/v1/webhooks/test');
    await f.sql("UPDATE webhook_deliveries SET status = 'sending', claimed_at = ?", t.clock.now);
    expect(await deliver()).toBe(0);
    t.clock.now += 61_000;
    expect(await deliver()).toBe(1);
    expect((await log())[0]).toMatchObject({ status: 'delivered' });
  });
});

describe('secrets, resends, tests and the log', () => {
  it('signs with both secrets for 24 hours after a rotation', async () => {
    const rotated = (await (await vendor.post('/rest/v1/webhooks/secret')).json()).data.secret;
    await vendor.post('/rest/v1/webhooks/test');
    await deliver();
    const [request] = receiver.to('/vendor');
    expect(String(request?.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified([request as Received], rotated)[0]?.type).toBe('webhook.test');
    expect(verified([request as Received], secret)[0]?.type).toBe('webhook.test');
  });

  it('resends a delivery with the same id; a stranger’s id is not found', async () => {
    const sent = (await (await vendor.post('/rest/v1/webhooks/test')).json()).data;
    expect(sent).toMatchObject({ event: 'webhook.test', status: 'pending', attempts: 0 });
    await deliver();
    const again = await vendor.post(`/rest/v1/webhooks/deliveries/${sent.id}/resend`);
    expect((await again.json()).data).toMatchObject({ id: sent.id, status: 'pending', attempts: 0 });
    await deliver();
    expect(receiver.to('/vendor').map((r) => r.headers['webhook-id'])).toEqual([sent.id, sent.id]);
    const missing = await vendor.post('/rest/v1/webhooks/deliveries/msg_0000000000000000/resend');
    expect(missing.status).toBe(404);
    const bad = await vendor.post('/rest/v1/webhooks/deliveries/nope/resend');
    expect((await errorOf(bad)).field).toBe('id');
  });

  it('pages the log, newest first, 50 at a time', async () => {
    for (let i = 0; i < 52; i++) await vendor.post('/rest/v1/webhooks/test');
    const first = await (await vendor.get('/rest/v1/webhooks/deliveries')).json();
    expect(first.data).toHaveLength(50);
    expect(first.meta.next).toBe(first.data[49].id);
    const second = await (await vendor.get(`/rest/v1/webhooks/deliveries?before=${first.meta.next}`)).json();
    expect(second.data).toHaveLength(2);
    expect(second.meta.next).toBeNull();
    const ids = [...first.data, ...second.data].map((d: { id: string }) => d.id);
    expect(new Set(ids).size).toBe(52);
    const unknown = await vendor.get('/rest/v1/webhooks/deliveries?before=msg_0000000000000000');
    expect((await errorOf(unknown)).field).toBe('before');
  });
});
