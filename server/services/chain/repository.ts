import { gated } from '../../../db/access.ts';
import type { Db } from '../../../db/client.ts';
import type { ChainNetwork, ChainTxStatus, LedgerCurrency } from '../../../db/schema/index.ts';

// SQL of chain transactions and the chain state, prepared once per database. Every write sets
// `seq` to one more than the largest so far, inside the statement and so under SQLite's write
// lock: seq follows commit order, which lets a process find the rows another one changed.

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

/** Chain transactions looked up one at a time or by status. */
function txReads(client: Db['$client']) {
  const byId = client.prepare<[number], ChainTxRow>(`SELECT ${COLUMNS} FROM chain_transactions WHERE id = ?`);
  const byPublicId = client.prepare<[string], ChainTxRow>(
    `SELECT ${COLUMNS} FROM chain_transactions WHERE public_id = ?`,
  );
  const byKey = client.prepare<[string], ChainTxRow>(
    `SELECT ${COLUMNS} FROM chain_transactions WHERE idempotency_key = ?`,
  );
  const byOutput = client.prepare<[ChainNetwork, string, number], ChainTxRow>(
    `SELECT ${COLUMNS} FROM chain_transactions WHERE direction = 'in' AND network = ? AND txid = ? AND vout = ?`,
  );
  const open = client.prepare<[ChainTxStatus], ChainTxRow>(
    `SELECT ${COLUMNS} FROM chain_transactions
     WHERE status IN ('incoming', 'pending', 'broadcast') AND status = ? ORDER BY id`,
  );

  return {
    byId: (id: number) => byId.get(id),
    byPublicId: (publicId: string) => byPublicId.get(publicId),
    byKey: (key: string) => byKey.get(key),
    byOutput: (network: ChainNetwork, txid: string, vout: number) => byOutput.get(network, txid, vout),
    open: (status: 'incoming' | 'pending' | 'broadcast') => open.all(status),
  };
}

