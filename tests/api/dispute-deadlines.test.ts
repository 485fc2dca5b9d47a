import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInProcessBus, type EventBus } from '../../server/realtime/bus.ts';
import { tradeChannel } from '../../server/realtime/channels.ts';
import { systemContext } from '../../server/services/context.ts';
import type { DisputeClocksView } from '../../src/lib/shared/views/trades.ts';
import { errorOf } from '../support/api-errors.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { type Browser, type TradeData, tradeFixtures } from '../support/trade-fixtures.ts';

// A dispute's deadlines (issue 24; docs/decisions/154 and 155): the counterpart's answer, a
// moderator's take and the decision, each met and missed; the ladder (every moderator, then the
// administrators); the job's runs are idempotent, also side by side; who may take; the trail rows
// the public statistics read; the notifications; the queue's order. The defaults: 12 h to answer,
// 4 h to take, 24 h to decide.

const HOUR = 3_600_000;
const ANSWER = 12 * HOUR;
const TAKE = 4 * HOUR;
const DECISION = 24 * HOUR;

let t: TestApp;
let bus: EventBus;
let f: ReturnType<typeof tradeFixtures>;
let vendor: Browser;
let buyer: Browser;
let moderator: Browser;
let admin: Browser;
let offer: Awaited<ReturnType<typeof f.createOffer>>;

type DisputeTrade = TradeData & { dispute: TradeData['dispute'] & DisputeClocksView };
const dataOf = async (res: Response) => ((await res.json()) as { data: DisputeTrade }).data;
const read = async (who: Browser, hash: string) => dataOf(await who.get(`/rest/v1/trade/${hash}`));
const take = (who: Browser, hash: string) => who.post(`/rest/v1/moderation/trades/${hash}/take`);
const run = () => t.services.trades.escalateDisputes(systemContext('disputes'));
const seconds = (ms: number) => Math.floor(ms / 1000);

