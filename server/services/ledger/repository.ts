import { gated } from '../../../db/access.ts';
import type { Db } from '../../../db/client.ts';
import type { LedgerAccountKind, LedgerCurrency, LedgerTransactionKind } from '../../../db/schema/index.ts';

// SQL of the ledger, prepared once per database on better-sqlite3 directly: the guarantees live in
// these statements and the table constraints (db/schema/ledger.ts), so they are written out. Only
// the ledger's executor (execute.ts) calls the writers, synchronously, always inside one immediate
// transaction; everything else reads through the asynchronous repository (db/access.ts).

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

const ACCOUNT_COLUMNS = `id, kind, owner_id AS ownerId, currency, reference, balance, allow_negative AS allowNegative,
  resolved_at AS resolvedAt, resolution`;
const TRANSACTION_COLUMNS = 'id, public_id AS publicId, kind, fingerprint, memo, metadata, created_at AS createdAt';

/** The accounts: found by owner, trade or kind, and opened on first use. */
function accounts(client: Db['$client']) {
  const walletAccount = client.prepare<[number, LedgerCurrency], AccountRow>(
    `SELECT ${ACCOUNT_COLUMNS} FROM ledger_accounts WHERE kind = 'user_wallet' AND owner_id = ? AND currency = ?`,
  );
  const escrowAccount = client.prepare<[string, LedgerCurrency], AccountRow>(
    `SELECT ${ACCOUNT_COLUMNS} FROM ledger_accounts WHERE kind = 'trade_escrow' AND reference = ? AND currency = ?`,
  );
  const systemAccount = client.prepare<[LedgerAccountKind, LedgerCurrency], AccountRow>(
    `SELECT ${ACCOUNT_COLUMNS} FROM ledger_accounts
     WHERE kind = ? AND currency = ? AND kind NOT IN ('user_wallet', 'trade_escrow')`,
  );
  const insertAccount = client.prepare<
    {
      kind: LedgerAccountKind;
      ownerId: number | null;
      currency: LedgerCurrency;
      reference: string | null;
      allowNegative: number;
      at: number;
    },
    AccountRow
  >(
    `INSERT INTO ledger_accounts (kind, owner_id, currency, reference, allow_negative, created_at)
     VALUES (@kind, @ownerId, @currency, @reference, @allowNegative, @at) RETURNING ${ACCOUNT_COLUMNS}`,
  );
  const userExists = client.prepare<[number], { one: number }>('SELECT 1 AS one FROM users WHERE id = ?');

  return {
    walletAccount: (userId: number, currency: LedgerCurrency) => walletAccount.get(userId, currency),
    escrowAccount: (reference: string, currency: LedgerCurrency) => escrowAccount.get(reference, currency),
    systemAccount: (kind: LedgerAccountKind, currency: LedgerCurrency) => systemAccount.get(kind, currency),
    insertAccount: (values: Parameters<typeof insertAccount.get>[0]) => insertAccount.get(values) as AccountRow,
    userExists: (userId: number) => userExists.get(userId) !== undefined,
  };
}

/** The transactions: found by idempotency key or id, and inserted. */
function transactions(client: Db['$client']) {
  const transactionByKey = client.prepare<[string], TransactionRow>(
    `SELECT ${TRANSACTION_COLUMNS} FROM ledger_transactions WHERE idempotency_key = ?`,
  );
  const transactionByPublicId = client.prepare<[string], TransactionRow>(
    `SELECT ${TRANSACTION_COLUMNS} FROM ledger_transactions WHERE public_id = ?`,
  );
  const transactionById = client.prepare<[number], TransactionRow>(
    `SELECT ${TRANSACTION_COLUMNS} FROM ledger_transactions WHERE id = ?`,
  );
  const insertTransaction = client.prepare<
    {
      publicId: string;
      kind: LedgerTransactionKind;
      key: string;
      fingerprint: string;
      memo: string | null;
      metadata: string | null;
      at: number;
    },
    { id: number }
  >(
    `INSERT INTO ledger_transactions (public_id, kind, idempotency_key, fingerprint, memo, metadata, created_at)
     VALUES (@publicId, @kind, @key, @fingerprint, @memo, @metadata, @at) RETURNING id`,
  );

  return {
    transactionByKey: (key: string) => transactionByKey.get(key),
    transactionByPublicId: (publicId: string) => transactionByPublicId.get(publicId),
    transactionById: (id: number) => transactionById.get(id),
    insertTransaction: (values: Parameters<typeof insertTransaction.get>[0]) =>
      (insertTransaction.get(values) as { id: number }).id,
  };
}

