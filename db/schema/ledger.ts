import { sql } from 'drizzle-orm';
import { LEDGER_TRANSACTION_KINDS } from '../../src/lib/shared/ledger-kinds.ts';
import { check, foreignKey, index, integer, isInteger, table, text, uniqueIndex, uniqueKey } from './dialect.ts';
import { users } from './users.ts';

// The wallet ledger (issue 5; ARCHITECTURE.md "Money and the ledger"): append-only double entry in
// integer minor units (satoshi for BTC, micro-tether for USDT). Only server/services/ledger/ writes
// these tables. What must hold even if that code has a bug is a constraint here, not a check in
// TypeScript: no user wallet or escrow below zero, integers only, a posting's currency is its
// account's, a resolved escrow is empty, postings and transactions are never updated or deleted
// (triggers in the migration 0009_ledger.sql, which drizzle-kit does not model).

export const LEDGER_CURRENCIES = ['BTC', 'USDT'] as const;
export type LedgerCurrency = (typeof LEDGER_CURRENCIES)[number];

/**
 * - user_wallet: one per user and currency, never negative.
 * - trade_escrow: one per trade and currency (reference = the trade's public id), owned by the seller
 *   who locked it; never negative; leaves exactly once (released or returned), then stays at zero.
 * - affiliate_earnings: one per affiliate and currency, their share of referred people's fees
 *   (issue 20); never negative, moved into their wallet by a payout.
 * - merchant_balance: one per merchant and currency, what its trades as buyer brought in (issue 21);
 *   never negative, settled into its wallet.
 * - kiosk_balance: one per kiosk and currency, the float it sells over the counter (issue 21); never
 *   negative, funded from and withdrawn to its wallet.
 * - fee_income: the platform's fees; never negative.
 * - conversion_desk: the other side of conversions between BTC and USDT. It may go negative: its
 *   position is hedged at an exchange outside this ledger (spec section 3, "Wallet and hedging").
 * - chain_in / chain_out: the blockchain seen from here. Deposits leave chain_in (negative: what
 *   came in from outside), sendouts arrive in chain_out; both mirror the outside world.
 */
export const LEDGER_ACCOUNT_KINDS = [
  'user_wallet',
  'trade_escrow',
  'affiliate_earnings',
  'merchant_balance',
  'kiosk_balance',
  'fee_income',
  'conversion_desk',
  'chain_in',
  'chain_out',
] as const;
export type LedgerAccountKind = (typeof LEDGER_ACCOUNT_KINDS)[number];

/** The kinds a person owns, one account per person and currency. */
export const OWNED_ACCOUNT_KINDS = ['user_wallet', 'affiliate_earnings', 'merchant_balance', 'kiosk_balance'] as const;

/** The kinds whose balance may go below zero; `allow_negative` may be set on these only. */
export const NEGATIVE_ALLOWED_KINDS = ['conversion_desk', 'chain_in', 'chain_out'] as const;

// The kinds live in src/lib so the wallet's history table names them without loading Drizzle.
export { LEDGER_TRANSACTION_KINDS, type LedgerTransactionKind } from '../../src/lib/shared/ledger-kinds.ts';

const quoted = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

