import { afterEach, describe, expect, it } from 'vitest';
import { type BusEvent, createInProcessBus, type EventBus } from '../../server/realtime/bus.ts';
import { systemContext } from '../../server/services/context.ts';
import { createDeliveryJob } from '../../server/services/notifications/deliveries.ts';
import { createNotificationsRepository } from '../../server/services/notifications/repository.ts';
import type {
  TradeBusEvent,
  TradeChangedPayload,
  TradeMessagePayload,
} from '../../server/services/notifications/trade-events.ts';
import { signedInAs } from '../support/signed-in.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';

// Notifications (issue 7): the API of spec section 7 (tabs, filters, paging, mark read, reset
// counters, mark all), the mapping of the bus's domain events to notifications with the flood
// rule, and the durable delivery queue (e-mail digest, SMS, Telegram) across a restart.

let t: TestApp;
let bus: EventBus;
afterEach(() => t?.close());

/** A buyer and a vendor, fresh ones unless the test reads the seeded accounts' names and addresses. */
async function setup({ seeded = false }: { seeded?: boolean } = {}) {
  bus = createInProcessBus((error) => {
    throw error;
  });
  t = await createTestApp({ bus });
  const [buyerEmail, vendorEmail] = seeded
    ? ['buyer@example.com', 'vendor@example.com']
    : [(await createUser(t)).email, (await createUser(t, { vendor: true })).email];
  const buyer = { ...(await signedInAs(t, buyerEmail)), email: buyerEmail };
  const vendor = { ...(await signedInAs(t, vendorEmail)), email: vendorEmail };
  const live = (publicId: string) => {
    const seen: BusEvent[] = [];
    bus.subscribe(`notifications:${publicId}`, (event) => seen.push(event));
    return seen;
  };
  return { buyer, vendor, live, sql: t.db.sql };
}

/** Once the subscriber's work for what was published so far is done (its transactions run in order). */
const settled = () => t.services.notificationsSettled();

const json = async (res: Response) => (await res.json()) as { data: any; meta?: any; errors?: any[] };

const trade = (over: Partial<TradeChangedPayload> & { buyerId: number; sellerId: number }): TradeChangedPayload => ({
  tradeHash: 'Tr4deHash01',
  action: 'started',
  status: 'active_funded',
  previousStatus: null,
  actorId: over.buyerId,
  actorRole: 'buyer',
  ownerId: over.sellerId,
  responderId: over.buyerId,
  buyerUsername: 'buyer',
  sellerUsername: 'vendor',
  link: '/trade/Tr4deHash01',
  fiatAmount: '150.00',
  currency: 'EUR',
  cryptoAmount: '0.00170000',
  cryptoCurrency: 'BTC',
  at: t.clock.now,
  ...over,
});
const publishTrade = (event: TradeBusEvent) => bus.publish('trades', event);
const message = (over: Partial<TradeMessagePayload>): TradeMessagePayload => ({
  tradeHash: 'Tr4deHash01',
  messageId: 1,
  authorId: null,
  authorRole: 'buyer',
  recipientIds: [],
  hasAttachment: false,
  isForModerator: false,
  link: '/trade/Tr4deHash01',
  at: t.clock.now,
  ...over,
});

