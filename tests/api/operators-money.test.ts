import { afterEach, describe, expect, it } from 'vitest';
import { ledgerCommands } from '../../server/admin/ledger-commands.ts';
import { verifyLedger } from '../../server/services/ledger/invariants.ts';
import { errorOf } from '../support/api-errors.ts';
import { signedInSession } from '../support/browser-session.ts';
import { auditRowsOf, OPERATORS, operatorWithFactor, post } from '../support/operators.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { tradeFixtures } from '../support/trade-fixtures.ts';
import { createUser } from '../support/users.ts';

// The operator console's API on money (issue 25, "Act"): a trade with its trail, ledger and chat;
// sendouts waiting and failed, retried and cancelled; the ledger's verification and its last
// result; the fee income per day and payment-method group. On both engines; the ledger's
// invariants hold after each test.

let t: TestApp;
afterEach(async () => {
  if (!t) return;
  expect(await verifyLedger(t.db)).toEqual([]);
  await t.close();
});

const json = async (res: Response) => (await res.json()) as { data: any; meta?: any };
const BTC_ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

describe('a trade looked up', () => {
  it('shows the terms, the whole trail, the ledger it posted, the chat with moderators’ lines, and the fee income', async () => {
    t = await createTestApp();
    const f = tradeFixtures(t);
    const admin = await operatorWithFactor(t);
    const { vendor, buyer } = await f.openMarket(50_000_000);
    const offer = await f.createOffer(vendor);
    const trade = await f.completedTrade(buyer, vendor, offer, '100');
    const tradeRow = await t.db.sql.get<{ id: number }>('SELECT id FROM trades WHERE hash = ?', [trade.hash]);
    const moderatorId = await f.userId('moderator@example.com');
    await f.sql(
      `INSERT INTO trade_messages (trade_id, author_id, author_role, body, is_for_moderator, created_at)
       VALUES (?, ?, 'moderator', 'Only for the team', 1, ?)`,
      tradeRow?.id,
      moderatorId,
      t.clock.now,
    );

    const moderator = await signedInSession(t, 'moderator@example.com');
    const res = await moderator.get(`${OPERATORS}/trades/${trade.hash}`);
    expect(res.status, await res.clone().text()).toBe(200);
    const { data } = await json(res);
    expect(data.trade).toMatchObject({ hash: trade.hash, status: 'released', buyer: { username: 'buyer' } });
    expect(data.transitions.map((x: { toStatus: string }) => x.toStatus)).toEqual([
      'active_funded',
      'paid',
      'released',
    ]);
    expect(data.ledger.map((x: { kind: string }) => x.kind)).toEqual(['escrow_lock', 'escrow_release']);
    const release = data.ledger[1];
    const fee = release.postings.find((p: { account: string }) => p.account === 'fee_income');
    expect(fee.minor).toBeGreaterThan(0);
    expect(data.chat).toEqual(
      expect.arrayContaining([expect.objectContaining({ body: 'Only for the team', isForModerator: true })]),
    );
    expect((await admin.browser.get(`${OPERATORS}/trades/${trade.hash}`)).status).toBe(200);
    expect((await buyer.get(`${OPERATORS}/trades/${trade.hash}`)).status).toBe(403);
    const unknown = await moderator.get(`${OPERATORS}/trades/ZZZZZZZZZZZ`);
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toMatchObject({ code: 'NOT_FOUND', field: 'id' });

    // The fee is the day's income in the offer's payment-method group.
    const day = new Date(t.clock.now).toISOString().slice(0, 10);
    const fees = (await json(await admin.browser.get(`${OPERATORS}/fees?from=${day}&to=${day}`))).data;
    expect(fees.days).toEqual([
      { date: day, group: data.trade.paymentGroup, minor: fee.minor, amount: fee.amount, currency: 'BTC' },
    ]);
    expect(fees.totals[0]).toMatchObject({ currency: 'BTC', minor: fee.minor });
    expect(fees.groups).toEqual(expect.arrayContaining([expect.objectContaining({ slug: data.trade.paymentGroup })]));
    const before = (await json(await admin.browser.get(`${OPERATORS}/fees?from=2025-01-01&to=2025-01-31`))).data;
    expect(before.days).toEqual([]);
    expect((await moderator.get(`${OPERATORS}/fees`)).status).toBe(403);
  });

  it('refuses bad fee ranges, naming the field', async () => {
    t = await createTestApp();
    const admin = await operatorWithFactor(t);
    for (const [query, field] of [
      ['from=2026-13-01&to=2026-11-02', 'from'],
      ['from=2026-11-02&to=2026-11-01', 'to'],
      ['from=2024-01-01&to=2026-01-01', 'from'],
      ['from=yesterday', 'from'],
    ] as const) {
      const res = await admin.browser.get(`${OPERATORS}/fees?${query}`);
      expect(res.status, query).toBe(400);
      expect(await errorOf(res)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field });
    }
  });
});

