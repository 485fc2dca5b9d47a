import { afterEach, describe, expect, it } from 'vitest';
import { ledgerCommands } from '../../server/admin/ledger-commands.ts';
import { CommandError } from '../../server/admin/user-commands.ts';
import { statusOf } from '../../server/http/errors.ts';
import { type BusEvent, createInProcessBus } from '../../server/realtime/bus.ts';
import { immediate, type ServiceContext } from '../../server/services/context.ts';
import { AppError } from '../../server/services/errors.ts';
import { verifyLedger } from '../../server/services/ledger/invariants.ts';
import {
  escrowOf,
  LEDGER_CHANNEL,
  type PostInput,
  systemAccount,
  walletOf,
} from '../../server/services/ledger/ledger.ts';
import { createTestApp, TEST_NOW, type TestApp } from '../support/test-app.ts';

// The ledger service over a fresh database: each operation, each refusal, and that a refusal
// writes nothing. verifyLedger runs after every test.

let app: TestApp;
afterEach(async () => {
  if (!app) return;
  expect(await verifyLedger(app.db)).toEqual([]);
  await app.close();
});

const system: ServiceContext = { actor: { type: 'system', name: 'test' }, requestId: 'req-1' };

async function setup() {
  const bus = createInProcessBus((error) => {
    throw error;
  });
  const events: BusEvent[] = [];
  bus.subscribe(LEDGER_CHANNEL, (event) => events.push(event));
  app = await createTestApp({ bus });
  const { ledger } = app.services;
  const sql = app.db.sql;
  const [alice, bob, carol] = (await sql.all<{ id: number }>('SELECT id FROM users ORDER BY id LIMIT 3')).map(
    (row) => row.id,
  );
  const count = async (table: string) => (await sql.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))?.n;
  const snapshot = async () => ({
    transactions: await count('ledger_transactions'),
    postings: await count('ledger_postings'),
    accounts: await count('ledger_accounts'),
    audit: await count('ledger_audit'),
    balances: await sql.all('SELECT id, balance, resolved_at FROM ledger_accounts ORDER BY id'),
  });
  const deposit = (userId: number, amount: number, currency: 'BTC' | 'USDT' = 'BTC', key = `dep-${userId}-${amount}`) =>
    ledger.post(system, {
      kind: 'deposit',
      idempotencyKey: key,
      legs: [
        { account: systemAccount('chain_in', currency), amount: -amount },
        { account: walletOf(userId, currency), amount },
      ],
    });
  return {
    ledger,
    sql,
    events,
    alice: alice as number,
    bob: bob as number,
    carol: carol as number,
    snapshot,
    deposit,
  };
}