describe('GET /rest/v1/notifications', () => {
  it('answers 401 without a session and lists nothing for a new account', async () => {
    const { buyer } = await setup();
    expect((await t.send('/rest/v1/notifications')).status).toBe(401);
    const res = await buyer.get('/rest/v1/notifications');
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      data: [],
      meta: { name: 'inbox', numberOfUnread: 0, nextPageExist: false, unread: { inbox: 0, moderators: 0, total: 0 } },
    });
  });

  it('puts moderator types in the moderators tab and the rest in inbox, in the reader’s language', async () => {
    const { buyer, vendor } = await setup();
    publishTrade({ type: 'trade.changed', payload: trade({ buyerId: buyer.id, sellerId: vendor.id }) });
    publishTrade({
      type: 'trade.message',
      payload: message({ authorId: null, authorRole: 'moderator', recipientIds: [buyer.id, vendor.id] }),
    });
    await settled();
    const inbox = await json(await vendor.get('/rest/v1/notifications'));
    expect(inbox.data).toHaveLength(1);
    expect(inbox.data[0]).toMatchObject({
      type: 'trade_started_receiver',
      link: '/trade/Tr4deHash01',
      count: 1,
      message: 'buyer started a trade with you',
      messageTk: 'notifications.msg.trade_started_receiver',
      messagePlaceholders: { username: 'buyer', tradeHash: 'Tr4deHash01' },
      subtext: '150.00 EUR for 0.00170000 BTC',
      subtextTk: 'notifications.sub.amount',
      isRead: false,
      createdAt: Math.floor(t.clock.now / 1000),
    });
    expect(inbox.data[0].id).toMatch(/^ntf_[0-9A-Za-z]{16}$/);
    expect(inbox.meta).toMatchObject({
      name: 'inbox',
      numberOfUnread: 1,
      unread: { inbox: 1, moderators: 1, total: 2 },
    });
    const moderators = await json(await vendor.get('/rest/v1/notifications?name=moderators&locale=de'));
    expect(moderators.data.map((n: any) => [n.type, n.message])).toEqual([
      ['moderator_message', 'Ein Moderator hat in deinem Trade geschrieben'],
    ]);
    expect(moderators.meta.name).toBe('moderators');
    // The buyer started it: only the moderator's message reached them.
    expect((await json(await buyer.get('/rest/v1/notifications'))).data).toEqual([]);
  });

  it('pages newest first, filters by type and by read state, and refuses bad filters', async () => {
    const { buyer } = await setup();
    for (let i = 0; i < 5; i++) {
      t.clock.now += 1000;
      await t.services.notifications.notify(systemContext('test'), {
        userId: buyer.id,
        type: i % 2 ? 'trade_paid' : 'feedback_received',
        link: `/trade/T${i}`,
        message: { key: i % 2 ? 'trade_paid' : 'feedback_positive', params: { username: `u${i}` } },
      });
    }
    const first = await json(await buyer.get('/rest/v1/notifications?limit=2'));
    expect(first.data.map((n: any) => n.link)).toEqual(['/trade/T4', '/trade/T3']);
    expect(first.meta.nextPageExist).toBe(true);
    const last = await json(await buyer.get('/rest/v1/notifications?limit=2&offset=4'));
    expect(last.data.map((n: any) => n.link)).toEqual(['/trade/T0']);
    expect(last.meta.nextPageExist).toBe(false);
    const paid = await json(await buyer.get('/rest/v1/notifications?types=trade_paid'));
    expect(paid.data.map((n: any) => n.link)).toEqual(['/trade/T3', '/trade/T1']);
    expect(paid.meta.numberOfUnread).toBe(2);
    await buyer.post('/rest/v1/notifications', { ids: [paid.data[0].id] });
    const read = await json(await buyer.get('/rest/v1/notifications?filter-action=read'));
    expect(read.data.map((n: any) => n.link)).toEqual(['/trade/T3']);
    const unread = await json(await buyer.get('/rest/v1/notifications?filter-action=unread'));
    expect(unread.data).toHaveLength(4);

    for (const query of ['limit=0', 'limit=51', 'offset=-1', 'name=outbox', 'types=nope', 'filter-action=some']) {
      const res = await buyer.get(`/rest/v1/notifications?${query}`);
      expect(res.status, query).toBe(400);
      expect((await json(res)).errors?.[0].code).toBe('ERROR_INPUT_VALIDATION');
    }
  });
});

