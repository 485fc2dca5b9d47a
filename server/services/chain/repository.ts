import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import type { ChainNetwork, ChainTxStatus, LedgerCurrency } from '../../../db/schema/index.ts';
import type { SqlClient } from '../../../db/sql-client.ts';

// SQL of chain transactions and the chain state, in the portable text both engines run
// (db/sql-client.ts), each statement prepared once by its text. Every write sets `seq` to one
// more than the largest so far, inside the statement and under the write's lock (seqSafe): seq
// follows commit order, which lets a process find the rows another one changed.

export interface ChainTxRow {
  id: number;
  publicId: string;
  direction: 'in' | 'out';
  currency: LedgerCurrency;
  network: ChainNetwork;
  userId: number;
  address: string;
  amount: number;
  fee: number;
  txid: string | null;
  vout: number | null;
  blockHeight: number | null;
  confirmations: number;
  requiredConfirmations: number;
  status: ChainTxStatus;
  ledgerTransactionId: number | null;
  returnTransactionId: number | null;
  idempotencyKey: string | null;
  simulated: number;
  broadcastStartedAt: number | null;
  failureReason: string | null;
  seq: number;
  createdAt: number;
  updatedAt: number;
  settledAt: number | null;
}

export interface ChainStateRow {
  network: ChainNetwork;
  height: number;
  lastBlockAt: number | null;
  cursor: string | null;
  updatedAt: number;
}

const COLUMNS = `id, public_id AS publicId, direction, currency, network, user_id AS userId, address, amount, fee,
  txid, vout, block_height AS blockHeight, confirmations, required_confirmations AS requiredConfirmations, status,
  ledger_transaction_id AS ledgerTransactionId, return_transaction_id AS returnTransactionId,
  idempotency_key AS idempotencyKey, simulated, broadcast_started_at AS broadcastStartedAt,
  failure_reason AS failureReason, seq, created_at AS createdAt, updated_at AS updatedAt, settled_at AS settledAt`;
const NEXT_SEQ = '(SELECT coalesce(max(seq), 0) + 1 FROM chain_transactions)';

/** What every new chain transaction names: whose, which address, how much, how deep it must be. */
interface NewChainTx {
  publicId: string;
  currency: LedgerCurrency;
  network: ChainNetwork;
  userId: number;
  address: string;
  amount: number;
  requiredConfirmations: number;
  at: number;
}

export interface NewDeposit extends NewChainTx {
  txid: string;
  vout: number;
  blockHeight: number | null;
  confirmations: number;
  simulated: number;
}

export interface NewSendout extends NewChainTx {
  fee: number;
  ledgerTransactionId: number;
  idempotencyKey: string;
}

const BY_ID = `SELECT ${COLUMNS} FROM chain_transactions WHERE id = ?`;
const BY_PUBLIC_ID = `SELECT ${COLUMNS} FROM chain_transactions WHERE public_id = ?`;
const BY_KEY = `SELECT ${COLUMNS} FROM chain_transactions WHERE idempotency_key = ?`;
const BY_OUTPUT = `SELECT ${COLUMNS} FROM chain_transactions
  WHERE direction = 'in' AND network = ? AND txid = ? AND vout = ?`;
const OPEN = `SELECT ${COLUMNS} FROM chain_transactions
  WHERE status IN ('incoming', 'pending', 'broadcast') AND status = ? ORDER BY id`;

/** Chain transactions looked up one at a time or by status. */
function txReads(sql: SqlClient) {
  return {
    byId: (id: number) => sql.get<ChainTxRow>(BY_ID, [id]),
    byPublicId: (publicId: string) => sql.get<ChainTxRow>(BY_PUBLIC_ID, [publicId]),
    byKey: (key: string) => sql.get<ChainTxRow>(BY_KEY, [key]),
    byOutput: (network: ChainNetwork, txid: string, vout: number) =>
      sql.get<ChainTxRow>(BY_OUTPUT, [network, txid, vout]),
    open: (status: 'incoming' | 'pending' | 'broadcast') => sql.all<ChainTxRow>(OPEN, [status]),
  };
}

const INSERT_DEPOSIT = `INSERT INTO chain_transactions (public_id, direction, currency, network, user_id, address,
    amount, txid, vout, block_height, confirmations, required_confirmations, status, simulated, seq, created_at,
    updated_at)
  VALUES (@publicId, 'in', @currency, @network, @userId, @address, @amount, @txid, @vout, @blockHeight,
    @confirmations, @requiredConfirmations, 'incoming', @simulated, ${NEXT_SEQ}, @at, @at)
  RETURNING ${COLUMNS}`;
const INSERT_SENDOUT = `INSERT INTO chain_transactions (public_id, direction, currency, network, user_id, address,
    amount, fee, required_confirmations, status, ledger_transaction_id, idempotency_key, seq, created_at, updated_at)
  VALUES (@publicId, 'out', @currency, @network, @userId, @address, @amount, @fee, @requiredConfirmations,
    'pending', @ledgerTransactionId, @idempotencyKey, ${NEXT_SEQ}, @at, @at)
  RETURNING ${COLUMNS}`;
