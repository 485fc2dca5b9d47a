import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import {
  type LedgerAccountKind,
  type LedgerCurrency,
  type LedgerTransactionKind,
  OWNED_ACCOUNT_KINDS,
} from '../../../db/schema/index.ts';
import type { SqlClient } from '../../../db/sql-client.ts';
import { type OwnedAccountKind, SYSTEM_KINDS } from './accounts.ts';

// SQL of the ledger, in the portable text both engines run (db/sql-client.ts), each statement
// prepared once by its text: the guarantees live in these statements and the table constraints
// (db/schema/ledger.ts), so they are written out. Only the ledger's executor (execute.ts) calls the
// writers, always inside one transaction; everything else only reads.

export interface AccountRow {
  id: number;
  kind: LedgerAccountKind;
  ownerId: number | null;
  currency: LedgerCurrency;
  reference: string | null;
  balance: number;
  allowNegative: number;
  resolvedAt: number | null;
  resolution: 'released' | 'returned' | null;
}

export interface TransactionRow {
  id: number;
  publicId: string;
  kind: LedgerTransactionKind;
  fingerprint: string;
  memo: string | null;
  metadata: string | null;
  createdAt: number;
}

export interface PostingRow {
  accountId: number;
  kind: LedgerAccountKind;
  ownerId: number | null;
  reference: string | null;
  currency: LedgerCurrency;
  amount: number;
}

export interface HistoryRow {
  id: number;
  publicId: string;
  kind: LedgerTransactionKind;
  memo: string | null;
  createdAt: number;
  currency: LedgerCurrency;
  amount: number;
}

export interface NewAccount {
  kind: LedgerAccountKind;
  ownerId: number | null;
  currency: LedgerCurrency;
  reference: string | null;
  allowNegative: number;
  at: number;
}

export interface NewTransaction {
  publicId: string;
  kind: LedgerTransactionKind;
  key: string;
  fingerprint: string;
  memo: string | null;
  metadata: string | null;
  at: number;
}

export interface NewAudit {
  transactionId: number;
  operation: string;
  actorType: 'user' | 'system' | 'operator';
  actorUserId: number | null;
  actorName: string | null;
  requestId: string | null;
  at: number;
}

const ACCOUNT_COLUMNS = `id, kind, owner_id AS ownerId, currency, reference, balance, allow_negative AS allowNegative,
  resolved_at AS resolvedAt, resolution`;
const TRANSACTION_COLUMNS = 'id, public_id AS publicId, kind, fingerprint, memo, metadata, created_at AS createdAt';

// The kind is written into each text, never bound: SQLite picks a partial index (the accounts'
// unique indexes are per kind) only for a literal, and replans a statement whose kind is a
// parameter on every run. The kinds come from the schema's closed list.
const ownedAccountText = (kind: OwnedAccountKind) => `SELECT ${ACCOUNT_COLUMNS} FROM ledger_accounts
  WHERE kind = '${kind}' AND owner_id = ? AND currency = ?`;
const OWNED_ACCOUNT = Object.fromEntries(OWNED_ACCOUNT_KINDS.map((kind) => [kind, ownedAccountText(kind)])) as Record<
  OwnedAccountKind,
  string
>;
const ESCROW_ACCOUNT = `SELECT ${ACCOUNT_COLUMNS} FROM ledger_accounts
  WHERE kind = 'trade_escrow' AND reference = ? AND currency = ?`;
const SYSTEM_ACCOUNT = new Map<string, string>(
  SYSTEM_KINDS.map((kind) => [
    kind,
    `SELECT ${ACCOUNT_COLUMNS} FROM ledger_accounts WHERE kind = '${kind}' AND currency = ?`,
  ]),
);
const INSERT_ACCOUNT = `INSERT INTO ledger_accounts (kind, owner_id, currency, reference, allow_negative, created_at)
  VALUES (@kind, @ownerId, @currency, @reference, @allowNegative, @at) RETURNING ${ACCOUNT_COLUMNS}`;
const USER_EXISTS = 'SELECT 1 AS one FROM users WHERE id = ?';

/** The accounts: found by owner, trade or kind, and opened on first use. */
function accounts(sql: SqlClient) {
  return {
    /** One of a person's accounts (wallet, affiliate earnings, merchant or kiosk balance) in one currency. */
    ownedAccount: (kind: OwnedAccountKind, userId: number, currency: LedgerCurrency) =>
      sql.get<AccountRow>(OWNED_ACCOUNT[kind], [userId, currency]),
    escrowAccount: (reference: string, currency: LedgerCurrency) =>
      sql.get<AccountRow>(ESCROW_ACCOUNT, [reference, currency]),
    /** A platform account; undefined for a kind that is not one. */
    systemAccount: async (kind: LedgerAccountKind, currency: LedgerCurrency) => {
      const text = SYSTEM_ACCOUNT.get(kind);
      return text === undefined ? undefined : sql.get<AccountRow>(text, [currency]);
    },
    insertAccount: async (values: NewAccount) => (await sql.get<AccountRow>(INSERT_ACCOUNT, [values])) as AccountRow,
    userExists: async (userId: number) => (await sql.get(USER_EXISTS, [userId])) !== undefined,
  };
}

const TRANSACTION_BY_KEY = `SELECT ${TRANSACTION_COLUMNS} FROM ledger_transactions WHERE idempotency_key = ?`;
const TRANSACTION_BY_PUBLIC_ID = `SELECT ${TRANSACTION_COLUMNS} FROM ledger_transactions WHERE public_id = ?`;
const TRANSACTION_BY_ID = `SELECT ${TRANSACTION_COLUMNS} FROM ledger_transactions WHERE id = ?`;
const INSERT_TRANSACTION = `INSERT INTO ledger_transactions
  (public_id, kind, idempotency_key, fingerprint, memo, metadata, created_at)
  VALUES (@publicId, @kind, @key, @fingerprint, @memo, @metadata, @at) RETURNING id`;