describe('marking read', () => {
  async function seed(userId: number, n: number, type: 'trade_paid' | 'moderator_message' = 'trade_paid') {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      t.clock.now += 1000;
      const view = await t.services.notifications.notify(systemContext('test'), {
        userId,
        type,
        link: `/trade/${type}${i}`,
        message: { key: type, params: { username: 'x' } },
      });
      ids.push(view?.id ?? '');
    }
    return ids;
  }

  it('marks the caller’s own ids read, never another user’s, and tells the open pages', async () => {
    const { buyer, vendor, live } = await setup();
    const mine = await seed(buyer.id, 3);
    const theirs = await seed(vendor.id, 1);
    const events = live(buyer.publicId);
    const res = await buyer.post('/rest/v1/notifications', { ids: [mine[0], mine[1], theirs[0]] });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ data: { updated: 2 }, meta: { unread: { inbox: 1, moderators: 0, total: 1 } } });
    expect(events).toEqual([{ type: 'notifications_counts', payload: { inbox: 1, moderators: 0, total: 1 } }]);
    expect((await json(await vendor.get('/rest/v1/notifications'))).meta.numberOfUnread).toBe(1);
    // Read again: nothing changes, nothing is announced.
    expect((await json(await buyer.post('/rest/v1/notifications', { ids: [mine[0]] }))).data.updated).toBe(0);
    expect(events).toHaveLength(1);
  });

  it('refuses a missing CSRF token, no session and bad ids', async () => {
    const { buyer } = await setup();
    const [id] = await seed(buyer.id, 1);
    const noCsrf = await t.send('/rest/v1/notifications', {
      method: 'POST',
      headers: { cookie: buyer.cookie, 'X-CSRF-Token': 'wrong' },
      json: { ids: [id] },
    });
    expect(noCsrf.status).toBe(403);
    expect((await t.send('/rest/v1/notifications', { method: 'POST', json: { ids: [id] } })).status).toBe(401);
    for (const body of [{}, { ids: [] }, { ids: ['1'] }, { ids: 'ntf_x' }]) {
      expect((await buyer.post('/rest/v1/notifications', body)).status).toBe(400);
      expect((await buyer.post('/rest/v1/notifications/reset-counters', body)).status).toBe(400);
    }
    expect((await json(await buyer.get('/rest/v1/notifications'))).meta.numberOfUnread).toBe(1);
  });

  it('resets a chat notification’s counter where it is read; the next message starts again at 1', async () => {
    // The seeded pair: the message names the vendor.
    const { buyer, vendor } = await setup({ seeded: true });
    for (let i = 0; i < 3; i++) {
      publishTrade({
        type: 'trade.message',
        payload: message({ messageId: i, authorId: vendor.id, authorRole: 'seller', recipientIds: [buyer.id] }),
      });
    }
    await settled();
    let list = await json(await buyer.get('/rest/v1/notifications'));
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ type: 'trade_msg_received', count: 3, subtext: 'Unread messages: 3' });
    const id = list.data[0].id;
    const res = await buyer.post('/rest/v1/notifications/reset-counters', { ids: [id] });
    expect((await json(res)).data.updated).toBe(1);
    list = await json(await buyer.get('/rest/v1/notifications'));
    expect(list.data[0]).toMatchObject({ id, count: 0, isRead: true });
    publishTrade({
      type: 'trade.message',
      payload: message({ messageId: 9, authorId: vendor.id, authorRole: 'seller', recipientIds: [buyer.id] }),
    });
    await settled();
    list = await json(await buyer.get('/rest/v1/notifications'));
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ id, count: 1, isRead: false, message: 'New message from vendor' });
    // Another user's id resets nothing.
    expect((await json(await vendor.post('/rest/v1/notifications/reset-counters', { ids: [id] }))).data.updated).toBe(
      0,
    );
  });

  it('marks all read in one tab only, optionally narrowed by type', async () => {
    const { buyer, vendor } = await setup();
    await seed(buyer.id, 2, 'trade_paid');
    await seed(buyer.id, 2, 'moderator_message');
    await seed(vendor.id, 1, 'trade_paid');
    expect((await t.send('/rest/v1/notifications/all', { method: 'POST', json: {} })).status).toBe(401);
    expect((await buyer.post('/rest/v1/notifications/all', { name: 'elsewhere' })).status).toBe(400);
    const res = await buyer.post('/rest/v1/notifications/all', { name: 'moderators', types: ['moderator_message'] });
    expect(await json(res)).toEqual({
      data: { updated: 2 },
      meta: { name: 'moderators', unread: { inbox: 2, moderators: 0, total: 2 } },
    });
    const inbox = await json(await buyer.post('/rest/v1/notifications/all', {}));
    expect(inbox.meta.unread.total).toBe(0);
    // The vendor's own stay unread.
    expect((await json(await vendor.get('/rest/v1/notifications'))).meta.numberOfUnread).toBe(1);
  });
});