export const ledgerAccounts = table(
  'ledger_accounts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind', { enum: LEDGER_ACCOUNT_KINDS }).notNull(),
    /** The user of a wallet; the seller of an escrow; null for the platform's accounts. */
    ownerId: integer('owner_id').references(() => users.id),
    currency: text('currency', { enum: LEDGER_CURRENCIES }).notNull(),
    /** The trade's public id for an escrow; null otherwise. */
    reference: text('reference'),
    /** Sum of this account's postings, kept in the statement set that writes them. */
    balance: integer('balance').notNull().default(0),
    allowNegative: integer('allow_negative', { mode: 'boolean' }).notNull().default(false),
    /** Escrows: when the funds left (released or returned); set once, guarded `WHERE resolved_at IS NULL`. */
    resolvedAt: integer('resolved_at'),
    resolution: text('resolution', { enum: ['released', 'returned'] }),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    // SQLite treats NULLs as distinct in a unique index, so "unique (kind, owner, currency,
    // reference)" is one partial index per shape of account.
    uniqueIndex('ledger_accounts_wallet_uq').on(t.ownerId, t.currency).where(sql`${t.kind} = 'user_wallet'`),
    uniqueIndex('ledger_accounts_affiliate_uq').on(t.ownerId, t.currency).where(sql`${t.kind} = 'affiliate_earnings'`),
    uniqueIndex('ledger_accounts_merchant_uq').on(t.ownerId, t.currency).where(sql`${t.kind} = 'merchant_balance'`),
    uniqueIndex('ledger_accounts_kiosk_uq').on(t.ownerId, t.currency).where(sql`${t.kind} = 'kiosk_balance'`),
    uniqueIndex('ledger_accounts_escrow_uq').on(t.reference, t.currency).where(sql`${t.kind} = 'trade_escrow'`),
    uniqueIndex('ledger_accounts_system_uq')
      .on(t.kind, t.currency)
      .where(sql`${t.kind} NOT IN (${quoted([...OWNED_ACCOUNT_KINDS, 'trade_escrow'])})`),
    // Target of the postings' (account_id, currency) foreign key: a posting's currency is its account's.
    uniqueKey('ledger_accounts_id_currency_uq').on(t.id, t.currency),
    index('ledger_accounts_owner_idx').on(t.ownerId),
    // The guard of the issue: "user balances never go negative (guarded in SQL, not only in code)".
    check('ledger_accounts_balance_check', sql`${t.balance} >= 0 OR ${t.allowNegative} = 1`),
    check('ledger_accounts_integer_check', sql`${isInteger(t.balance)} AND abs(${t.balance}) <= 9007199254740991`),
    check(
      'ledger_accounts_negative_kind_check',
      sql`${t.allowNegative} = 0 OR ${t.kind} IN (${quoted(NEGATIVE_ALLOWED_KINDS)})`,
    ),
    check(
      'ledger_accounts_shape_check',
      sql`CASE
        WHEN ${t.kind} IN (${quoted(OWNED_ACCOUNT_KINDS)}) THEN ${t.ownerId} IS NOT NULL AND ${t.reference} IS NULL
        WHEN ${t.kind} = 'trade_escrow' THEN ${t.reference} IS NOT NULL
        ELSE ${t.ownerId} IS NULL AND ${t.reference} IS NULL END`,
    ),
    // Only escrows resolve, once, and a resolved escrow holds nothing: no posting can refill it.
    check(
      'ledger_accounts_resolved_check',
      sql`(${t.resolvedAt} IS NULL AND ${t.resolution} IS NULL) OR (${t.kind} = 'trade_escrow' AND ${t.resolvedAt} IS NOT NULL AND ${t.resolution} IS NOT NULL AND ${t.balance} = 0)`,
    ),
  ],
);

export const ledgerTransactions = table(
  'ledger_transactions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** `ltx_…`; the row id stays internal. */
    publicId: text('public_id').notNull().unique(),
    kind: text('kind', { enum: LEDGER_TRANSACTION_KINDS }).notNull(),
    /** The caller's key: a retry with the same key returns this transaction and changes nothing. */
    idempotencyKey: text('idempotency_key').notNull().unique(),
    /** SHA-256 of the operation's parameters: the same key with other parameters is refused. */
    fingerprint: text('fingerprint').notNull(),
    memo: text('memo'),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('ledger_transactions_kind_idx').on(t.kind)],
);

export const ledgerPostings = table(
  'ledger_postings',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    transactionId: integer('transaction_id')
      .notNull()
      .references(() => ledgerTransactions.id),
    accountId: integer('account_id').notNull(),
    currency: text('currency', { enum: LEDGER_CURRENCIES }).notNull(),
    /** Signed minor units: positive credits the account, negative debits it. */
    amount: integer('amount').notNull(),
  },
  (t) => [
    foreignKey({
      name: 'ledger_postings_account_fk',
      columns: [t.accountId, t.currency],
      foreignColumns: [ledgerAccounts.id, ledgerAccounts.currency],
    }),
    index('ledger_postings_transaction_idx').on(t.transactionId),
    // A user's history: their wallets' postings, newest transaction first.
    index('ledger_postings_account_idx').on(t.accountId, t.transactionId),
    check('ledger_postings_amount_check', sql`${isInteger(t.amount)} AND ${t.amount} <> 0`),
  ],
);

/** Who did what through which request: one row per committed ledger operation, same transaction. */
export const ledgerAudit = table(
  'ledger_audit',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    transactionId: integer('transaction_id')
      .notNull()
      .references(() => ledgerTransactions.id),
    operation: text('operation').notNull(),
    /** `user`, `system` (a job, the chain watcher) or `operator` (the admin CLI). */
    actorType: text('actor_type', { enum: ['user', 'system', 'operator'] }).notNull(),
    actorUserId: integer('actor_user_id').references(() => users.id),
    actorName: text('actor_name'),
    requestId: text('request_id'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('ledger_audit_transaction_idx').on(t.transactionId)],
);