describe('sendouts', () => {
  async function setup() {
    t = await createTestApp();
    const admin = await operatorWithFactor(t);
    const person = await createUser(t, { funded: { BTC: 10_000_000 } });
    const b = await person.signIn();
    const sent = await b.post('/rest/v1/wallet/send', {
      currency: 'BTC',
      address: BTC_ADDRESS,
      amount: '0.005',
      request_id: 'operators-1',
    });
    expect(sent.status, await sent.clone().text()).toBe(201);
    const row = await t.db.sql.get<{ id: string }>(
      "SELECT public_id AS id FROM chain_transactions WHERE direction = 'out' ORDER BY id DESC",
    );
    const balance = async () =>
      (
        await t.db.sql.get<{ b: number }>(
          "SELECT balance AS b FROM ledger_accounts WHERE owner_id = ? AND kind = 'user_wallet' AND currency = 'BTC'",
          [person.id],
        )
      )?.b;
    const claim = (ago: number) =>
      t.db.sql.run('UPDATE chain_transactions SET broadcast_started_at = ? WHERE public_id = ?', [
        t.clock.now - ago,
        row?.id,
      ]);
    return { admin, person, id: row?.id as string, balance, claim };
  }

  it('lists the waiting one; retries a stuck broadcast; refuses one in flight or not yet tried', async () => {
    const { admin, id, claim } = await setup();
    const waiting = (await json(await admin.browser.get(`${OPERATORS}/sendouts?list=waiting`))).data;
    expect(waiting).toEqual([
      expect.objectContaining({ id, status: 'pending', broadcast: 'unclaimed', minor: 500_000 }),
    ]);
    expect((await json(await admin.browser.get(`${OPERATORS}/sendouts?list=failed`))).data).toEqual([]);

    const early = await post(admin.browser, `/sendouts/${id}/retry`, { reason: 'Node restarted', code: admin.code() });
    expect(early.status).toBe(409);
    expect(await errorOf(early)).toMatchObject({ code: 'SENDOUT_STATE_CONFLICT' });
    await claim(60_000);
    expect((await post(admin.browser, `/sendouts/${id}/cancel`, { reason: 'x', code: admin.code() })).status).toBe(409);
    await claim(11 * 60_000);
    const retried = await post(admin.browser, `/sendouts/${id}/retry`, {
      reason: 'Node restarted',
      code: admin.code(),
    });
    expect(retried.status, await retried.clone().text()).toBe(200);
    expect((await json(retried)).data).toMatchObject({
      id,
      status: 'pending',
      broadcast: 'unclaimed',
      broadcastStartedAt: null,
    });
    expect((await auditRowsOf(t, id)).map((row) => [row.action, row.outcome, row.reason])).toEqual([
      ['sendout.retry', 'done', 'Node restarted'],
    ]);
  });

  it('cancels a waiting sendout: the amount and fee go back to the wallet through the ledger, once', async () => {
    const { admin, id, balance } = await setup();
    expect(await balance()).toBeLessThan(10_000_000);
    const res = await post(admin.browser, `/sendouts/${id}/cancel`, {
      reason: 'Address on a sanctions list',
      code: admin.code(),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await json(res)).data).toMatchObject({
      id,
      status: 'failed',
      failureReason: 'cancelled by an operator: Address on a sanctions list',
    });
    expect(await balance()).toBe(10_000_000);
    const returned = await t.db.sql.get<{ n: number }>(
      "SELECT count(*) AS n FROM ledger_transactions WHERE kind = 'sendout_return'",
    );
    expect(Number(returned?.n)).toBe(1);
    expect((await json(await admin.browser.get(`${OPERATORS}/sendouts?list=failed`))).data).toEqual([
      expect.objectContaining({ id, status: 'failed' }),
    ]);
    const again = await post(admin.browser, `/sendouts/${id}/cancel`, { reason: 'again', code: admin.code() });
    expect(again.status).toBe(409);
    expect(await balance()).toBe(10_000_000);
    expect((await auditRowsOf(t, id)).map((row) => row.action)).toEqual(['sendout.cancel']);
  });

  it('needs a reason, the second factor and an administrator; an unknown sendout is 404', async () => {
    const { admin, id, balance } = await setup();
    const held = await balance();
    const noReason = await post(admin.browser, `/sendouts/${id}/cancel`, { code: admin.code() });
    expect(await errorOf(noReason)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'reason' });
    const noCode = await post(admin.browser, `/sendouts/${id}/cancel`, { reason: 'Checks' });
    expect(noCode.status).toBe(401);
    expect(await errorOf(noCode)).toMatchObject({ code: 'TWO_FACTOR_REQUIRED' });
    const unknown = await post(admin.browser, '/sendouts/chn_AAAAAAAAAAAAAAAA/cancel', {
      reason: 'x',
      code: admin.code(),
    });
    expect(unknown.status).toBe(404);
    const moderator = await operatorWithFactor(t, 'moderator@example.com');
    expect((await moderator.browser.get(`${OPERATORS}/sendouts`)).status).toBe(403);
    const byModerator = await post(moderator.browser, `/sendouts/${id}/cancel`, {
      reason: 'x',
      code: moderator.code(),
    });
    expect(byModerator.status).toBe(403);
    expect(await balance()).toBe(held);
    expect((await auditRowsOf(t, id)).map((row) => [row.action, row.outcome])).toEqual([['sendout.cancel', 'refused']]);
  });
});