// Only while open, and only when something changed: a scan repeating itself writes nothing.
const OBSERVE = `UPDATE chain_transactions SET confirmations = @confirmations, block_height = @blockHeight,
    updated_at = @at, seq = ${NEXT_SEQ}
  WHERE id = @id AND status IN ('incoming', 'broadcast')
    AND (confirmations <> @confirmations OR block_height IS DISTINCT FROM @blockHeight)`;
const CONFIRM_DEPOSIT = `UPDATE chain_transactions SET status = 'confirmed', ledger_transaction_id = ?, settled_at = ?,
    updated_at = ?, seq = ${NEXT_SEQ}
  WHERE id = ? AND direction = 'in' AND status = 'incoming'`;
const FAIL_DEPOSIT = `UPDATE chain_transactions SET status = 'failed', failure_reason = ?, settled_at = ?, updated_at = ?,
    seq = ${NEXT_SEQ}
  WHERE id = ? AND direction = 'in' AND status = 'incoming'`;
// Taken before the node is asked: a second worker (or a retry after a crash) finds it taken.
const CLAIM_BROADCAST = `UPDATE chain_transactions SET broadcast_started_at = ?
  WHERE id = ? AND direction = 'out' AND status = 'pending' AND broadcast_started_at IS NULL`;
const MARK_BROADCAST = `UPDATE chain_transactions SET status = 'broadcast', txid = ?, simulated = ?, updated_at = ?,
    seq = ${NEXT_SEQ}
  WHERE id = ? AND direction = 'out' AND status = 'pending'`;
const CONFIRM_SENDOUT = `UPDATE chain_transactions SET status = 'confirmed', settled_at = ?, updated_at = ?,
    seq = ${NEXT_SEQ}
  WHERE id = ? AND direction = 'out' AND status = 'broadcast'`;
const FAIL_SENDOUT = `UPDATE chain_transactions SET status = 'failed', return_transaction_id = ?, failure_reason = ?,
    settled_at = ?, updated_at = ?, seq = ${NEXT_SEQ}
  WHERE id = ? AND direction = 'out' AND status IN ('pending', 'broadcast')`;

/**
 * Runs a statement that sets `seq` where max(seq) + 1 is safe. SQLite: under its one writer's lock.
 * PostgreSQL: only in a SERIALIZABLE transaction, where two writers that read the same max conflict
 * and one is retried (db/postgres.ts), so seq stays unique and follows commit order; READ COMMITTED
 * would let two racing statements take the same number, so one outside a transaction (the chain
 * job's observe, broadcast and mining) gets a transaction of its own.
 */
function seqSafe(sql: SqlClient) {
  return <T>(statement: () => Promise<T>): Promise<T> =>
    sql.dialect === 'postgres' && !sql.inTransaction() ? sql.transaction(statement) : statement();
}

/** Chain transactions inserted and moved along their statuses. */
function txWrites(sql: SqlClient) {
  const safely = seqSafe(sql);
  const changedOne = async (text: string, args: readonly unknown[]) =>
    (await safely(() => sql.run(text, args))).changes === 1;
  const inserted = async (text: string, row: NewDeposit | NewSendout) =>
    (await safely(() => sql.get<ChainTxRow>(text, [row]))) as ChainTxRow;
  return {
    insertDeposit: (row: NewDeposit) => inserted(INSERT_DEPOSIT, row),
    insertSendout: (row: NewSendout) => inserted(INSERT_SENDOUT, row),
    observe: (id: number, confirmations: number, blockHeight: number | null, at: number) =>
      changedOne(OBSERVE, [{ id, confirmations, blockHeight, at }]),
    confirmDeposit: (id: number, ledgerTxId: number, at: number) =>
      changedOne(CONFIRM_DEPOSIT, [ledgerTxId, at, at, id]),
    failDeposit: (id: number, reason: string, at: number) => changedOne(FAIL_DEPOSIT, [reason, at, at, id]),
    // Sets no seq: a plain statement.
    claimBroadcast: async (id: number, at: number) => (await sql.run(CLAIM_BROADCAST, [at, id])).changes === 1,
    markBroadcast: (id: number, txid: string, simulated: boolean, at: number) =>
      changedOne(MARK_BROADCAST, [txid, simulated ? 1 : 0, at, id]),
    confirmSendout: (id: number, at: number) => changedOne(CONFIRM_SENDOUT, [at, at, id]),
    failSendout: (id: number, returnTxId: number, reason: string, at: number) =>
      changedOne(FAIL_SENDOUT, [returnTxId, reason, at, at, id]),
  };
}

const CHANGED_SINCE = `SELECT c.user_id AS userId, u.public_id AS publicId, c.seq FROM chain_transactions c
  JOIN users u ON u.id = c.user_id WHERE c.seq > ? ORDER BY c.seq`;