describe('events become notifications after their commit', () => {
  it('maps each trade action to who must hear of it, with active trades refreshed for both parties', async () => {
    const { buyer, vendor, live, sql } = await setup();
    const moderator = await (await createUser(t, { role: 'moderator' })).session();
    const buyerLive = live(buyer.publicId);
    const base = { buyerId: buyer.id, sellerId: vendor.id };
    publishTrade({ type: 'trade.changed', payload: trade({ ...base, action: 'paid', actorRole: 'buyer' }) });
    publishTrade({
      type: 'trade.changed',
      payload: trade({ ...base, action: 'released', actorId: vendor.id, actorRole: 'seller' }),
    });
    publishTrade({ type: 'trade.changed', payload: trade({ ...base, action: 'disputed', actorRole: 'buyer' }) });
    publishTrade({
      type: 'trade.changed',
      payload: trade({ ...base, action: 'expired', actorId: null, actorRole: 'system' }),
    });
    publishTrade({
      type: 'trade.changed',
      payload: trade({ ...base, action: 'cancelled', actorId: moderator.id, actorRole: 'moderator' }),
    });
    publishTrade({
      type: 'trade.changed',
      payload: trade({ ...base, action: 'reopened', actorId: moderator.id, actorRole: 'moderator' }),
    });
    publishTrade({
      type: 'trade.feedback',
      payload: {
        tradeHash: 'Tr4deHash01',
        fromId: vendor.id,
        toId: buyer.id,
        fromUsername: 'vendor',
        rating: 'positive',
        link: '/trade/Tr4deHash01',
        at: 1,
      },
    });
    bus.publish('verification', {
      type: 'verification.reviewed',
      payload: {
        userId: buyer.id,
        userPublicId: buyer.publicId,
        kind: 'id',
        decision: 'rejected',
        reason: 'Blurry photo',
      },
    });
    await settled();
    const types = (rows: { user_id: number }[]) => rows;
    const rows = types(await sql.all<any>('SELECT user_id, type, tab, message_tk FROM notifications ORDER BY id')).map(
      (r: any) =>
        `${r.user_id === buyer.id ? 'buyer' : r.user_id === vendor.id ? 'vendor' : 'mod'} ${r.type} ${r.tab} ${r.message_tk.split('.').at(-1)}`,
    );
    expect(rows).toEqual([
      'vendor trade_paid inbox trade_paid',
      'buyer trade_released inbox trade_released',
      'vendor trade_disputed inbox trade_disputed',
      ...(
        await sql.all("SELECT id FROM users WHERE role IN ('moderator','admin') AND status = 'active' ORDER BY id")
      ).map(() => 'mod trade_disputed inbox trade_disputed'),
      'buyer trade_cancelled inbox trade_expired',
      'vendor trade_cancelled inbox trade_expired',
      'buyer trade_pushed_by_mod moderators trade_pushed_by_mod',
      'vendor trade_pushed_by_mod moderators trade_pushed_by_mod',
      'buyer trade_reopened_by_moderator moderators trade_reopened_by_moderator',
      'vendor trade_reopened_by_moderator moderators trade_reopened_by_moderator',
      'buyer feedback_received inbox feedback_positive',
      'buyer verification_reviewed inbox verification_rejected',
    ]);
    // Every trade change also refreshes the active trades, which is never stored.
    const refreshes = buyerLive.filter((e) => (e.payload as any).type === 'system:active_trades_updated');
    expect(refreshes).toHaveLength(6);
    expect(refreshes[0]).toEqual({
      type: 'notification',
      payload: { type: 'system:active_trades_updated', link: '/trade/Tr4deHash01' },
    });
    const pushed = buyerLive.find((e) => (e.payload as any).type === 'trade_released');
    expect(pushed?.payload).toMatchObject({ message: 'vendor released the crypto to you', isRead: false });
  });

  it('groups attachments per trade and kind, and skips the chat’s system lines and the author', async () => {
    const { buyer, vendor, sql } = await setup();
    const chat = (over: Partial<TradeMessagePayload>) =>
      publishTrade({ type: 'trade.message', payload: message({ recipientIds: [buyer.id, vendor.id], ...over }) });
    chat({ authorId: vendor.id, authorRole: 'seller', hasAttachment: true });
    chat({ authorId: vendor.id, authorRole: 'seller', hasAttachment: true });
    chat({ authorId: null, authorRole: 'moderator', hasAttachment: true });
    chat({ authorId: null, authorRole: 'system' });
    chat({ authorId: vendor.id, authorRole: 'seller', tradeHash: 'OtherTrade1', link: '/trade/OtherTrade1' });
    await settled();
    const rows = await sql.all<any>('SELECT user_id, type, count, link FROM notifications ORDER BY id');
    expect(rows.map((r) => [r.user_id === buyer.id ? 'buyer' : 'vendor', r.type, r.count, r.link])).toEqual([
      ['buyer', 'trade_attach_uploaded', 2, '/trade/Tr4deHash01'],
      ['buyer', 'trade_attach_uploaded_by_moderator', 1, '/trade/Tr4deHash01'],
      ['vendor', 'trade_attach_uploaded_by_moderator', 1, '/trade/Tr4deHash01'],
      ['buyer', 'trade_msg_received', 1, '/trade/OtherTrade1'],
    ]);
  });

  it('tells the owner of a sign-in from a new device', async () => {
    const { buyer } = await setup();
    const login = (userAgent: string) =>
      t.send('/rest/v1/auth/login', {
        method: 'POST',
        headers: { 'user-agent': userAgent },
        json: { email: buyer.email, password: 'Coinfair-demo-2026!' },
      });
    expect((await login('Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0')).status).toBe(200);
    expect((await login('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Version/17.0 Safari/605.1.15')).status).toBe(200);
    await settled();
    const list = await json(await buyer.get('/rest/v1/notifications'));
    expect(list.data.map((n: any) => [n.type, n.link, n.message])).toContainEqual([
      'device_review',
      '/settings#devices',
      'New sign-in to your account',
    ]);
  });
});