/** Chain transactions inserted and moved along their statuses. */
function txWrites(client: Db['$client']) {
  const insertDeposit = client.prepare<NewDeposit, ChainTxRow>(
    `INSERT INTO chain_transactions (public_id, direction, currency, network, user_id, address, amount, txid, vout,
       block_height, confirmations, required_confirmations, status, simulated, seq, created_at, updated_at)
     VALUES (@publicId, 'in', @currency, @network, @userId, @address, @amount, @txid, @vout, @blockHeight,
       @confirmations, @requiredConfirmations, 'incoming', @simulated, ${NEXT_SEQ}, @at, @at)
     RETURNING ${COLUMNS}`,
  );
  const insertSendout = client.prepare<NewSendout, ChainTxRow>(
    `INSERT INTO chain_transactions (public_id, direction, currency, network, user_id, address, amount, fee,
       required_confirmations, status, ledger_transaction_id, idempotency_key, seq, created_at, updated_at)
     VALUES (@publicId, 'out', @currency, @network, @userId, @address, @amount, @fee, @requiredConfirmations,
       'pending', @ledgerTransactionId, @idempotencyKey, ${NEXT_SEQ}, @at, @at)
     RETURNING ${COLUMNS}`,
  );
  // Only while open, and only when something changed: a scan repeating itself writes nothing.
  const observe = client.prepare<{ id: number; confirmations: number; blockHeight: number | null; at: number }>(
    `UPDATE chain_transactions SET confirmations = @confirmations, block_height = @blockHeight,
       updated_at = @at, seq = ${NEXT_SEQ}
     WHERE id = @id AND status IN ('incoming', 'broadcast')
       AND (confirmations <> @confirmations OR block_height IS NOT @blockHeight)`,
  );
  const confirmDeposit = client.prepare<[number, number, number, number]>(
    `UPDATE chain_transactions SET status = 'confirmed', ledger_transaction_id = ?, settled_at = ?, updated_at = ?,
       seq = ${NEXT_SEQ}
     WHERE id = ? AND direction = 'in' AND status = 'incoming'`,
  );
  const failDeposit = client.prepare<[string, number, number, number]>(
    `UPDATE chain_transactions SET status = 'failed', failure_reason = ?, settled_at = ?, updated_at = ?,
       seq = ${NEXT_SEQ}
     WHERE id = ? AND direction = 'in' AND status = 'incoming'`,
  );
  // Taken before the node is asked: a second worker (or a retry after a crash) finds it taken.
  const claimBroadcast = client.prepare<[number, number]>(
    `UPDATE chain_transactions SET broadcast_started_at = ?
     WHERE id = ? AND direction = 'out' AND status = 'pending' AND broadcast_started_at IS NULL`,
  );
  const markBroadcast = client.prepare<[string, number, number, number]>(
    `UPDATE chain_transactions SET status = 'broadcast', txid = ?, simulated = ?, updated_at = ?, seq = ${NEXT_SEQ}
     WHERE id = ? AND direction = 'out' AND status = 'pending'`,
  );
  const confirmSendout = client.prepare<[number, number, number]>(
    `UPDATE chain_transactions SET status = 'confirmed', settled_at = ?, updated_at = ?, seq = ${NEXT_SEQ}
     WHERE id = ? AND direction = 'out' AND status = 'broadcast'`,
  );
  const failSendout = client.prepare<[number, string, number, number, number]>(
    `UPDATE chain_transactions SET status = 'failed', return_transaction_id = ?, failure_reason = ?, settled_at = ?,
       updated_at = ?, seq = ${NEXT_SEQ}
     WHERE id = ? AND direction = 'out' AND status IN ('pending', 'broadcast')`,
  );

  return {
    insertDeposit: (row: NewDeposit) => insertDeposit.get(row) as ChainTxRow,
    insertSendout: (row: NewSendout) => insertSendout.get(row) as ChainTxRow,
    observe: (id: number, confirmations: number, blockHeight: number | null, at: number) =>
      observe.run({ id, confirmations, blockHeight, at }).changes === 1,
    confirmDeposit: (id: number, ledgerTxId: number, at: number) =>
      confirmDeposit.run(ledgerTxId, at, at, id).changes === 1,
    failDeposit: (id: number, reason: string, at: number) => failDeposit.run(reason, at, at, id).changes === 1,
    claimBroadcast: (id: number, at: number) => claimBroadcast.run(at, id).changes === 1,
    markBroadcast: (id: number, txid: string, simulated: boolean, at: number) =>
      markBroadcast.run(txid, simulated ? 1 : 0, at, id).changes === 1,
    confirmSendout: (id: number, at: number) => confirmSendout.run(at, at, id).changes === 1,
    failSendout: (id: number, returnTxId: number, reason: string, at: number) =>
      failSendout.run(returnTxId, reason, at, at, id).changes === 1,
  };
}

/** What changed since a seq, and the sums and ids other services read alongside. */
function changeTracking(client: Db['$client']) {
  const changedSince = client.prepare<[number], { userId: number; publicId: string; seq: number }>(
    `SELECT c.user_id AS userId, u.public_id AS publicId, c.seq FROM chain_transactions c
     JOIN users u ON u.id = c.user_id WHERE c.seq > ? ORDER BY c.seq`,
  );
  const incoming = client.prepare<[number], { currency: LedgerCurrency; total: number }>(
    `SELECT currency, sum(amount) AS total FROM chain_transactions
     WHERE user_id = ? AND status = 'incoming' GROUP BY currency`,
  );
  const maxSeq = client.prepare<[], number>('SELECT coalesce(max(seq), 0) FROM chain_transactions').pluck();
  const ledgerIdOf = client.prepare<[string], number>('SELECT id FROM ledger_transactions WHERE public_id = ?').pluck();

  return {
    changedSince: (seq: number) => changedSince.all(seq),
    maxSeq: () => maxSeq.get() ?? 0,
    incomingOf: (userId: number) => incoming.all(userId),
    ledgerIdOf: (publicId: string) => ledgerIdOf.get(publicId) as number,
  };
}

