import { sql } from 'drizzle-orm';
import { type Column, check, index, integer, isInteger, table, text, uniqueIndex } from './dialect.ts';
import { LEDGER_CURRENCIES, ledgerTransactions } from './ledger.ts';
import { users } from './users.ts';

// The wallet's view of the blockchains (issue 5): which deposit address belongs to whom, and every
// coin movement on a chain, in or out. Money itself lives in the ledger (db/schema/ledger.ts); a
// chain transaction points at the ledger transactions it caused. Only server/services/chain/ and
// server/services/wallet/ write these tables.

/**
 * `bitcoin` for BTC; TRON's `TRC20` and Ethereum's `ERC20` for USDT. Deposits arrive on bitcoin
 * and TRC20 only (docs/decisions/056-wallet-chains-confirmations-deposits.md); ERC20 is a sendout destination.
 */
export const CHAIN_NETWORKS = ['bitcoin', 'TRC20', 'ERC20'] as const;
export type ChainNetwork = (typeof CHAIN_NETWORKS)[number];
export const DEPOSIT_NETWORKS = ['bitcoin', 'TRC20'] as const;
export type DepositNetwork = (typeof DEPOSIT_NETWORKS)[number];

/** Deposits: incoming → confirmed (credited) or failed (dropped from the chain, never credited). */
export const DEPOSIT_STATUSES = ['incoming', 'confirmed', 'failed'] as const;
/** Sendouts: pending (debited, held) → broadcast → confirmed, or failed (returned to the wallet). */
export const SENDOUT_STATUSES = ['pending', 'broadcast', 'confirmed', 'failed'] as const;
export const CHAIN_TX_STATUSES = ['incoming', 'pending', 'broadcast', 'confirmed', 'failed'] as const;
export type ChainTxStatus = (typeof CHAIN_TX_STATUSES)[number];

const quoted = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));
/** The currency a network carries: BTC on bitcoin, USDT on TRC20 and ERC20. */
const currencyMatchesNetwork = (currency: Column, network: Column) =>
  sql`(${currency} = 'BTC' AND ${network} = 'bitcoin') OR (${currency} = 'USDT' AND ${network} IN ('TRC20', 'ERC20'))`;

export const depositAddresses = table(
  'deposit_addresses',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    currency: text('currency', { enum: LEDGER_CURRENCIES }).notNull(),
    network: text('network', { enum: DEPOSIT_NETWORKS }).notNull(),
    address: text('address').notNull().unique(),
    /** The BIP32 child index under the account key's receive chain (…/0/index). */
    derivationIndex: integer('derivation_index').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    // One current address per user and currency; a later rotation would turn this into a flag.
    uniqueIndex('deposit_addresses_user_currency_uq').on(t.userId, t.currency),
    // An index is handed out once per network, so two people never share an address.
    uniqueIndex('deposit_addresses_network_index_uq').on(t.network, t.derivationIndex),
    check(
      'deposit_addresses_network_check',
      sql`(${t.currency} = 'BTC' AND ${t.network} = 'bitcoin') OR (${t.currency} = 'USDT' AND ${t.network} = 'TRC20')`,
    ),
    check(
      'deposit_addresses_index_check',
      sql`${isInteger(t.derivationIndex)} AND ${t.derivationIndex} BETWEEN 0 AND 2147483647`,
    ),
  ],
);