/** The AppError `fn`'s promise rejects with, for its code and fields. */
async function refusal(fn: () => Promise<unknown>): Promise<AppError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('ledger: posting', () => {
  it('posts a balanced deposit, creates the wallet on first use, audits it and announces it after commit', async () => {
    const { ledger, sql, events, alice, deposit } = await setup();
    expect(await ledger.balances(system, { userId: alice })).toEqual({ BTC: 0, USDT: 0 });
    const tx = await deposit(alice, 150_000);
    expect(tx).toMatchObject({
      id: expect.stringMatching(/^ltx_[0-9A-Za-z]{16}$/),
      kind: 'deposit',
      createdAt: TEST_NOW,
      replayed: false,
      postings: [
        { account: { kind: 'chain_in', currency: 'BTC' }, amount: -150_000 },
        { account: { kind: 'user_wallet', userId: alice, currency: 'BTC' }, amount: 150_000 },
      ],
    });
    expect(await ledger.balances(system, { userId: alice })).toEqual({ BTC: 150_000, USDT: 0 });
    expect((await ledger.account(system, systemAccount('chain_in', 'BTC')))?.balance).toBe(-150_000);
    expect(await sql.all('SELECT operation, actor_type, actor_name, request_id FROM ledger_audit')).toEqual([
      { operation: 'post', actor_type: 'system', actor_name: 'test', request_id: 'req-1' },
    ]);
    const publicId = (await sql.get<{ public_id: string }>('SELECT public_id FROM users WHERE id = ?', [alice]))
      ?.public_id;
    expect(events).toEqual([
      {
        type: 'ledger.posted',
        payload: {
          transactionId: tx.id,
          kind: 'deposit',
          userIds: [alice],
          userPublicIds: [publicId],
          wallets: [{ userId: alice, currency: 'BTC', amount: 150_000 }],
        },
      },
    ]);
  });

  it('moves two currencies through the conversion desk in one transaction', async () => {
    const { ledger, alice, deposit, events } = await setup();
    await deposit(alice, 1_000_000);
    const tx = await ledger.post(
      { actor: { type: 'user', userId: alice } },
      {
        kind: 'conversion',
        idempotencyKey: 'conv-1',
        legs: [
          { account: walletOf(alice, 'BTC'), amount: -1_000_000 },
          { account: systemAccount('conversion_desk', 'BTC'), amount: 1_000_000 },
          { account: systemAccount('conversion_desk', 'USDT'), amount: -900_000_000 },
          { account: walletOf(alice, 'USDT'), amount: 900_000_000 },
        ],
        memo: 'quote q_1',
        metadata: { quoteId: 'q_1' },
      },
    );
    expect(tx).toMatchObject({ kind: 'conversion', memo: 'quote q_1', metadata: { quoteId: 'q_1' } });
    expect(await ledger.balances(system, { userId: alice })).toEqual({ BTC: 0, USDT: 900_000_000 });
    expect((await ledger.account(system, systemAccount('conversion_desk', 'USDT')))?.balance).toBe(-900_000_000);
    expect(events.at(-1)?.payload).toMatchObject({ userIds: [alice] });
  });

  it.each<[string, Partial<PostInput>, string]>([
    [
      'legs that do not sum to zero',
      {
        legs: [
          { account: walletOf(1, 'BTC'), amount: 5 },
          { account: systemAccount('chain_in', 'BTC'), amount: -4 },
        ],
      },
      'legs',
    ],
    [
      'legs that sum to zero across currencies only',
      {
        legs: [
          { account: walletOf(1, 'BTC'), amount: 5 },
          { account: systemAccount('chain_in', 'USDT'), amount: -5 },
        ],
      },
      'legs',
    ],
    [
      'a fractional amount',
      {
        legs: [
          { account: walletOf(1, 'BTC'), amount: 0.5 },
          { account: systemAccount('chain_in', 'BTC'), amount: -0.5 },
        ],
      },
      'legs[0].amount',
    ],
    [
      'an amount as text',
      {
        legs: [
          { account: walletOf(1, 'BTC'), amount: '5' as never },
          { account: systemAccount('chain_in', 'BTC'), amount: -5 },
        ],
      },
      'legs[0].amount',
    ],
    [
      'a zero amount',
      {
        legs: [
          { account: walletOf(1, 'BTC'), amount: 0 },
          { account: systemAccount('chain_in', 'BTC'), amount: 0 },
        ],
      },
      'legs[0].amount',
    ],
    [
      'an amount beyond safe integers',
      {
        legs: [
          { account: walletOf(1, 'BTC'), amount: 2 ** 53 },
          { account: systemAccount('chain_in', 'BTC'), amount: -(2 ** 53) },
        ],
      },
      'legs[0].amount',
    ],
    ['one leg', { legs: [{ account: walletOf(1, 'BTC'), amount: 5 }] }, 'legs'],
    [
      'the same account twice',
      {
        legs: [
          { account: walletOf(1, 'BTC'), amount: 5 },
          { account: walletOf(1, 'BTC'), amount: -5 },
        ],
      },
      'legs[1].account',
    ],
    [
      'an unknown currency',
      {
        legs: [
          { account: walletOf(1, 'ETH' as never), amount: 5 },
          { account: systemAccount('chain_in', 'BTC'), amount: -5 },
        ],
      },
      'legs[0].account.currency',
    ],
    [
      'an escrow leg',
      {
        legs: [
          { account: escrowOf('trd_1', 'BTC'), amount: 5 },
          { account: systemAccount('chain_in', 'BTC'), amount: -5 },
        ],
      },
      'legs[0].account',
    ],
    ['an escrow kind', { kind: 'escrow_release' as never }, 'kind'],
    ['an empty idempotency key', { idempotencyKey: '' }, 'idempotencyKey'],
    ['metadata that is not an object', { metadata: ['x'] as never }, 'metadata'],
    ['a key with a control character', { idempotencyKey: 'a\nb' }, 'idempotencyKey'],
  ])('refuses %s, writing nothing', async (_name, change, field) => {
    const { ledger, alice, snapshot, deposit } = await setup();
    await deposit(alice, 10);
    const before = await snapshot();
    const input: PostInput = {
      kind: 'transfer',
      idempotencyKey: 'k',
      legs: [
        { account: walletOf(alice, 'BTC'), amount: -5 },
        { account: systemAccount('chain_out', 'BTC'), amount: 5 },
      ],
      ...change,
    };
    const error = await refusal(() => ledger.post(system, input));
    expect(error.code).toBe('ERROR_INPUT_VALIDATION');
    expect(error.details?.map((d) => d.field)).toContain(field);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses an unknown user, writing nothing', async () => {
    const { ledger, snapshot } = await setup();
    const before = await snapshot();
    const error = await refusal(() =>
      ledger.post(system, {
        kind: 'deposit',
        idempotencyKey: 'k',
        legs: [
          { account: systemAccount('chain_in', 'BTC'), amount: -5 },
          { account: walletOf(999_999, 'BTC'), amount: 5 },
        ],
      }),
    );
    expect(error.code).toBe('NOT_FOUND');
    // Not even the chain account the first leg would have created.
    expect(await snapshot()).toEqual(before);
  });

  it('refuses an overdraft with 409 INSUFFICIENT_FUNDS and writes nothing, then lets the same key pass once funded', async () => {
    const { ledger, alice, bob, snapshot, deposit, events } = await setup();
    await deposit(alice, 1_000);
    const before = await snapshot();
    const eventsBefore = events.length;
    const transfer = () =>
      ledger.post(
        { actor: { type: 'user', userId: alice } },
        {
          kind: 'transfer',
          idempotencyKey: 'pay-bob',
          legs: [
            { account: walletOf(alice, 'BTC'), amount: -1_001 },
            { account: walletOf(bob, 'BTC'), amount: 1_001 },
          ],
        },
      );
    const error = await refusal(transfer);
    expect(error.code).toBe('INSUFFICIENT_FUNDS');
    expect(statusOf[error.code]).toBe(409);
    expect(error.message).toBe('The BTC balance is lower than the amount.');
    // Bob's wallet, created by the same transaction before the debit failed, is rolled back too.
    expect(await snapshot()).toEqual(before);
    expect(events).toHaveLength(eventsBefore);
    // A key is taken only by a commit: after a deposit the same request goes through.
    await deposit(alice, 1);
    expect((await transfer()).replayed).toBe(false);
    expect((await ledger.balances(system, { userId: alice })).BTC).toBe(0);
    expect((await ledger.balances(system, { userId: bob })).BTC).toBe(1_001);
  });

  it('answers a retry with the first transaction and changes nothing', async () => {
    const { ledger, alice, snapshot, deposit, events } = await setup();
    const first = await deposit(alice, 500, 'USDT', 'chain:txid:0');
    const before = await snapshot();
    const again = await deposit(alice, 500, 'USDT', 'chain:txid:0');
    expect(again).toEqual({ ...first, replayed: true });
    expect(await snapshot()).toEqual(before);
    // No second event: nothing changed.
    expect(events).toHaveLength(1);
    // Leg order is not part of the request.
    const reordered = await ledger.post(system, {
      kind: 'deposit',
      idempotencyKey: 'chain:txid:0',
      legs: [
        { account: walletOf(alice, 'USDT'), amount: 500 },
        { account: systemAccount('chain_in', 'USDT'), amount: -500 },
      ],
    });
    expect(reordered.id).toBe(first.id);
  });

  it('refuses a reused key with other parameters (400 IDEMPOTENCY_KEY_REUSED)', async () => {
    const { ledger, alice, bob, snapshot, deposit } = await setup();
    await deposit(alice, 500, 'BTC', 'k1');
    const before = await snapshot();
    for (const [amount, user, memo] of [
      [501, alice, undefined],
      [500, bob, undefined],
      [500, alice, 'other memo'],
    ] as const) {
      const error = await refusal(() =>
        ledger.post(system, {
          kind: 'deposit',
          idempotencyKey: 'k1',
          legs: [
            { account: systemAccount('chain_in', 'BTC'), amount: -amount },
            { account: walletOf(user, 'BTC'), amount },
          ],
          ...(memo ? { memo } : {}),
        }),
      );
      expect(error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(statusOf[error.code]).toBe(400);
    }
    // Another operation with the same key is another request too.
    expect(
      (await refusal(() => ledger.returnEscrow(system, { tradeRef: 'trd_1', currency: 'BTC', idempotencyKey: 'k1' })))
        .code,
    ).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await snapshot()).toEqual(before);
  });

  it('sends out and takes a returned sendout back', async () => {
    const { ledger, alice, deposit } = await setup();
    await deposit(alice, 70_000);
    const out = (kind: 'sendout' | 'sendout_return', amount: number, key: string) =>
      ledger.post(system, {
        kind,
        idempotencyKey: key,
        legs: [
          { account: walletOf(alice, 'BTC'), amount: kind === 'sendout' ? -amount : amount },
          { account: systemAccount('chain_out', 'BTC'), amount: kind === 'sendout' ? amount : -amount },
        ],
      });
    await out('sendout', 70_000, 's1');
    expect((await refusal(() => out('sendout', 1, 's2'))).code).toBe('INSUFFICIENT_FUNDS');
    await out('sendout_return', 70_000, 's1-return');
    expect((await ledger.balances(system, { userId: alice })).BTC).toBe(70_000);
    expect((await ledger.account(system, systemAccount('chain_out', 'BTC')))?.balance).toBe(0);
  });
});