/** What a transaction writes besides itself: postings, balances, escrow resolution, audit. */
function movements(client: Db['$client']) {
  const insertPosting = client.prepare<[number, number, LedgerCurrency, number]>(
    'INSERT INTO ledger_postings (transaction_id, account_id, currency, amount) VALUES (?, ?, ?, ?)',
  );
  // The cached balance moves in the same statement set as its posting; the table's CHECK
  // (balance >= 0 OR allow_negative) refuses an overdraft here, whatever the code above decided.
  const addToBalance = client.prepare<[number, number]>(
    'UPDATE ledger_accounts SET balance = balance + ? WHERE id = ?',
  );
  // At most once: a second resolution finds resolved_at set and changes nothing (and a trigger
  // refuses any later change of it). The escrow must be empty by then (ledger_accounts_resolved_check).
  const resolveEscrow = client.prepare<[number, 'released' | 'returned', number]>(
    `UPDATE ledger_accounts SET resolved_at = ?, resolution = ?
     WHERE id = ? AND kind = 'trade_escrow' AND resolved_at IS NULL`,
  );
  const insertAudit = client.prepare<{
    transactionId: number;
    operation: string;
    actorType: 'user' | 'system' | 'operator';
    actorUserId: number | null;
    actorName: string | null;
    requestId: string | null;
    at: number;
  }>(
    `INSERT INTO ledger_audit (transaction_id, operation, actor_type, actor_user_id, actor_name, request_id, created_at)
     VALUES (@transactionId, @operation, @actorType, @actorUserId, @actorName, @requestId, @at)`,
  );

  return {
    insertPosting: (transactionId: number, accountId: number, currency: LedgerCurrency, amount: number) =>
      insertPosting.run(transactionId, accountId, currency, amount),
    addToBalance: (accountId: number, amount: number) => addToBalance.run(amount, accountId),
    /** False when the escrow was resolved already. */
    resolveEscrow: (accountId: number, resolution: 'released' | 'returned', at: number) =>
      resolveEscrow.run(at, resolution, accountId).changes === 1,
    insertAudit: (values: Parameters<typeof insertAudit.run>[0]) => insertAudit.run(values),
  };
}

/** Reads for callers and views: postings of a transaction, public ids, balances, history. */
function readings(client: Db['$client']) {
  const postingsOf = client.prepare<[number], PostingRow>(
    `SELECT p.account_id AS accountId, a.kind, a.owner_id AS ownerId, a.reference, p.currency, p.amount
     FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id
     WHERE p.transaction_id = ? ORDER BY p.id`,
  );
  const publicIdsOf = client.prepare<[string], { id: number; publicId: string }>(
    'SELECT id, public_id AS publicId FROM users WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id',
  );
  const balancesOf = client.prepare<[number], { currency: LedgerCurrency; balance: number }>(
    `SELECT currency, balance FROM ledger_accounts WHERE kind = 'user_wallet' AND owner_id = ?`,
  );
  // A user's history: the transactions that touched their wallets, newest first, with the signed
  // sum per currency. Pages by the internal id (transactions are append-only, so a page never shifts).
  const historyOf = client.prepare<{ userId: number; before: number; limit: number }, HistoryRow>(
    `WITH page AS (
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
     GROUP BY t.id, p.currency ORDER BY t.id DESC, p.currency`,
  );

  return {
    postingsOf: (transactionId: number) => postingsOf.all(transactionId),
    publicIdsOf: (userIds: number[]) => publicIdsOf.all(JSON.stringify(userIds)),
    balancesOf: (userId: number) => balancesOf.all(userId),
    historyOf: (userId: number, before: number, limit: number) => historyOf.all({ userId, before, limit }),
  };
}

/** The statements themselves, synchronous: for the body of the ledger's own transaction. */
export function createLedgerStatements(db: Db) {
  const client = db.$client;
  return { ...accounts(client), ...transactions(client), ...movements(client), ...readings(client) };
}

export type LedgerStatements = ReturnType<typeof createLedgerStatements>;

/** The ledger's statements as the asynchronous repository, each call waiting for the connection's gate. */
export function createLedgerRepository(db: Db) {
  return gated(db, { db, ...createLedgerStatements(db) });
}

export type LedgerRepository = ReturnType<typeof createLedgerRepository>;