export const chainTransactions = table(
  'chain_transactions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** `chn_…`, what the API shows for a sendout before it has a txid. */
    publicId: text('public_id').notNull().unique(),
    direction: text('direction', { enum: ['in', 'out'] }).notNull(),
    currency: text('currency', { enum: LEDGER_CURRENCIES }).notNull(),
    network: text('network', { enum: CHAIN_NETWORKS }).notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** Deposits: our deposit address; sendouts: the destination. */
    address: text('address').notNull(),
    /** Minor units (satoshi, micro-tether) the address received or is sent, fee excluded. */
    amount: integer('amount').notNull(),
    /** Sendouts: the network fee charged on top of the amount; 0 for deposits. */
    fee: integer('fee').notNull().default(0),
    /** Null while a sendout waits for its broadcast. */
    txid: text('txid'),
    /** The output (bitcoin) or transfer (TRC-20 log) index within the transaction. */
    vout: integer('vout'),
    /** Height of the block that included it; null while in the mempool. */
    blockHeight: integer('block_height'),
    confirmations: integer('confirmations').notNull().default(0),
    /** Fixed at creation, so changing the policy never re-opens settled rows. */
    requiredConfirmations: integer('required_confirmations').notNull(),
    status: text('status', { enum: CHAIN_TX_STATUSES }).notNull(),
    /** Deposit: the credit, set with `confirmed`. Sendout: the debit into the chain_out hold. */
    ledgerTransactionId: integer('ledger_transaction_id').references(() => ledgerTransactions.id),
    /** Failed sendout: the posting that returned the hold to the wallet. */
    returnTransactionId: integer('return_transaction_id').references(() => ledgerTransactions.id),
    /** Sendouts: `sendout:<user id>:<request_id>`; a retry finds its first request. */
    idempotencyKey: text('idempotency_key').unique(),
    /** Created by the simulated chain (admin `chain:deposit` or a simulated broadcast). */
    simulated: integer('simulated', { mode: 'boolean' }).notNull().default(false),
    /** Set before a sendout is handed to the node: an attempt with an unknown outcome is never repeated. */
    broadcastStartedAt: integer('broadcast_started_at'),
    failureReason: text('failure_reason'),
    /**
     * Rises with every write, in commit order (assigned under the write lock): the chain job
     * announces rows changed by other processes (the admin CLI) by reading past its last `seq`.
     */
    seq: integer('seq').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    /** When it reached `confirmed` or `failed`. */
    settledAt: integer('settled_at'),
  },
  (t) => [
    // The same output is one deposit, however often a scan reports it.
    uniqueIndex('chain_transactions_output_uq').on(t.network, t.txid, t.vout).where(sql`${t.direction} = 'in'`),
    index('chain_transactions_user_idx').on(t.userId, t.status),
    // The chain job's work list: what is not settled yet.
    index('chain_transactions_open_idx').on(t.status).where(sql`${t.status} IN ('incoming', 'pending', 'broadcast')`),
    index('chain_transactions_seq_idx').on(t.seq),
    index('chain_transactions_ledger_idx').on(t.ledgerTransactionId),
    index('chain_transactions_return_idx').on(t.returnTransactionId),
    check('chain_transactions_network_check', currencyMatchesNetwork(t.currency, t.network)),
    check(
      'chain_transactions_status_check',
      sql`(${t.direction} = 'in' AND ${t.status} IN (${quoted(DEPOSIT_STATUSES)}) AND ${t.network} <> 'ERC20')
        OR (${t.direction} = 'out' AND ${t.status} IN (${quoted(SENDOUT_STATUSES)}))`,
    ),
    check(
      'chain_transactions_amount_check',
      sql`${isInteger(t.amount)} AND ${t.amount} > 0 AND ${isInteger(t.fee)} AND ${t.fee} >= 0`,
    ),
    // Money and state agree: a confirmed deposit was credited, an incoming one not yet; every
    // sendout was debited; a failed sendout was returned, and only a failed one.
    check(
      'chain_transactions_ledger_check',
      sql`CASE ${t.direction}
        WHEN 'in' THEN (${t.status} = 'confirmed') = (${t.ledgerTransactionId} IS NOT NULL) AND ${t.returnTransactionId} IS NULL
        ELSE ${t.ledgerTransactionId} IS NOT NULL AND (${t.status} = 'failed') = (${t.returnTransactionId} IS NOT NULL) END`,
    ),
    // A deposit is an output of a transaction on the chain; a sendout has a txid once broadcast.
    check(
      'chain_transactions_txid_check',
      sql`CASE ${t.direction}
        WHEN 'in' THEN ${t.txid} IS NOT NULL AND ${t.vout} IS NOT NULL
        ELSE ${t.status} IN ('pending', 'failed') OR ${t.txid} IS NOT NULL END`,
    ),
  ],
);

/** One row per network: the tip this server knows and, for the simulated chain, its block clock. */
export const chainState = table('chain_state', {
  network: text('network', { enum: CHAIN_NETWORKS }).primaryKey(),
  height: integer('height').notNull().default(0),
  /** Simulated chain: when its last block was mined (ms); the next is due CHAIN_BLOCK_SECONDS later. */
  lastBlockAt: integer('last_block_at'),
  /** bitcoind: the block hash `listsinceblock` continues from. */
  cursor: text('cursor'),
  updatedAt: integer('updated_at').notNull(),
});