describe('ledger: escrow', () => {
  const lock = (
    l: Awaited<ReturnType<typeof setup>>['ledger'],
    sellerId: number,
    amount: number,
    key = 'lock-1',
    tradeRef = 'trd_1',
  ) => l.lockEscrow(system, { tradeRef, sellerId, currency: 'BTC', amount, idempotencyKey: key });

  it('locks, then releases to the buyer less the fee, once', async () => {
    const { ledger, alice, bob, deposit, snapshot, events } = await setup();
    await deposit(alice, 100_000);
    await lock(ledger, alice, 80_000);
    expect((await ledger.balances(system, { userId: alice })).BTC).toBe(20_000);
    expect(await ledger.account(system, escrowOf('trd_1', 'BTC'))).toMatchObject({
      balance: 80_000,
      ownerId: alice,
      resolvedAt: null,
    });
    const release = (key: string) =>
      ledger.releaseEscrow(
        { actor: { type: 'user', userId: alice } },
        { tradeRef: 'trd_1', currency: 'BTC', buyerId: bob, fee: 800, idempotencyKey: key },
      );
    const released = await release('release-1');
    expect(released.postings).toEqual([
      { account: escrowOf('trd_1', 'BTC'), amount: -80_000 },
      { account: walletOf(bob, 'BTC'), amount: 79_200 },
      { account: systemAccount('fee_income', 'BTC'), amount: 800 },
    ]);
    expect((await ledger.balances(system, { userId: bob })).BTC).toBe(79_200);
    expect(await ledger.account(system, escrowOf('trd_1', 'BTC'))).toMatchObject({
      balance: 0,
      resolution: 'released',
      resolvedAt: TEST_NOW,
    });
    expect(events.at(-1)?.payload).toMatchObject({ kind: 'escrow_release', userIds: [bob] });
    const before = await snapshot();
    // The same release retried: the first result. Another release or a return: refused.
    expect(await release('release-1')).toEqual({ ...released, replayed: true });
    const twice = await refusal(() => release('release-2'));
    expect(twice.code).toBe('ESCROW_ALREADY_RESOLVED');
    expect(statusOf[twice.code]).toBe(409);
    expect(
      (
        await refusal(() =>
          ledger.returnEscrow(system, { tradeRef: 'trd_1', currency: 'BTC', idempotencyKey: 'ret-1' }),
        )
      ).code,
    ).toBe('ESCROW_ALREADY_RESOLVED');
    // A resolved escrow is not locked again.
    expect((await refusal(() => lock(ledger, alice, 10, 'lock-2'))).code).toBe('ESCROW_ALREADY_RESOLVED');
    expect(await snapshot()).toEqual(before);
  });

  it('returns the escrow to the seller who locked it', async () => {
    const { ledger, alice, deposit } = await setup();
    await deposit(alice, 5_000);
    await lock(ledger, alice, 5_000);
    const returned = await ledger.returnEscrow(system, { tradeRef: 'trd_1', currency: 'BTC', idempotencyKey: 'ret-1' });
    expect(returned.kind).toBe('escrow_return');
    expect((await ledger.balances(system, { userId: alice })).BTC).toBe(5_000);
    expect((await ledger.account(system, escrowOf('trd_1', 'BTC')))?.resolution).toBe('returned');
  });

  it('refuses a lock beyond the balance, a second lock, and a release of nothing', async () => {
    const { ledger, alice, bob, deposit, snapshot } = await setup();
    await deposit(alice, 1_000);
    let before = await snapshot();
    expect((await refusal(() => lock(ledger, alice, 1_001))).code).toBe('INSUFFICIENT_FUNDS');
    // The escrow account created in that transaction went with it.
    expect(await snapshot()).toEqual(before);
    await lock(ledger, alice, 600);
    before = await snapshot();
    expect((await refusal(() => lock(ledger, alice, 100, 'lock-2'))).code).toBe('ESCROW_ALREADY_LOCKED');
    expect(
      (
        await refusal(() =>
          ledger.releaseEscrow(system, {
            tradeRef: 'trd_none',
            currency: 'BTC',
            buyerId: bob,
            fee: 0,
            idempotencyKey: 'r',
          }),
        )
      ).code,
    ).toBe('NOT_FOUND');
    const feeTooHigh = await refusal(() =>
      ledger.releaseEscrow(system, { tradeRef: 'trd_1', currency: 'BTC', buyerId: bob, fee: 600, idempotencyKey: 'r' }),
    );
    expect(feeTooHigh.details?.[0]?.field).toBe('fee');
    expect((await refusal(() => lock(ledger, alice, -5, 'lock-3'))).details?.[0]?.field).toBe('amount');
    expect((await refusal(() => lock(ledger, alice, 2.5, 'lock-3'))).details?.[0]?.field).toBe('amount');
    expect(await snapshot()).toEqual(before);
  });

  it('writes inside a caller transaction, rolls back only its own part on refusal, and waits for the commit to announce', async () => {
    const { ledger, sql, alice, deposit, events } = await setup();
    await deposit(alice, 1_000);
    const pending: (() => void)[] = [];
    const tx = { afterCommit: (fn: () => void) => pending.push(fn) };
    const eventsBefore = events.length;
    const run = immediate(app.db, async () => {
      await sql.run("UPDATE users SET locale = 'de' WHERE id = ?", [alice]);
      await lock(ledger, alice, 400, 'in-tx-1', 'trd_a');
      // Refused inside: its savepoint rolls back, the caller's own write stays.
      expect(
        (
          await refusal(() =>
            ledger.lockEscrow(
              { ...system, tx },
              { tradeRef: 'trd_b', sellerId: alice, currency: 'BTC', amount: 10_000, idempotencyKey: 'in-tx-2' },
            ),
          )
        ).code,
      ).toBe('INSUFFICIENT_FUNDS');
    });
    // Without ctx.tx inside an open transaction the ledger refuses: it would announce too early.
    await expect(run).rejects.toThrow('without ctx.tx');
    expect((await ledger.balances(system, { userId: alice })).BTC).toBe(1_000);

    await immediate(app.db, async () => {
      await sql.run("UPDATE users SET locale = 'de' WHERE id = ?", [alice]);
      await ledger.lockEscrow(
        { ...system, tx },
        { tradeRef: 'trd_a', sellerId: alice, currency: 'BTC', amount: 400, idempotencyKey: 'in-tx-1' },
      );
      expect(
        (
          await refusal(() =>
            ledger.lockEscrow(
              { ...system, tx },
              { tradeRef: 'trd_b', sellerId: alice, currency: 'BTC', amount: 10_000, idempotencyKey: 'in-tx-2' },
            ),
          )
        ).code,
      ).toBe('INSUFFICIENT_FUNDS');
      expect(events).toHaveLength(eventsBefore);
    });
    expect((await sql.get<{ locale: string }>('SELECT locale FROM users WHERE id = ?', [alice]))?.locale).toBe('de');
    expect((await ledger.balances(system, { userId: alice })).BTC).toBe(600);
    expect(await ledger.account(system, escrowOf('trd_b', 'BTC'))).toBeUndefined();
    for (const fn of pending) fn();
    expect(events).toHaveLength(eventsBefore + 1);
  });
});

