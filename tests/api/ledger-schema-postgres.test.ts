import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Postgres } from '../../db/postgres.ts';
import { createPostgresTestDb, postgresReachable } from '../support/postgres.ts';

// The money rules of tests/unit/ledger-schema.test.ts, on PostgreSQL (issue 17): the CHECK
// constraints generated from db/schema/ and the triggers of db/migrations-pg/0001_money_rules.sql
// refuse what the service must never write, whatever wrote it. Each statement bypasses the
// service, as a bug or a hand-typed fix would.

const reachable = await postgresReachable();
if (!reachable) console.warn('PostgreSQL is not reachable: the PostgreSQL money-rule tests are skipped.');

let testDb: Awaited<ReturnType<typeof createPostgresTestDb>>;
let sql: Postgres;
let alice: number;
let bob: number;

beforeAll(async () => {
  if (!reachable) return;
  testDb = await createPostgresTestDb();
  sql = testDb.db;
}, 30_000);
afterAll(async () => testDb?.drop());

let serial = 0;
async function user(): Promise<number> {
  serial++;
  const row = await sql.get<{ id: number }>(
    `INSERT INTO users (public_id, username, email, password_hash, last_seen_at, created_at)
     VALUES (?, ?, ?, 'x', 0, 0) RETURNING id`,
    [`usr_${serial}_${Date.now()}`, `u${serial}_${Date.now()}`, `u${serial}_${Date.now()}@example.com`],
  );
  return row?.id as number;
}

beforeEach(async () => {
  if (!reachable) return;
  alice = await user();
  bob = await user();
});

let keys = 0;
const account = async (kind: string, currency: string, extra: { owner?: number; ref?: string; neg?: number } = {}) =>
  (
    await sql.get<{ id: number }>(
      `INSERT INTO ledger_accounts (kind, owner_id, currency, reference, allow_negative, created_at)
       VALUES (?, ?, ?, ?, ?, 0) RETURNING id`,
      [kind, extra.owner ?? null, currency, extra.ref ?? null, extra.neg ?? 0],
    )
  )?.id as number;
const transaction = async (kind = 'deposit') => {
  const key = `k${++keys}_${Date.now()}`;
  return (
    await sql.get<{ id: number }>(
      `INSERT INTO ledger_transactions (public_id, kind, idempotency_key, fingerprint, created_at)
       VALUES (?, ?, ?, 'f', 0) RETURNING id`,
      [`ltx_${key}`, kind, key],
    )
  )?.id as number;
};
const posting = (tx: number, accountId: number, currency: string, amount: number) =>
  sql.run('INSERT INTO ledger_postings (transaction_id, account_id, currency, amount) VALUES (?, ?, ?, ?)', [
    tx,
    accountId,
    currency,
    amount,
  ]);
const move = (accountId: number, amount: number) =>
  sql.run('UPDATE ledger_accounts SET balance = balance + ? WHERE id = ?', [amount, accountId]);
const ref = () => `trd_${++keys}_${Date.now()}`;

