import { sql } from 'drizzle-orm';
import { TRADE_ACTOR_ROLES, TRADE_STATUSES } from '../../src/lib/shared/views/trades.ts';
import { check, index, integer, table, text, uniqueIndex } from './dialect.ts';
import { offers } from './offers.ts';
import { fiatCurrencies, paymentMethods } from './reference.ts';
import { users } from './users.ts';

// Trades (issue 6; docs/trades.md): a buyer and a seller around one offer, the seller's crypto in
// escrow on the ledger. The status only changes through server/services/trades/state-machine.ts,
// whose every UPDATE names the status it expects, so a transition from a state that no longer
// holds changes nothing.

// The statuses and roles are also the API's (src/lib/shared/views/trades.ts): one list for both.
export {
  TRADE_ACTOR_ROLES,
  TRADE_STATUSES,
  type TradeActorRole,
  type TradeStatus,
} from '../../src/lib/shared/views/trades.ts';

export const trades = table(
  'trades',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Public id: `/trade/{hash}`, 11 base62 characters. */
    hash: text('hash').notNull().unique(),
    offerId: integer('offer_id')
      .notNull()
      .references(() => offers.id),
    /** The offer's type when the trade started: `sell` means its owner sells. */
    offerType: text('offer_type', { enum: ['buy', 'sell'] }).notNull(),
    /** The offer's owner (the vendor who receives the trade) and the person who started it. */
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    responderId: integer('responder_id')
      .notNull()
      .references(() => users.id),
    buyerId: integer('buyer_id')
      .notNull()
      .references(() => users.id),
    sellerId: integer('seller_id')
      .notNull()
      .references(() => users.id),
    cryptoCode: text('crypto_code', { enum: ['BTC', 'USDT'] }).notNull(),
    /** What the buyer receives, in minor units (satoshi, micro-tether). */
    cryptoAmount: integer('crypto_amount').notNull(),
    /** The seller's escrow fee on top, in the same units; escrow holds amount + fee. */
    feeAmount: integer('fee_amount').notNull(),
    feeBasisPoints: integer('fee_basis_points').notNull(),
    /** The ledger reference of the escrow now holding the coins (`hash`, then `hash-r1`… after reopening). */
    escrowRef: text('escrow_ref').notNull(),
    fiatCurrencyId: integer('fiat_currency_id')
      .notNull()
      .references(() => fiatCurrencies.id),
    fiatAmountMinor: integer('fiat_amount_minor').notNull(),
    /** Price of one crypto unit in fiat minor units, as agreed at the start. */
    priceMinor: integer('price_minor').notNull(),
    /** The trade's value in US cents at the start: trading limits add these up. */
    usdAmountCents: integer('usd_amount_cents').notNull(),
    paymentMethodId: integer('payment_method_id')
      .notNull()
      .references(() => paymentMethods.id),
    paymentWindowMinutes: integer('payment_window_minutes').notNull(),
    /** Copies of the offer as it was: a later edit does not change a running trade. */
    offerTerms: text('offer_terms').notNull(),
    paymentDetails: text('payment_details').notNull(),
    tags: text('tags', { mode: 'json' }).$type<string[]>().notNull(),
    payerName: text('payer_name'),
    status: text('status', { enum: TRADE_STATUSES }).notNull(),
    /** Unix ms. */
    startedAt: integer('started_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    paidAt: integer('paid_at'),
    endedAt: integer('ended_at'),
    disputedAt: integer('disputed_at'),
    disputeReasonId: text('dispute_reason_id'),
    disputeText: text('dispute_text'),
    disputeOpenedBy: integer('dispute_opened_by').references(() => users.id),
    resolvedBy: integer('resolved_by').references(() => users.id),
    // The dispute's clocks (issue 24; docs/decisions/154-dispute-deadlines.md), all unix ms, set
    // when a dispute opens and kept after it ends (the public statistics read them): when the
    // counterpart must answer by, when a moderator must take it by, and, once taken, when the
    // decision is due. The escalation job moves them only by an UPDATE that names what it read.
    disputeAnswerDueAt: integer('dispute_answer_due_at'),
    /** When the escalation job found the counterpart's answer missing (once per dispute). */
    disputeAnswerLateAt: integer('dispute_answer_late_at'),
    disputeTakeDueAt: integer('dispute_take_due_at'),
    disputeDecisionDueAt: integer('dispute_decision_due_at'),
    /** The moderator (or administrator) who took the dispute, and when; null while nobody has. */
    disputeModeratorId: integer('dispute_moderator_id').references(() => users.id),
    disputeTakenAt: integer('dispute_taken_at'),
    /** 0 as opened, 1 back to every moderator, 2 with the administrators (decision 155). */
    disputeLevel: integer('dispute_level').notNull().default(0),
    /** The affiliate whose referral's side of this trade earns a share of its fee (issue 20), or null. */
    affiliateId: integer('affiliate_id').references(() => users.id),
    /** Where the starter's request came from: both parties from one address is a warning sign. */
    responderIp: text('responder_ip'),
    /** Bumped by every change; clients compare it to know they missed an event. */
    version: integer('version').notNull().default(1),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('trades_buyer_idx').on(t.buyerId, t.startedAt),
    index('trades_seller_idx').on(t.sellerId, t.startedAt),
    index('trades_offer_idx').on(t.offerId),
    index('trades_status_idx').on(t.status, t.updatedAt),
    // The expiry job's scan: unpaid trades by deadline.
    index('trades_expiry_idx').on(t.expiresAt).where(sql`status = 'active_funded'`),
    check('trades_status_check', sql.raw(`status IN (${TRADE_STATUSES.map((s) => `'${s}'`).join(', ')})`)),
    check('trades_parties_check', sql`${t.buyerId} <> ${t.sellerId}`),
    check('trades_amounts_check', sql`${t.cryptoAmount} > 0 AND ${t.feeAmount} >= 0 AND ${t.fiatAmountMinor} > 0`),
  ],
);