describe('the ledger verified', () => {
  it('runs ledger:verify on demand, keeps the last result, and shows the CLI’s runs too', async () => {
    t = await createTestApp();
    const admin = await operatorWithFactor(t);
    await createUser(t, { funded: { BTC: 20_000, USDT: 5_000_000 } });
    expect((await json(await admin.browser.get(`${OPERATORS}/ledger/verification`))).data).toBeNull();
    const run = await post(admin.browser, '/ledger/verify', {}, 'req-ledger-1');
    expect(run.status).toBe(200);
    const result = (await json(run)).data;
    expect(result).toMatchObject({ ok: true, violations: [], by: { type: 'user', name: 'admin' } });
    expect(result.transactions).toBeGreaterThanOrEqual(2);
    expect(result.owed).toEqual({ BTC: 20_000, USDT: 5_000_000 });
    expect((await json(await admin.browser.get(`${OPERATORS}/ledger/verification`))).data).toEqual(result);
    expect((await auditRowsOf(t, null)).map((row) => [row.action, row.requestId])).toEqual([
      ['ledger.verify', 'req-ledger-1'],
    ]);

    await ledgerCommands(t.db, { now: () => t.clock.now }).verify();
    const last = (await json(await admin.browser.get(`${OPERATORS}/ledger/verification`))).data;
    expect(last).toMatchObject({ ok: true, by: { type: 'cli', id: null } });
    const moderator = await signedInSession(t, 'moderator@example.com');
    expect((await moderator.post(`${OPERATORS}/ledger/verify`, {})).status).toBe(403);
  });
});