describe.skipIf(!reachable)('PostgreSQL ledger tables refuse what the service must never write', () => {
  it('keeps user wallets, escrows and fee income at zero or above; chain accounts may go below', async () => {
    const wallet = await account('user_wallet', 'BTC', { owner: alice });
    await expect(move(wallet, -1)).rejects.toThrow('ledger_accounts_balance_check');
    const escrow = await account('trade_escrow', 'BTC', { owner: alice, ref: ref() });
    await expect(move(escrow, -1)).rejects.toThrow('ledger_accounts_balance_check');
    const chainIn = await account('chain_out', 'USDT', { neg: 1 });
    await move(chainIn, -500);
    await move(wallet, 500);
    await move(wallet, -500);
    await expect(move(wallet, -1)).rejects.toThrow('ledger_accounts_balance_check');
  });

  it('lets only chain and desk accounts allow negative balances', async () => {
    await expect(account('user_wallet', 'USDT', { owner: bob, neg: 1 })).rejects.toThrow(
      'ledger_accounts_negative_kind_check',
    );
    await expect(account('fee_income', 'BTC', { neg: 1 })).rejects.toThrow('ledger_accounts_negative_kind_check');
  });

  it('stores whole numbers only, within the safe-integer range', async () => {
    const wallet = await account('user_wallet', 'USDT', { owner: alice });
    await expect(move(wallet, 0.5)).rejects.toThrow('invalid input syntax for type bigint');
    await expect(move(wallet, 2 ** 53)).rejects.toThrow('ledger_accounts_integer_check');
    const tx = await transaction();
    await expect(posting(tx, wallet, 'USDT', 0)).rejects.toThrow('ledger_postings_amount_check');
  });

  it("ties a posting's currency to its account's, and accounts to one per owner and currency", async () => {
    const wallet = await account('user_wallet', 'BTC', { owner: alice });
    await expect(posting(await transaction(), wallet, 'USDT', 5)).rejects.toThrow('ledger_postings_account_fk');
    await expect(account('user_wallet', 'BTC', { owner: alice })).rejects.toThrow('ledger_accounts_wallet_uq');
    const escrowRef = ref();
    await account('trade_escrow', 'BTC', { owner: alice, ref: escrowRef });
    await expect(account('trade_escrow', 'BTC', { owner: alice, ref: escrowRef })).rejects.toThrow(
      'ledger_accounts_escrow_uq',
    );
    await expect(account('user_wallet', 'BTC')).rejects.toThrow('ledger_accounts_shape_check');
  });

  it('never updates, deletes or truncates transactions, postings or accounts', async () => {
    const wallet = await account('user_wallet', 'BTC', { owner: alice });
    const tx = await transaction();
    await move(wallet, 5);
    await posting(tx, wallet, 'BTC', 5);
    await expect(sql.run('UPDATE ledger_postings SET amount = 6')).rejects.toThrow('append-only');
    await expect(sql.run('DELETE FROM ledger_postings')).rejects.toThrow('append-only');
    await expect(sql.run("UPDATE ledger_transactions SET memo = 'x'")).rejects.toThrow('append-only');
    await expect(sql.run('DELETE FROM ledger_transactions')).rejects.toThrow('append-only');
    await expect(sql.exec('TRUNCATE ledger_postings CASCADE')).rejects.toThrow('append-only');
    await expect(sql.run('DELETE FROM ledger_accounts WHERE id = ?', [wallet])).rejects.toThrow('never deleted');
    await expect(sql.run("UPDATE ledger_accounts SET currency = 'USDT' WHERE id = ?", [wallet])).rejects.toThrow(
      'keeps its identity',
    );
    await expect(sql.run('UPDATE ledger_accounts SET allow_negative = 1 WHERE id = ?', [wallet])).rejects.toThrow(
      'keeps its identity',
    );
  });

  it('resolves an escrow once, empty, and never refills it', async () => {
    const escrow = await account('trade_escrow', 'BTC', { owner: alice, ref: ref() });
    await move(escrow, 100);
    const resolve = (resolution: string) =>
      sql.run('UPDATE ledger_accounts SET resolved_at = 1, resolution = ? WHERE id = ?', [resolution, escrow]);
    await expect(resolve('released')).rejects.toThrow('ledger_accounts_resolved_check');
    await move(escrow, -100);
    await resolve('released');
    await expect(resolve('returned')).rejects.toThrow('resolved already');
    await expect(move(escrow, 1)).rejects.toThrow('ledger_accounts_resolved_check');
  });

  it('records every ended session for the socket revocation poll', async () => {
    await sql.run(
      `INSERT INTO sessions (id, user_id, csrf_token, created_at, expires_at, ip, user_agent, public_id, last_used_at)
       VALUES ('s1', ?, 'c', 0, 1, '127.0.0.1', 'ua', 'ses_1', 0)`,
      [alice],
    );
    await sql.run("DELETE FROM sessions WHERE id = 's1'");
    const ended = await sql.all<{ userId: number; endedAt: number }>(
      "SELECT user_id AS userId, ended_at AS endedAt FROM session_revocations WHERE session_public_id = 'ses_1'",
    );
    expect(ended).toEqual([{ userId: alice, endedAt: expect.any(Number) }]);
    expect(Math.abs((ended[0]?.endedAt ?? 0) - Date.now())).toBeLessThan(60_000);
  });
});