/** The transactions: found by idempotency key or id, and inserted. */
function transactions(sql: SqlClient) {
  return {
    transactionByKey: (key: string) => sql.get<TransactionRow>(TRANSACTION_BY_KEY, [key]),
    transactionByPublicId: (publicId: string) => sql.get<TransactionRow>(TRANSACTION_BY_PUBLIC_ID, [publicId]),
    transactionById: (id: number) => sql.get<TransactionRow>(TRANSACTION_BY_ID, [id]),
    insertTransaction: async (values: NewTransaction) =>
      ((await sql.get<{ id: number }>(INSERT_TRANSACTION, [values])) as { id: number }).id,
  };
}

const INSERT_POSTING = 'INSERT INTO ledger_postings (transaction_id, account_id, currency, amount) VALUES (?, ?, ?, ?)';
// The cached balance moves in the same transaction as its posting, in one statement; the table's
// CHECK (balance >= 0 OR allow_negative) refuses an overdraft here, whatever the code above decided.
const ADD_TO_BALANCE = 'UPDATE ledger_accounts SET balance = balance + ? WHERE id = ?';
// At most once: a second resolution finds resolved_at set and changes nothing (and a trigger
// refuses any later change of it). The escrow must be empty by then (ledger_accounts_resolved_check).
const RESOLVE_ESCROW = `UPDATE ledger_accounts SET resolved_at = ?, resolution = ?
  WHERE id = ? AND kind = 'trade_escrow' AND resolved_at IS NULL`;
const INSERT_AUDIT = `INSERT INTO ledger_audit
  (transaction_id, operation, actor_type, actor_user_id, actor_name, request_id, created_at)
  VALUES (@transactionId, @operation, @actorType, @actorUserId, @actorName, @requestId, @at)`;

/** What a transaction writes besides itself: postings, balances, escrow resolution, audit. */
function movements(sql: SqlClient) {
  return {
    insertPosting: (transactionId: number, accountId: number, currency: LedgerCurrency, amount: number) =>
      sql.run(INSERT_POSTING, [transactionId, accountId, currency, amount]),
    addToBalance: (accountId: number, amount: number) => sql.run(ADD_TO_BALANCE, [amount, accountId]),
    /** False when the escrow was resolved already. */
    resolveEscrow: async (accountId: number, resolution: 'released' | 'returned', at: number) =>
      (await sql.run(RESOLVE_ESCROW, [at, resolution, accountId])).changes === 1,
    insertAudit: (values: NewAudit) => sql.run(INSERT_AUDIT, [values]),
  };
}

const POSTINGS_OF = `SELECT p.account_id AS accountId, a.kind, a.owner_id AS ownerId, a.reference, p.currency, p.amount
  FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id
  WHERE p.transaction_id = ? ORDER BY p.id`;
/** One statement text per number of users (a transaction has at most a few wallets). */
const publicIdsText = (count: number) =>
  `SELECT id, public_id AS publicId FROM users WHERE id IN (${Array(count).fill('?').join(', ')}) ORDER BY id`;
/** A person's balances of one kind of account (the kind a literal, as above). */
const BALANCES_OF = Object.fromEntries(
  OWNED_ACCOUNT_KINDS.map((kind) => [
    kind,
    `SELECT currency, balance FROM ledger_accounts WHERE kind = '${kind}' AND owner_id = ?`,
  ]),
) as Record<OwnedAccountKind, string>;
// A user's history: the transactions that touched their wallets, newest first, with the signed
// sum per currency. Pages by the internal id (transactions are append-only, so a page never shifts).
const HISTORY_OF = `WITH page AS (
    SELECT DISTINCT p.transaction_id AS id
    FROM ledger_accounts a JOIN ledger_postings p ON p.account_id = a.id
    WHERE a.kind = 'user_wallet' AND a.owner_id = @userId AND p.transaction_id < @before
    ORDER BY p.transaction_id DESC LIMIT @limit
  )
  SELECT t.id, t.public_id AS publicId, t.kind, t.memo, t.created_at AS createdAt, p.currency,
         sum(p.amount) AS amount
  FROM page JOIN ledger_transactions t ON t.id = page.id
  JOIN ledger_postings p ON p.transaction_id = t.id
  JOIN ledger_accounts a ON a.id = p.account_id AND a.kind = 'user_wallet' AND a.owner_id = @userId
  GROUP BY t.id, t.public_id, t.kind, t.memo, t.created_at, p.currency ORDER BY t.id DESC, p.currency`;

/** Reads for callers and views: postings of a transaction, public ids, balances, history. */
function readings(sql: SqlClient) {
  return {
    postingsOf: (transactionId: number) => sql.all<PostingRow>(POSTINGS_OF, [transactionId]),
    publicIdsOf: async (userIds: number[]) =>
      userIds.length === 0 ? [] : sql.all<{ id: number; publicId: string }>(publicIdsText(userIds.length), userIds),
    balancesOf: (userId: number, kind: OwnedAccountKind = 'user_wallet') =>
      sql.all<{ currency: LedgerCurrency; balance: number }>(BALANCES_OF[kind], [userId]),
    historyOf: (userId: number, before: number, limit: number) =>
      sql.all<HistoryRow>(HISTORY_OF, [{ userId, before, limit }]),
  };
}

/** The ledger's statements, on either engine; `db` is the database, for its transactions. */
export function createLedgerRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const { sql } = database;
  return { db: database, ...accounts(sql), ...transactions(sql), ...movements(sql), ...readings(sql) };
}

export type LedgerRepository = ReturnType<typeof createLedgerRepository>;