const INCOMING = `SELECT currency, sum(amount) AS total FROM chain_transactions
  WHERE user_id = ? AND status = 'incoming' GROUP BY currency`;
const MAX_SEQ = 'SELECT coalesce(max(seq), 0) AS seq FROM chain_transactions';
const LEDGER_ID_OF = 'SELECT id FROM ledger_transactions WHERE public_id = ?';

/** What changed since a seq, and the sums and ids other services read alongside. */
function changeTracking(sql: SqlClient) {
  return {
    changedSince: (seq: number) => sql.all<{ userId: number; publicId: string; seq: number }>(CHANGED_SINCE, [seq]),
    maxSeq: async () => (await sql.get<{ seq: number }>(MAX_SEQ))?.seq ?? 0,
    incomingOf: (userId: number) => sql.all<{ currency: LedgerCurrency; total: number }>(INCOMING, [userId]),
    ledgerIdOf: async (publicId: string) =>
      ((await sql.get<{ id: number }>(LEDGER_ID_OF, [publicId])) as { id: number }).id,
  };
}

const STATE = `SELECT network, height, last_block_at AS lastBlockAt, cursor, updated_at AS updatedAt
  FROM chain_state WHERE network = ?`;
const INIT_STATE = `INSERT INTO chain_state (network, height, last_block_at, updated_at) VALUES (?, 0, ?, ?)
  ON CONFLICT DO NOTHING`;
// Guarded on the height read: two processes advancing the same clock cannot both mine a block.
const ADVANCE = 'UPDATE chain_state SET height = ?, last_block_at = ?, updated_at = ? WHERE network = ? AND height = ?';
// The height never moves back (a scalar max(a, b) is SQLite's only, hence the CASE).
const SET_CURSOR = `INSERT INTO chain_state (network, height, cursor, updated_at) VALUES (@network, @height, @cursor, @at)
  ON CONFLICT (network) DO UPDATE SET cursor = excluded.cursor,
    height = CASE WHEN chain_state.height > excluded.height THEN chain_state.height ELSE excluded.height END,
    updated_at = excluded.updated_at`;

/** The per-network row: height, simulated block clock and the node's scan cursor. */
function chainState(sql: SqlClient) {
  const state = (network: ChainNetwork) => sql.get<ChainStateRow>(STATE, [network]);
  return {
    state,
    /** The network's row, created at height 0 with its clock starting `at` (simulated) on first use. */
    ensureState: async (network: ChainNetwork, lastBlockAt: number | null, at: number): Promise<ChainStateRow> => {
      await sql.run(INIT_STATE, [network, lastBlockAt, at]);
      return (await state(network)) as ChainStateRow;
    },
    advance: async (
      network: ChainNetwork,
      fromHeight: number,
      toHeight: number,
      lastBlockAt: number | null,
      at: number,
    ) => (await sql.run(ADVANCE, [toHeight, lastBlockAt, at, network, fromHeight])).changes === 1,
    setCursor: (network: ChainNetwork, cursor: string | null, height: number, at: number) =>
      sql.run(SET_CURSOR, [{ network, cursor, height, at }]),
  };
}

// Simulated mining: everything of this network waiting in the mempool enters the new block.
const INCLUDE_MEMPOOL = `UPDATE chain_transactions SET block_height = ?, updated_at = ?, seq = ${NEXT_SEQ}
  WHERE network = ? AND simulated = 1 AND block_height IS NULL AND status IN ('incoming', 'broadcast')`;
const SIMULATED_OPEN = `SELECT ${COLUMNS} FROM chain_transactions
  WHERE status IN ('incoming', 'pending', 'broadcast') AND simulated = 1 AND direction = 'in' AND network = ?`;
const SIMULATED_BY_TXID = `SELECT ${COLUMNS} FROM chain_transactions
  WHERE network = ? AND txid = ? AND simulated = 1 LIMIT 1`;

/** Simulated chain only: mining the mempool and finding its transactions. */
function simulation(sql: SqlClient) {
  return {
    includeMempool: async (network: ChainNetwork, height: number, at: number) =>
      (await seqSafe(sql)(() => sql.run(INCLUDE_MEMPOOL, [height, at, network]))).changes,
    simulatedOpenDeposits: (network: ChainNetwork) => sql.all<ChainTxRow>(SIMULATED_OPEN, [network]),
    simulatedByTxid: (network: ChainNetwork, txid: string) => sql.get<ChainTxRow>(SIMULATED_BY_TXID, [network, txid]),
  };
}

/** The chain's statements, on either engine; `db` is the database, for its transactions. */
export function createChainRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const { sql } = database;
  return {
    db: database,
    ...txReads(sql),
    ...txWrites(sql),
    ...changeTracking(sql),
    ...chainState(sql),
    ...simulation(sql),
  };
}

export type ChainRepository = ReturnType<typeof createChainRepository>;
