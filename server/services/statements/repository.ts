import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import type { LedgerCurrency } from '../../../db/schema/index.ts';

// What statements read: the ledger's postings of a person's accounts (never written here), the
// platform's stored signing key, and the months the monthly job closed. Portable SQL, both engines.

/** The accounts a statement covers: what the person owns, and the escrows of their sales. */
export const STATEMENT_ACCOUNT_KINDS = [
  'user_wallet',
  'trade_escrow',
  'affiliate_earnings',
  'merchant_balance',
  'kiosk_balance',
] as const;
export type StatementAccountKind = (typeof STATEMENT_ACCOUNT_KINDS)[number];

const KINDS = STATEMENT_ACCOUNT_KINDS.map((kind) => `'${kind}'`).join(', ');

export interface BalanceRow {
  kind: StatementAccountKind;
  currency: LedgerCurrency;
  balance: number;
}

export interface MovementRow {
  accountKind: StatementAccountKind;
  transactionKind: string;
  currency: LedgerCurrency;
  credits: number;
  debits: number;
  count: number;
}

// Everything committed before `at`, by the transaction's time. The ledger is append-only, so the
// sum up to a past instant never changes once every transaction of that instant has committed.
const BALANCES_BEFORE = `SELECT a.kind AS kind, a.currency AS currency, sum(p.amount) AS balance
  FROM ledger_accounts a
  JOIN ledger_postings p ON p.account_id = a.id
  JOIN ledger_transactions t ON t.id = p.transaction_id
  WHERE a.owner_id = ? AND a.kind IN (${KINDS}) AND t.created_at < ?
  GROUP BY a.kind, a.currency`;

// The cached balances, kept by every posting's statement set (ledger/write.ts): what the wallet shows now.
const BALANCES_NOW = `SELECT a.kind AS kind, a.currency AS currency, sum(a.balance) AS balance
  FROM ledger_accounts a
  WHERE a.owner_id = ? AND a.kind IN (${KINDS})
  GROUP BY a.kind, a.currency`;

const MOVEMENTS = `SELECT a.kind AS accountKind, t.kind AS transactionKind, a.currency AS currency,
    sum(CASE WHEN p.amount > 0 THEN p.amount ELSE 0 END) AS credits,
    sum(CASE WHEN p.amount < 0 THEN -p.amount ELSE 0 END) AS debits,
    count(DISTINCT t.id) AS count
  FROM ledger_accounts a
  JOIN ledger_postings p ON p.account_id = a.id
  JOIN ledger_transactions t ON t.id = p.transaction_id
  WHERE a.owner_id = ? AND a.kind IN (${KINDS}) AND t.created_at >= ? AND t.created_at < ?
  GROUP BY a.kind, t.kind, a.currency`;

// People with something to state for a month: a balance at its end, or a movement in it (owned
// accounts and escrows never go below zero, so a zero sum means every balance is zero). Ordered by
// id so the job can tell them in batches and remember where it stopped.
const PEOPLE_TO_TELL = `SELECT a.owner_id AS userId
  FROM ledger_accounts a
  JOIN ledger_postings p ON p.account_id = a.id
  JOIN ledger_transactions t ON t.id = p.transaction_id
  WHERE a.kind IN (${KINDS}) AND a.owner_id > ? AND t.created_at < ?
  GROUP BY a.owner_id
  HAVING sum(p.amount) <> 0 OR max(t.created_at) >= ?
  ORDER BY a.owner_id LIMIT ?`;

export interface StatementMonthRow {
  period: string;
  readyAt: number;
  notifiedThrough: number;
  notifiedAt: number | null;
}

const MONTH_COLUMNS = 'period, ready_at AS readyAt, notified_through AS notifiedThrough, notified_at AS notifiedAt';

export function createStatementsRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const { sql } = database;
  return {
    db: database,
    balancesBefore: (userId: number, at: number) => sql.all<BalanceRow>(BALANCES_BEFORE, [userId, at]),
    balancesNow: (userId: number) => sql.all<BalanceRow>(BALANCES_NOW, [userId]),
    movements: (userId: number, from: number, to: number) => sql.all<MovementRow>(MOVEMENTS, [userId, from, to]),
    /** Up to `limit` people after user id `after` with a balance at the month's end or a movement in it. */
    peopleToTell: async (after: number, month: { from: number; to: number }, limit: number) =>
      (await sql.all<{ userId: number }>(PEOPLE_TO_TELL, [after, month.to, month.from, limit])).map(
        (row) => row.userId,
      ),

    storedKey: async (purpose: string) =>
      (await sql.get<{ pem: string }>('SELECT private_key_pem AS pem FROM signing_keys WHERE purpose = ?', [purpose]))
        ?.pem,
    /** Keeps `pem` unless another process stored its key first; the stored one wins either way. */
    storeKeyOnce: (purpose: string, pem: string, at: number) =>
      sql.run(
        'INSERT INTO signing_keys (purpose, private_key_pem, created_at) VALUES (?, ?, ?) ON CONFLICT (purpose) DO NOTHING',
        [purpose, pem, at],
      ),

    month: (period: string) =>
      sql.get<StatementMonthRow>(`SELECT ${MONTH_COLUMNS} FROM statement_months WHERE period = ?`, [period]),
    /** Closed months from `fromPeriod` on, newest first. */
    monthsSince: (fromPeriod: string) =>
      sql.all<StatementMonthRow>(
        `SELECT ${MONTH_COLUMNS} FROM statement_months WHERE period >= ? ORDER BY period DESC`,
        [fromPeriod],
      ),
    /** Whether this call closed the month (false: another process or an earlier run did). */
    closeMonth: async (period: string, at: number) =>
      (
        await sql.run(
          'INSERT INTO statement_months (period, ready_at, notified_through) VALUES (?, ?, 0) ON CONFLICT (period) DO NOTHING',
          [period, at],
        )
      ).changes === 1,
    /** Moves the month's cursor from `from` to `to`; false when another run moved it first. */
    advanceNotified: async (period: string, from: number, to: number) =>
      (
        await sql.run(
          'UPDATE statement_months SET notified_through = ? WHERE period = ? AND notified_through = ? AND notified_at IS NULL',
          [to, period, from],
        )
      ).changes === 1,
    finishNotified: (period: string, at: number) =>
      sql.run('UPDATE statement_months SET notified_at = ? WHERE period = ? AND notified_at IS NULL', [at, period]),
  };
}

export type StatementsRepository = ReturnType<typeof createStatementsRepository>;