/** A paid trade the buyer disputes now (DISPUTE_WAIT_MINUTES=0). */
async function disputed(): Promise<{ hash: string; openedAt: number }> {
  const trade = await f.startTrade(buyer, offer);
  await buyer.post(`/rest/v1/trade/${trade.hash}/paid`);
  const res = await buyer.post(`/rest/v1/trade/${trade.hash}/dispute`, {
    dispute_reason_id: 'paid_not_released',
    dispute_reason_text: 'I paid an hour ago.',
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return { hash: trade.hash, openedAt: t.clock.now };
}

/** The trail rows a dispute's clock wrote (the public statistics read these). */
const trail = (hash: string) =>
  t.db.sql.all<{
    action: string;
    fromStatus: string;
    toStatus: string;
    actorId: number | null;
    actorRole: string;
    note: string | null;
  }>(
    `SELECT tt.action, tt.from_status AS fromStatus, tt.to_status AS toStatus, tt.actor_id AS actorId,
       tt.actor_role AS actorRole, tt.note
     FROM trade_transitions tt JOIN trades tr ON tr.id = tt.trade_id
     WHERE tr.hash = ? AND tt.action IN ('dispute_taken', 'dispute_escalated') ORDER BY tt.id`,
    [hash],
  );

/** Each notification about a dispute's clock as `email key`, once the subscriber is done. */
async function told(hash: string): Promise<string[]> {
  await t.services.notificationsSettled();
  const rows = await t.db.sql.all<{ email: string; messageTk: string }>(
    `SELECT u.email, n.message_tk AS messageTk FROM notifications n JOIN users u ON u.id = n.user_id
     WHERE n.link = ? ORDER BY n.id`,
    [`/trade/${hash}`],
  );
  const prefix = 'notifications.msg.trade_dispute_';
  return rows
    .filter((r) => r.messageTk.startsWith(prefix))
    .map((r) => `${r.email} ${r.messageTk.slice(prefix.length)}`);
}

beforeEach(async () => {
  bus = createInProcessBus((error) => {
    throw error;
  });
  t = await createTestApp({ bus, config: { DISPUTE_WAIT_MINUTES: 0 } });
  f = tradeFixtures(t);
  ({ vendor, buyer } = await f.openMarket(1_000_000));
  moderator = await f.signedIn('moderator@example.com');
  admin = await f.signedIn('admin@example.com');
  offer = await f.createOffer(vendor);
});
afterEach(() => t?.close());

describe('a dispute’s clocks', () => {
  it('start when a party opens it: the other party answers, a moderator takes it; all three read them', async () => {
    const { hash, openedAt } = await disputed();
    const forBuyer = await read(buyer, hash);
    expect(forBuyer.dispute).toMatchObject({
      counterpart: 'vendor',
      answerDueAt: seconds(openedAt + ANSWER),
      answeredAt: null,
      answerMissed: false,
      takeDueAt: seconds(openedAt + TAKE),
      takenAt: null,
      moderator: null,
      decisionDueAt: null,
      escalationLevel: 0,
      clocks: [
        { step: 'answer', waitingOn: 'seller', username: 'vendor', dueAt: seconds(openedAt + ANSWER), overdue: false },
        { step: 'take', waitingOn: 'moderators', username: null, dueAt: seconds(openedAt + TAKE), overdue: false },
      ],
    });
    expect(forBuyer.actions).toMatchObject({ take: false, resolve: false });
    expect((await read(vendor, hash)).dispute.clocks).toEqual(forBuyer.dispute.clocks);
    const forModerator = await read(moderator, hash);
    expect(forModerator.dispute.clocks).toEqual(forBuyer.dispute.clocks);
    expect(forModerator.actions).toMatchObject({ take: true, resolve: true });
  });

  it('the counterpart’s answer in time stops their clock; nobody is reminded', async () => {
    const { hash } = await disputed();
    t.clock.now += HOUR;
    await vendor.post(`/rest/v1/trade/${hash}/messages`, { text: 'I have not received anything yet.' });
    const seen = await read(moderator, hash);
    expect(seen.dispute.answeredAt).toBe(seconds(t.clock.now));
    expect(seen.dispute.clocks.map((c) => c.step)).toEqual(['take']);
    // A moderator takes it, so only the answer's deadline could pass; it was met.
    expect((await take(moderator, hash)).status).toBe(200);
    t.clock.now += ANSWER;
    expect(await run()).toEqual({ answersMissed: 0, escalated: 0 });
    expect((await read(moderator, hash)).dispute.answerMissed).toBe(false);
    expect(await told(hash)).toEqual(['buyer@example.com taken', 'vendor@example.com taken']);
  });

  it('a missed answer is noted once: the moderator sees it, the counterpart is reminded, nothing escalates', async () => {
    const { hash } = await disputed();
    await take(moderator, hash);
    // The buyer's own lines are no answer: the seller must write.
    await buyer.post(`/rest/v1/trade/${hash}/messages`, { text: 'Still waiting for the coins.' });
    t.clock.now += ANSWER - 1;
    expect(await run()).toEqual({ answersMissed: 0, escalated: 0 });
    t.clock.now += 1;
    expect(await run()).toEqual({ answersMissed: 1, escalated: 0 });
    expect(await run()).toEqual({ answersMissed: 0, escalated: 0 });
    const seen = await read(moderator, hash);
    expect(seen.dispute).toMatchObject({ answerMissed: true, answeredAt: null, escalationLevel: 0 });
    expect(seen.dispute.clocks[0]).toMatchObject({ step: 'answer', waitingOn: 'seller', overdue: true });
    const lines = (await (await moderator.get(`/rest/v1/trade/${hash}/messages`)).json()).data as { text: string }[];
    expect(lines.map((l) => l.text)).toContain('trade.system.dispute_answer_missed');
    expect(await told(hash)).toEqual([
      'buyer@example.com taken',
      'vendor@example.com taken',
      'vendor@example.com answer_missed',
    ]);
    // A late answer still counts as an answer; the miss stays on record.
    t.clock.now += HOUR;
    await vendor.post(`/rest/v1/trade/${hash}/messages`, { text: 'Sorry, I was travelling.' });
    expect((await read(moderator, hash)).dispute).toMatchObject({
      answerMissed: true,
      answeredAt: seconds(t.clock.now),
    });
  });
});

describe('POST /rest/v1/moderation/trades/{id}/take', () => {
  it('assigns the dispute to the moderator, in the trail, with its decision deadline; the parties are told', async () => {
    const { hash } = await disputed();
    t.clock.now += HOUR;
    const taken = await dataOf(await take(moderator, hash));
    expect(taken.dispute).toMatchObject({
      moderator: 'moderator',
      takenAt: seconds(t.clock.now),
      decisionDueAt: seconds(t.clock.now + DECISION),
    });
    expect(taken.dispute.clocks.map((c) => [c.step, c.waitingOn, c.username])).toEqual([
      ['answer', 'seller', 'vendor'],
      ['decision', 'moderator', 'moderator'],
    ]);
    expect(taken.actions).toMatchObject({ take: false, resolve: true });
    // A second click changes nothing.
    expect((await take(moderator, hash)).status).toBe(200);
    const moderatorId = await f.userId('moderator@example.com');
    expect(await trail(hash)).toEqual([
      {
        action: 'dispute_taken',
        fromStatus: 'dispute_open',
        toStatus: 'dispute_open',
        actorId: moderatorId,
        actorRole: 'moderator',
        note: '0',
      },
    ]);
    expect((await read(buyer, hash)).dispute.moderator).toBe('moderator');
    expect(await told(hash)).toEqual(['buyer@example.com taken', 'vendor@example.com taken']);
  });

  it('is refused to anyone but staff, on a trade not in dispute, and once another moderator has it', async () => {
    const { hash } = await disputed();
    for (const who of [buyer, vendor, await f.signedIn('affiliate@example.com')]) {
      const res = await take(who, hash);
      expect(res.status).toBe(404);
    }
    expect((await t.send(`/rest/v1/moderation/trades/${hash}/take`, { method: 'POST' })).status).toBe(401);
    const paid = await f.startTrade(buyer, offer);
    await buyer.post(`/rest/v1/trade/${paid.hash}/paid`);
    const notOpen = await take(moderator, paid.hash);
    expect(notOpen.status).toBe(409);
    expect(await errorOf(notOpen)).toMatchObject({
      code: 'TRADE_STATE_CHANGED',
      message: 'Only an open dispute can be taken.',
    });
    expect((await take(moderator, 'nosuchtrade1')).status).toBe(404);

    // A second moderator finds it taken: they may neither take nor decide it; an administrator may decide.
    await f.sql("UPDATE users SET role = 'moderator' WHERE email = 'affiliate@example.com'");
    const other = await f.signedIn('affiliate@example.com');
    expect((await take(moderator, hash)).status).toBe(200);
    const second = await take(other, hash);
    expect(second.status).toBe(409);
    expect(await errorOf(second)).toMatchObject({ message: 'Another moderator took this dispute.' });
    expect((await read(other, hash)).actions).toMatchObject({ take: false, resolve: false });
    const decide = await other.post(`/rest/v1/moderation/trades/${hash}/resolve`, { winner: 'buyer' });
    expect(decide.status).toBe(403);
    expect((await read(other, hash)).status).toBe('dispute_open');
    const byAdmin = await admin.post(`/rest/v1/moderation/trades/${hash}/resolve`, { winner: 'seller' });
    expect((await dataOf(byAdmin)).status).toBe('dispute_won_seller');
    expect((await take(moderator, hash)).status).toBe(409);
  });

  it('refuses requests without the CSRF token', async () => {
    const { hash } = await disputed();
    const cookie = [...moderator.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await t.send(`/rest/v1/moderation/trades/${hash}/take`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': 'B'.repeat(43) },
    });
    expect(res.status).toBe(403);
    expect((await read(moderator, hash)).dispute.moderator).toBeNull();
  });
});

describe('the ladder', () => {
  it('an untaken dispute goes to every moderator, then, taken and left, to the administrators', async () => {
    const { hash, openedAt } = await disputed();
    t.clock.now = openedAt + TAKE - 1;
    expect(await run()).toEqual({ answersMissed: 0, escalated: 0 });
    t.clock.now = openedAt + TAKE;
    expect(await run()).toEqual({ answersMissed: 0, escalated: 1 });
    expect(await run()).toEqual({ answersMissed: 0, escalated: 0 });
    const first = await read(buyer, hash);
    expect(first.dispute).toMatchObject({
      escalationLevel: 1,
      takeDueAt: seconds(t.clock.now + TAKE),
      moderator: null,
    });
    expect(first.dispute.clocks.at(-1)).toMatchObject({ step: 'take', waitingOn: 'moderators', overdue: false });
    expect(await told(hash)).toEqual([
      'buyer@example.com escalated_moderators',
      'vendor@example.com escalated_moderators',
      'admin@example.com overdue',
      'moderator@example.com overdue',
    ]);

    // The moderator takes it at level 1 and lets the decision's deadline pass.
    t.clock.now += HOUR;
    await take(moderator, hash);
    t.clock.now += DECISION;
    expect(await run()).toMatchObject({ escalated: 1 });
    expect(await run()).toMatchObject({ escalated: 0 });
    const second = await read(admin, hash);
    expect(second.dispute).toMatchObject({ escalationLevel: 2, moderator: null, takenAt: null, decisionDueAt: null });
    expect(second.dispute.clocks.at(-1)).toMatchObject({ step: 'take', waitingOn: 'administrators' });
    expect(second.actions).toMatchObject({ take: true, resolve: true });
    // The seller never wrote: the answer's deadline passed too, in the same run.
    expect((await told(hash)).slice(6)).toEqual([
      'vendor@example.com answer_missed',
      'buyer@example.com escalated_admins',
      'vendor@example.com escalated_admins',
      'moderator@example.com unassigned',
      'admin@example.com overdue',
    ]);

    // Now for the administrators only.
    expect((await read(moderator, hash)).actions).toMatchObject({ take: false, resolve: false });
    const refused = await take(moderator, hash);
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toMatchObject({ message: 'This dispute was escalated to the administrators.' });
    expect((await moderator.post(`/rest/v1/moderation/trades/${hash}/resolve`, { winner: 'buyer' })).status).toBe(403);
    expect((await take(admin, hash)).status).toBe(200);
    // The top of the ladder: a missed deadline there shows overdue and escalates no further.
    t.clock.now += DECISION;
    expect(await run()).toMatchObject({ escalated: 0 });
    const top = await read(buyer, hash);
    expect(top.dispute.escalationLevel).toBe(2);
    expect(top.dispute.clocks.at(-1)).toMatchObject({ step: 'decision', username: 'admin', overdue: true });

    const moderatorId = await f.userId('moderator@example.com');
    const adminId = await f.userId('admin@example.com');
    const system = { fromStatus: 'dispute_open', toStatus: 'dispute_open', actorId: null, actorRole: 'system' };
    const staff = { fromStatus: 'dispute_open', toStatus: 'dispute_open', actorRole: 'moderator' };
    expect(await trail(hash)).toEqual([
      { action: 'dispute_escalated', ...system, note: '1' },
      { action: 'dispute_taken', ...staff, actorId: moderatorId, note: '1' },
      { action: 'dispute_escalated', ...system, note: '2' },
      { action: 'dispute_taken', ...staff, actorId: adminId, note: '2' },
    ]);
    const lines = (await (await buyer.get(`/rest/v1/trade/${hash}/messages`)).json()).data as { text: string }[];
    expect(lines.map((l) => l.text).filter((text) => text.includes('dispute_'))).toEqual([
      'trade.system.dispute_open',
      'trade.system.dispute_escalated_1',
      'trade.system.dispute_taken',
      'trade.system.dispute_answer_missed',
      'trade.system.dispute_escalated_2',
      'trade.system.dispute_taken',
    ]);
  });

  it('a decision in time ends the clocks: nothing escalates later', async () => {
    const { hash } = await disputed();
    await take(moderator, hash);
    t.clock.now += DECISION - HOUR;
    const decided = await dataOf(
      await moderator.post(`/rest/v1/moderation/trades/${hash}/resolve`, { winner: 'buyer' }),
    );
    expect(decided.status).toBe('dispute_won_buyer');
    expect(decided.dispute.clocks).toEqual([]);
    expect(decided.dispute.escalationLevel).toBe(0);
    t.clock.now += 2 * DECISION;
    expect(await run()).toEqual({ answersMissed: 0, escalated: 0 });
    expect((await trail(hash)).map((r) => r.action)).toEqual(['dispute_taken']);
  });

  it('two runs side by side escalate a dispute once and tell everyone once', async () => {
    const { hash } = await disputed();
    t.clock.now += ANSWER;
    const results = await Promise.all([run(), run(), run()]);
    expect(results.reduce((sum, r) => sum + r.escalated, 0)).toBe(1);
    expect(results.reduce((sum, r) => sum + r.answersMissed, 0)).toBe(1);
    expect((await trail(hash)).map((r) => r.note)).toEqual(['1']);
    const heard = await told(hash);
    expect(heard.filter((line) => line === 'vendor@example.com answer_missed')).toHaveLength(1);
    expect(heard.filter((line) => line === 'buyer@example.com escalated_moderators')).toHaveLength(1);
  });

  it('the page hears each change of the clock on the trade’s channel', async () => {
    const { hash } = await disputed();
    const heard: string[] = [];
    bus.subscribe(tradeChannel(hash), (event) =>
      heard.push(`${event.type}:${(event.payload as { kind: string }).kind}`),
    );
    await take(moderator, hash);
    t.clock.now += ANSWER + DECISION;
    await run();
    expect(heard).toEqual(['dispute:taken', 'dispute:answer_missed', 'dispute:escalated']);
  });
});

describe('the moderators’ queue and reopened trades', () => {
  it('lists overdue and escalated disputes first, then by the nearest deadline', async () => {
    const older = await disputed();
    t.clock.now += HOUR;
    const newer = await disputed();
    t.clock.now += HOUR;
    const newest = await disputed();
    const queue = async () =>
      ((await (await moderator.get('/rest/v1/moderation/disputes')).json()).data as DisputeTrade[]).map((q) => q.hash);
    expect(await queue()).toEqual([older.hash, newer.hash, newest.hash]);
    // The newest is taken (its deadline moves a day out); the oldest passes its take deadline.
    await take(moderator, newest.hash);
    t.clock.now = older.openedAt + TAKE;
    expect(await queue()).toEqual([older.hash, newer.hash, newest.hash]);
    await run();
    // Escalated, the oldest got a fresh deadline: still first, as level 1 leads.
    expect(await queue()).toEqual([older.hash, newer.hash, newest.hash]);
    t.clock.now = newer.openedAt + TAKE;
    // Overdue now and not yet escalated: the middle one leads.
    expect(await queue()).toEqual([newer.hash, older.hash, newest.hash]);
  });

  it('a moderator’s reopening is theirs at once: no counterpart clock, the decision’s running', async () => {
    const trade = await f.startTrade(buyer, offer);
    await buyer.post(`/rest/v1/trade/${trade.hash}/cancel`);
    t.clock.now += HOUR;
    const reopened = await dataOf(await moderator.post(`/rest/v1/moderation/trades/${trade.hash}/reopen`));
    expect(reopened.dispute).toMatchObject({
      counterpart: null,
      answerDueAt: null,
      moderator: 'moderator',
      takenAt: seconds(t.clock.now),
      decisionDueAt: seconds(t.clock.now + DECISION),
      escalationLevel: 0,
      clocks: [{ step: 'decision', waitingOn: 'moderator', username: 'moderator', overdue: false }],
    });
    // The reopening's own row names the moderator: no take row follows it (decision 162's statistics).
    expect(await trail(trade.hash)).toEqual([]);
  });
});