describe('deliveries', () => {
  async function linkTelegram(userId: number, chatId: string) {
    await t.db.sql.run(
      'INSERT INTO user_settings (user_id, updated_at, telegram_chat_id) VALUES (?, 0, ?) ON CONFLICT(user_id) DO UPDATE SET telegram_chat_id = excluded.telegram_chat_id',
      [userId, chatId],
    );
  }

  it('sends each notification to a linked Telegram chat once, across a restart', async () => {
    const { buyer, vendor } = await setup();
    await linkTelegram(vendor.id, '4242');
    publishTrade({ type: 'trade.changed', payload: trade({ buyerId: buyer.id, sellerId: vendor.id }) });
    await settled();
    const bot = t.services.telegramBot;
    expect(await t.services.notificationDeliveries.runOnce()).toBe(1);
    expect(bot.sent.at(-1)).toEqual({
      chatId: '4242',
      text: 'buyer started a trade with you\n150.00 EUR for 0.00170000 BTC\nhttp://localhost/trade/Tr4deHash01',
    });
    // A second pass, and a new process over the same database, find nothing left to send.
    expect(await t.services.notificationDeliveries.runOnce()).toBe(0);
    const sent: string[] = [];
    const restarted = createDeliveryJob({
      repo: createNotificationsRepository(t.db),
      mailer: { send: async () => {} },
      sms: { send: async () => {} },
      telegram: { sendMessage: async (_chat, text) => void sent.push(text) },
      now: () => t.clock.now,
      log: () => {},
      siteOrigin: t.services.siteOrigin,
    });
    expect(await restarted.runOnce()).toBe(0);
    expect(sent).toEqual([]);
  });

  it('keeps pending rows through a restart, and never resends one a crash cut short', async () => {
    const { buyer, vendor, sql } = await setup();
    await linkTelegram(vendor.id, '77');
    publishTrade({ type: 'trade.changed', payload: trade({ buyerId: buyer.id, sellerId: vendor.id }) });
    publishTrade({
      type: 'trade.changed',
      payload: trade({ buyerId: buyer.id, sellerId: vendor.id, action: 'paid', tradeHash: 'Tr4deHash02' }),
    });
    // The first process claimed one row and died before finishing it.
    await settled();
    const [first] = await sql.all<{ id: number }>('SELECT id FROM notification_deliveries ORDER BY id');
    await sql.run('UPDATE notification_deliveries SET claimed_at = 1 WHERE id = ?', [first?.id]);
    const sent: string[] = [];
    const restarted = createDeliveryJob({
      repo: createNotificationsRepository(t.db),
      mailer: { send: async () => {} },
      sms: { send: async () => {} },
      telegram: { sendMessage: async (_chat, text) => void sent.push(text) },
      now: () => t.clock.now,
      log: () => {},
      siteOrigin: t.services.siteOrigin,
    });
    const stop = restarted.start(60_000);
    await stop();
    expect(sent).toEqual([
      'buyer marked the trade as paid\n150.00 EUR for 0.00170000 BTC\nhttp://localhost/trade/Tr4deHash01',
    ]);
    expect(await sql.all('SELECT outcome FROM notification_deliveries ORDER BY id')).toEqual([
      { outcome: 'interrupted' },
      { outcome: 'sent' },
    ]);
  });

  it('e-mails one digest of unread trade messages per interval, and none when they were read', async () => {
    // The seeded pair: the digest goes to the buyer's address and names the vendor.
    const { buyer, vendor, sql } = await setup({ seeded: true });
    await sql.run('UPDATE users SET is_email_verified = 1 WHERE id = ?', [buyer.id]);
    await sql.run('INSERT INTO user_settings (user_id, updated_at, notify_trade_messages_interval) VALUES (?, 0, 5)', [
      buyer.id,
    ]);
    // Said at the clock's time: stored before the clock moves on.
    const say = async (hash: string) => {
      publishTrade({
        type: 'trade.message',
        payload: message({
          tradeHash: hash,
          link: `/trade/${hash}`,
          authorId: vendor.id,
          authorRole: 'seller',
          recipientIds: [buyer.id],
        }),
      });
      await settled();
    };
    await say('TradeAAAAAA');
    t.clock.now += 60_000;
    await say('TradeBBBBBB');
    await say('TradeBBBBBB');
    const job = t.services.notificationDeliveries;
    expect(await job.runOnce()).toBe(0);
    expect(t.sent).toEqual([]);
    t.clock.now += 4 * 60_000;
    expect(await job.runOnce()).toBe(1);
    expect(t.sent).toHaveLength(1);
    expect(t.sent[0]?.to).toBe('buyer@example.com');
    expect(t.sent[0]?.subject).toBe('Unread messages in your trades');
    expect(t.sent[0]?.text).toContain(
      'New message from vendor (Unread messages: 2)\n  http://localhost/trade/TradeBBBBBB',
    );
    expect(t.sent[0]?.text).toContain('/trade/TradeAAAAAA');

    // The next digest waits for the interval after the last one; read before then, it is skipped.
    await say('TradeCCCCCC');
    t.clock.now += 4 * 60_000;
    expect(await job.runOnce()).toBe(0);
    await buyer.post('/rest/v1/notifications/all', {});
    t.clock.now += 2 * 60_000;
    expect(await job.runOnce()).toBe(1);
    expect(t.sent).toHaveLength(1);
    expect(await sql.all("SELECT outcome FROM notification_deliveries WHERE kind = 'digest' ORDER BY id")).toEqual([
      { outcome: 'sent' },
      { outcome: 'skipped' },
    ]);
  });

  it('texts an incoming trade only to a verified phone whose owner asked for it', async () => {
    const { buyer, vendor, sql } = await setup();
    await sql.run('INSERT INTO user_settings (user_id, updated_at, notify_sms_incoming_trade) VALUES (?, 0, 1)', [
      vendor.id,
    ]);
    await sql.run(
      "INSERT INTO phones (user_id, number, verified_at, codes_sent_at) VALUES (?, '+4915112345678', 1, '[]')",
      [vendor.id],
    );
    publishTrade({ type: 'trade.changed', payload: trade({ buyerId: buyer.id, sellerId: vendor.id }) });
    // The buyer asked for nothing: only the vendor's text.
    publishTrade({
      type: 'trade.changed',
      payload: trade({
        buyerId: buyer.id,
        sellerId: vendor.id,
        action: 'released',
        actorId: vendor.id,
        actorRole: 'seller',
      }),
    });
    await settled();
    await t.services.notificationDeliveries.runOnce();
    expect(t.sms).toEqual([
      {
        to: '+4915112345678',
        text: 'buyer started a trade with you\n150.00 EUR for 0.00170000 BTC\nhttp://localhost/trade/Tr4deHash01',
      },
    ]);
  });
});