describe('ledger: reads', () => {
  it("pages a user's history newest first with the signed change per currency", async () => {
    const { ledger, alice, bob, deposit } = await setup();
    for (let i = 1; i <= 60; i += 1) await deposit(alice, i, 'BTC', `d${i}`);
    await ledger.post(system, {
      kind: 'conversion',
      idempotencyKey: 'c1',
      legs: [
        { account: walletOf(alice, 'BTC'), amount: -10 },
        { account: systemAccount('conversion_desk', 'BTC'), amount: 10 },
        { account: systemAccount('conversion_desk', 'USDT'), amount: -9_000 },
        { account: walletOf(alice, 'USDT'), amount: 9_000 },
      ],
    });
    await deposit(bob, 5, 'BTC', 'bob');
    const first = await ledger.history(system, { userId: alice });
    expect(first.items).toHaveLength(50);
    expect(first.items[0]).toMatchObject({
      kind: 'conversion',
      changes: [
        { currency: 'BTC', amount: -10 },
        { currency: 'USDT', amount: 9_000 },
      ],
    });
    expect(first.items[1]?.changes).toEqual([{ currency: 'BTC', amount: 60 }]);
    expect(first.nextBefore).toBe(first.items[49]?.id);
    const second = await ledger.history(system, { userId: alice, before: first.nextBefore ?? '' });
    expect(second.items.map((i) => i.changes[0]?.amount)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(second.nextBefore).toBeNull();
    expect((await ledger.history(system, { userId: bob })).items).toHaveLength(1);
    expect((await ledger.history(system, { userId: alice, limit: 1 })).items).toHaveLength(1);
    expect((await refusal(() => ledger.history(system, { userId: alice, before: 'ltx_unknown' }))).code).toBe(
      'NOT_FOUND',
    );
    expect((await ledger.transaction(system, { id: first.items[0]?.id ?? '' }))?.postings).toHaveLength(4);
  });
});

describe('npm run admin -- ledger:verify', () => {
  it('says OK on a sound ledger and lists violations (exit status 1) on a broken one', async () => {
    const { sql, alice, deposit } = await setup();
    await deposit(alice, 42);
    const commands = ledgerCommands(app.db);
    expect(await commands.verify()).toBe(
      'Ledger OK: 1 transaction(s) across 2 account(s); every invariant holds.\nOwed to people: 0.00000042 BTC, 0.000000 USDT.',
    );
    // A balance edited by hand, as a bad manual fix would.
    await sql.run("UPDATE ledger_accounts SET balance = balance + 1 WHERE kind = 'user_wallet'");
    await expect(commands.verify()).rejects.toThrow(CommandError);
    await expect(commands.verify()).rejects.toThrow(
      /2 violation\(s\)[\s\S]*\[currency_sum\] BTC: the accounts sum to 1[\s\S]*\[cached_balance\]/,
    );
    await sql.run("UPDATE ledger_accounts SET balance = balance - 1 WHERE kind = 'user_wallet'");
  });
});