/** The audit trail: one row per transition, written in the transition's transaction. */
export const tradeTransitions = table(
  'trade_transitions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tradeId: integer('trade_id')
      .notNull()
      .references(() => trades.id),
    action: text('action').notNull(),
    fromStatus: text('from_status', { enum: TRADE_STATUSES }),
    toStatus: text('to_status', { enum: TRADE_STATUSES }).notNull(),
    actorId: integer('actor_id').references(() => users.id),
    actorRole: text('actor_role', { enum: TRADE_ACTOR_ROLES }).notNull(),
    /** The ledger transaction this transition posted (`ltx_…`), if any. */
    ledgerTransactionId: text('ledger_transaction_id'),
    note: text('note'),
    at: integer('at').notNull(),
  },
  (t) => [index('trade_transitions_trade_idx').on(t.tradeId, t.id)],
);

/** Files of a trade: chat attachments and proofs for the offer's requirements. */
export const tradeAttachments = table(
  'trade_attachments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    publicId: text('public_id').notNull().unique(),
    tradeId: integer('trade_id')
      .notNull()
      .references(() => trades.id),
    uploaderId: integer('uploader_id')
      .notNull()
      .references(() => users.id),
    /** Server-generated file name under UPLOADS_DIR/trades. */
    storageName: text('storage_name').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    /** Visible to moderators only (spec section 6: `is_for_moderator`). */
    isForModerator: integer('is_for_moderator', { mode: 'boolean' }).notNull().default(false),
    /** Proof documents run pending, then approved or rejected (spec section 4). */
    status: text('status', { enum: ['pending', 'approved', 'rejected'] })
      .notNull()
      .default('pending'),
    reviewedBy: integer('reviewed_by').references(() => users.id),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('trade_attachments_trade_idx').on(t.tradeId)],
);

/** What the offer asks of the counterpart before payment details show, or before marking paid. */
export const tradeRequirements = table(
  'trade_requirements',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tradeId: integer('trade_id')
      .notNull()
      .references(() => trades.id),
    stage: text('stage', { enum: ['before_reveal', 'before_paid'] }).notNull(),
    kind: text('kind').notNull(),
    optional: integer('optional', { mode: 'boolean' }).notNull().default(false),
    status: text('status', { enum: ['pending', 'uploaded', 'rejected'] })
      .notNull()
      .default('pending'),
    attachmentId: integer('attachment_id').references(() => tradeAttachments.id),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('trade_requirements_trade_idx').on(t.tradeId)],
);

/** Chat: stored as text, rendered as text. System lines (status changes) have no author. */
export const tradeMessages = table(
  'trade_messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tradeId: integer('trade_id')
      .notNull()
      .references(() => trades.id),
    authorId: integer('author_id').references(() => users.id),
    authorRole: text('author_role', { enum: TRADE_ACTOR_ROLES }).notNull(),
    body: text('body').notNull(),
    attachmentId: integer('attachment_id').references(() => tradeAttachments.id),
    isForModerator: integer('is_for_moderator', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('trade_messages_trade_idx').on(t.tradeId, t.id)],
);

/** One feedback per trade and side; feedback from the buyer has type sell, from the seller buy. */
export const tradeFeedback = table(
  'trade_feedback',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tradeId: integer('trade_id')
      .notNull()
      .references(() => trades.id),
    fromId: integer('from_id')
      .notNull()
      .references(() => users.id),
    toId: integer('to_id')
      .notNull()
      .references(() => users.id),
    type: text('type', { enum: ['buy', 'sell'] }).notNull(),
    rating: text('rating', { enum: ['positive', 'negative'] }).notNull(),
    message: text('message').notNull(),
    reply: text('reply'),
    repliedAt: integer('replied_at'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('trade_feedback_once_idx').on(t.tradeId, t.fromId),
    index('trade_feedback_to_idx').on(t.toId, t.createdAt),
  ],
);
