import { afterEach, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../server/services/ledger/invariants.ts';
import { createSqliteTestDb } from '../support/test-db.ts';

// The ledger's guards in SQL itself (db/schema/ledger.ts and the triggers of 0009_ledger.sql):
// each statement here bypasses the service, as a bug or a hand-written fix would, and SQLite
// still refuses it. SQLite's own error texts: PostgreSQL's guards are tests/api/ledger-schema-postgres.test.ts.

let testDb: ReturnType<typeof createSqliteTestDb>;
afterEach(() => testDb?.close());

function setup() {
  testDb = createSqliteTestDb();
  const sql = testDb.db.$client;
  const [alice, bob] = sql.prepare('SELECT id FROM users ORDER BY id LIMIT 2').pluck().all() as number[];
  const account = (kind: string, currency: string, extra: { owner?: number; ref?: string; neg?: number } = {}) =>
    Number(
      sql
        .prepare(
          `INSERT INTO ledger_accounts (kind, owner_id, currency, reference, allow_negative, created_at)
           VALUES (?, ?, ?, ?, ?, 0)`,
        )
        .run(kind, extra.owner ?? null, currency, extra.ref ?? null, extra.neg ?? 0).lastInsertRowid,
    );
  const transaction = (key: string, kind = 'deposit') =>
    Number(
      sql
        .prepare(
          `INSERT INTO ledger_transactions (public_id, kind, idempotency_key, fingerprint, created_at)
           VALUES (?, ?, ?, 'f', 0)`,
        )
        .run(`ltx_${key}`, kind, key).lastInsertRowid,
    );
  const posting = (tx: number, accountId: number, currency: string, amount: number) =>
    sql
      .prepare('INSERT INTO ledger_postings (transaction_id, account_id, currency, amount) VALUES (?, ?, ?, ?)')
      .run(tx, accountId, currency, amount);
  const move = (accountId: number, amount: number) =>
    sql.prepare('UPDATE ledger_accounts SET balance = balance + ? WHERE id = ?').run(amount, accountId);
  return { sql, alice: alice as number, bob: bob as number, account, transaction, posting, move };
}

describe('ledger tables refuse what the service must never write', () => {
  it('keeps user wallets, escrows and fee income at zero or above; chain accounts may go below', () => {
    const { alice, account, move } = setup();
    const wallet = account('user_wallet', 'BTC', { owner: alice });
    expect(() => move(wallet, -1)).toThrow('CHECK constraint failed: ledger_accounts_balance_check');
    const escrow = account('trade_escrow', 'BTC', { owner: alice, ref: 'trd_x' });
    expect(() => move(escrow, -1)).toThrow('ledger_accounts_balance_check');
    const fees = account('fee_income', 'USDT');
    expect(() => move(fees, -1)).toThrow('ledger_accounts_balance_check');
    const chainIn = account('chain_in', 'BTC', { neg: 1 });
    move(chainIn, -500);
    move(wallet, 500);
    move(wallet, -500);
    expect(() => move(wallet, -1)).toThrow('ledger_accounts_balance_check');
  });

  it('lets only chain and desk accounts allow negative balances', () => {
    const { alice, account } = setup();
    expect(() => account('user_wallet', 'BTC', { owner: alice, neg: 1 })).toThrow(
      'ledger_accounts_negative_kind_check',
    );
    expect(() => account('fee_income', 'BTC', { neg: 1 })).toThrow('ledger_accounts_negative_kind_check');
    expect(account('conversion_desk', 'BTC', { neg: 1 })).toBeGreaterThan(0);
  });

  it('stores whole numbers only, within the safe-integer range', () => {
    const { alice, account, transaction, posting, move } = setup();
    const wallet = account('user_wallet', 'USDT', { owner: alice });
    expect(() => move(wallet, 0.5)).toThrow('ledger_accounts_integer_check');
    expect(() => move(wallet, 2 ** 53)).toThrow('ledger_accounts_integer_check');
    const tx = transaction('k1');
    expect(() => posting(tx, wallet, 'USDT', 1.25)).toThrow('ledger_postings_amount_check');
    expect(() => posting(tx, wallet, 'USDT', 0)).toThrow('ledger_postings_amount_check');
  });

  it("ties a posting's currency to its account's, and accounts to one per owner and currency", () => {
    const { alice, account, transaction, posting } = setup();
    const wallet = account('user_wallet', 'BTC', { owner: alice });
    expect(() => posting(transaction('k1'), wallet, 'USDT', 5)).toThrow('FOREIGN KEY constraint failed');
    expect(() => account('user_wallet', 'BTC', { owner: alice })).toThrow('UNIQUE constraint failed');
    account('chain_in', 'BTC', { neg: 1 });
    expect(() => account('chain_in', 'BTC', { neg: 1 })).toThrow('UNIQUE constraint failed');
    account('trade_escrow', 'BTC', { owner: alice, ref: 'trd_1' });
    expect(() => account('trade_escrow', 'BTC', { owner: alice, ref: 'trd_1' })).toThrow('UNIQUE constraint failed');
    expect(() => account('user_wallet', 'BTC')).toThrow('ledger_accounts_shape_check');
    expect(() => account('chain_out', 'BTC', { owner: alice, neg: 1 })).toThrow('ledger_accounts_shape_check');
  });

  it('never updates or deletes transactions, postings or accounts', () => {
    const { sql, alice, account, transaction, posting } = setup();
    const wallet = account('user_wallet', 'BTC', { owner: alice });
    const tx = transaction('k1');
    posting(tx, wallet, 'BTC', 5);
    expect(() => sql.prepare('UPDATE ledger_postings SET amount = 6').run()).toThrow('append-only');
    expect(() => sql.prepare('DELETE FROM ledger_postings').run()).toThrow('append-only');
    expect(() => sql.prepare("UPDATE ledger_transactions SET memo = 'x'").run()).toThrow('append-only');
    expect(() => sql.prepare('DELETE FROM ledger_transactions').run()).toThrow('append-only');
    expect(() => sql.prepare('DELETE FROM ledger_accounts').run()).toThrow('never deleted');
    expect(() => sql.prepare("UPDATE ledger_accounts SET currency = 'USDT'").run()).toThrow('keeps its identity');
    expect(() => sql.prepare('UPDATE ledger_accounts SET allow_negative = 1').run()).toThrow('keeps its identity');
  });

  it('resolves an escrow once, empty, and never refills it', () => {
    const { sql, alice, account, move } = setup();
    const escrow = account('trade_escrow', 'BTC', { owner: alice, ref: 'trd_1' });
    move(escrow, 100);
    const resolve = (resolution: string) =>
      sql.prepare('UPDATE ledger_accounts SET resolved_at = 1, resolution = ? WHERE id = ?').run(resolution, escrow);
    expect(() => resolve('released')).toThrow('ledger_accounts_resolved_check');
    move(escrow, -100);
    resolve('released');
    expect(() => resolve('returned')).toThrow('resolved already');
    expect(() => move(escrow, 1)).toThrow('ledger_accounts_resolved_check');
    const wallet = account('user_wallet', 'USDT', { owner: alice });
    expect(() =>
      sql.prepare("UPDATE ledger_accounts SET resolved_at = 1, resolution = 'released' WHERE id = ?").run(wallet),
    ).toThrow('ledger_accounts_resolved_check');
  });

  it('verifyLedger names what raw writes broke', async () => {
    const { alice, bob, account, transaction, posting, move } = setup();
    expect(await verifyLedger(testDb.db)).toEqual([]);
    const chainIn = account('chain_in', 'BTC', { neg: 1 });
    const wallet = account('user_wallet', 'BTC', { owner: alice });
    const other = account('user_wallet', 'BTC', { owner: bob });
    // A balance moved without postings, a transaction that does not balance, one with no audit row.
    move(wallet, 10);
    const tx = transaction('k1');
    posting(tx, chainIn, 'BTC', -7);
    posting(tx, other, 'BTC', 5);
    move(chainIn, -7);
    move(other, 5);
    const rules = (await verifyLedger(testDb.db)).map((v) => v.rule);
    expect(rules.sort()).toEqual(['audit_missing', 'cached_balance', 'currency_sum', 'transaction_sum']);
  });

  it('verifyLedger finds an escrow that left twice or left without being marked', async () => {
    const { sql, alice, bob, account, transaction, posting, move } = setup();
    const escrow = account('trade_escrow', 'BTC', { owner: alice, ref: 'trd_2' });
    const wallet = account('user_wallet', 'BTC', { owner: bob });
    const chainIn = account('chain_in', 'BTC', { neg: 1 });
    for (const [key, kind] of [
      ['a', 'escrow_lock'],
      ['b', 'escrow_release'],
    ] as const) {
      const tx = transaction(key, kind);
      posting(tx, escrow, 'BTC', kind === 'escrow_lock' ? 10 : -10);
      posting(tx, kind === 'escrow_lock' ? chainIn : wallet, 'BTC', kind === 'escrow_lock' ? -10 : 10);
      sql
        .prepare(
          "INSERT INTO ledger_audit (transaction_id, operation, actor_type, created_at) VALUES (?, 'x', 'system', 0)",
        )
        .run(tx);
    }
    move(chainIn, -10);
    move(wallet, 10);
    // The escrow's money left by escrow_release, but the account was never marked resolved.
    expect(await verifyLedger(testDb.db)).toEqual([
      expect.objectContaining({ rule: 'escrow_resolution', message: expect.stringContaining('resolution none') }),
    ]);
  });
});