/** The per-network row: height, simulated block clock and the node's scan cursor. */
function chainState(client: Db['$client']) {
  const state = client.prepare<[ChainNetwork], ChainStateRow>(
    `SELECT network, height, last_block_at AS lastBlockAt, cursor, updated_at AS updatedAt
     FROM chain_state WHERE network = ?`,
  );
  const initState = client.prepare<[ChainNetwork, number | null, number]>(
    'INSERT INTO chain_state (network, height, last_block_at, updated_at) VALUES (?, 0, ?, ?) ON CONFLICT DO NOTHING',
  );
  // Guarded on the height read: two processes advancing the same clock cannot both mine a block.
  const advance = client.prepare<[number, number | null, number, ChainNetwork, number]>(
    'UPDATE chain_state SET height = ?, last_block_at = ?, updated_at = ? WHERE network = ? AND height = ?',
  );
  const setCursor = client.prepare<{ network: ChainNetwork; cursor: string | null; height: number; at: number }>(
    `INSERT INTO chain_state (network, height, cursor, updated_at) VALUES (@network, @height, @cursor, @at)
     ON CONFLICT (network) DO UPDATE SET cursor = @cursor, height = max(height, @height), updated_at = @at`,
  );

  return {
    state: (network: ChainNetwork) => state.get(network),
    /** The network's row, created at height 0 with its clock starting `at` (simulated) on first use. */
    ensureState: (network: ChainNetwork, lastBlockAt: number | null, at: number): ChainStateRow => {
      initState.run(network, lastBlockAt, at);
      return state.get(network) as ChainStateRow;
    },
    advance: (network: ChainNetwork, fromHeight: number, toHeight: number, lastBlockAt: number | null, at: number) =>
      advance.run(toHeight, lastBlockAt, at, network, fromHeight).changes === 1,
    setCursor: (network: ChainNetwork, cursor: string | null, height: number, at: number) =>
      setCursor.run({ network, cursor, height, at }),
  };
}

/** Simulated chain only: mining the mempool and finding its transactions. */
function simulation(client: Db['$client']) {
  // Simulated mining: everything of this network waiting in the mempool enters the new block.
  const includeMempool = client.prepare<[number, number, ChainNetwork]>(
    `UPDATE chain_transactions SET block_height = ?, updated_at = ?, seq = ${NEXT_SEQ}
     WHERE network = ? AND simulated = 1 AND block_height IS NULL AND status IN ('incoming', 'broadcast')`,
  );
  const simulatedOpen = client.prepare<[ChainNetwork], ChainTxRow>(
    `SELECT ${COLUMNS} FROM chain_transactions
     WHERE status IN ('incoming', 'pending', 'broadcast') AND simulated = 1 AND direction = 'in' AND network = ?`,
  );
  const simulatedByTxid = client.prepare<[ChainNetwork, string], ChainTxRow>(
    `SELECT ${COLUMNS} FROM chain_transactions WHERE network = ? AND txid = ? AND simulated = 1 LIMIT 1`,
  );

  return {
    includeMempool: (network: ChainNetwork, height: number, at: number) =>
      includeMempool.run(height, at, network).changes,
    simulatedOpenDeposits: (network: ChainNetwork) => simulatedOpen.all(network),
    simulatedByTxid: (network: ChainNetwork, txid: string) => simulatedByTxid.get(network, txid),
  };
}

/** The statements themselves, synchronous: for the simulated chain's own mining transaction. */
export function createChainStatements(db: Db) {
  const client = db.$client;
  return {
    ...txReads(client),
    ...txWrites(client),
    ...changeTracking(client),
    ...chainState(client),
    ...simulation(client),
  };
}

export type ChainStatements = ReturnType<typeof createChainStatements>;

/** The chain's statements as the asynchronous repository, each call waiting for the connection's gate. */
export function createChainRepository(db: Db) {
  return gated(db, { db, ...createChainStatements(db) });
}

export type ChainRepository = ReturnType<typeof createChainRepository>;
