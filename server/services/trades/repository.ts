import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import type { TradeActorRole, TradeStatus } from '../../../db/schema/index.ts';
import type { TradeRequirementStatus } from '../../../src/lib/shared/trade-requirements.ts';
import { DISPUTE_QUEUE_ORDER, disputeClockStatements } from './dispute-repository.ts';

// Reads and writes of trades, their trail, requirements and chat, in SQL that SQLite and
// PostgreSQL both run (db/sql-client.ts: each text is prepared once and cached); every method
// answers a promise. The service decides, this only runs SQL.

/** What a trade is started with: its own columns as the insert writes them. */
export interface NewTrade {
  hash: string;
  offerId: number;
  offerType: 'buy' | 'sell';
  ownerId: number;
  responderId: number;
  buyerId: number;
  sellerId: number;
  cryptoCode: 'BTC' | 'USDT';
  cryptoAmount: number;
  feeAmount: number;
  feeBasisPoints: number;
  escrowRef: string;
  fiatCurrencyId: number;
  fiatAmountMinor: number;
  priceMinor: number;
  usdAmountCents: number;
  paymentMethodId: number;
  paymentWindowMinutes: number;
  offerTerms: string;
  paymentDetails: string;
  tags: string;
  payerName: string | null;
  /** The affiliate credited with the trade (issue 20), or null. */
  affiliateId: number | null;
  startedAt: number;
  expiresAt: number;
  responderIp: string | null;
}

/** How a trade ended or where it stands after its status changed; null until it gets there. */
export interface TradeOutcome {
  paidAt: number | null;
  endedAt: number | null;
  disputedAt: number | null;
  disputeReasonId: string | null;
  disputeText: string | null;
  disputeOpenedBy: number | null;
  resolvedBy: number | null;
}

/** A dispute's clocks (dispute-clock.ts): unix ms, null where they do not apply. */
export interface DisputeClockColumns {
  disputeAnswerDueAt: number | null;
  disputeAnswerLateAt: number | null;
  disputeTakeDueAt: number | null;
  disputeDecisionDueAt: number | null;
  disputeModeratorId: number | null;
  disputeModeratorUsername: string | null;
  disputeTakenAt: number | null;
  disputeLevel: number;
}

/** A trade as the service reads it: its columns, its outcome, and the names joined in. */
export interface TradeRow extends NewTrade, TradeOutcome, DisputeClockColumns {
  /** The buyer's name as on their identity document, once a moderator verified it. */
  buyerVerifiedName: string | null;
  /** The credited affiliate's public id, and which party they referred. */
  affiliatePublicId: string | null;
  affiliateReferralId: number | null;
  id: number;
  offerHash: string;
  buyerUsername: string;
  sellerUsername: string;
  buyerAvatarUrl: string | null;
  sellerAvatarUrl: string | null;
  buyerPublicId: string;
  sellerPublicId: string;
  fiatCode: string;
  fiatMinorUnits: number;
  paymentMethodSlug: string;
  paymentMethodName: string;
  paymentGroupSlug: string;
  status: TradeStatus;
  version: number;
  updatedAt: number;
}

export interface StatusChange extends TradeOutcome {
  id: number;
  from: TradeStatus;
  to: TradeStatus;
  at: number;
  escrowRef: string;
}

export interface RequirementRow {
  id: number;
  stage: 'before_reveal' | 'before_paid';
  kind: string;
  optional: number;
  status: TradeRequirementStatus;
  attachmentId: number | null;
}

export interface MessageRow {
  id: number;
  authorId: number | null;
  authorUsername: string | null;
  authorRole: TradeActorRole;
  body: string;
  attachmentPublicId: string | null;
  attachmentContentType: string | null;
  isForModerator: number;
  createdAt: number;
}

const TRADE_COLUMNS = `
  t.id, t.hash, t.offer_id AS offerId, o.hash AS offerHash, t.offer_type AS offerType,
  t.owner_id AS ownerId, t.responder_id AS responderId, t.buyer_id AS buyerId, t.seller_id AS sellerId,
  b.username AS buyerUsername, s.username AS sellerUsername, b.public_id AS buyerPublicId,
  s.public_id AS sellerPublicId,
  (SELECT avatar_url FROM user_settings WHERE user_id = t.buyer_id) AS buyerAvatarUrl,
  (SELECT avatar_url FROM user_settings WHERE user_id = t.seller_id) AS sellerAvatarUrl,
  t.crypto_code AS cryptoCode, t.crypto_amount AS cryptoAmount, t.fee_amount AS feeAmount,
  t.fee_basis_points AS feeBasisPoints, t.escrow_ref AS escrowRef,
  t.fiat_currency_id AS fiatCurrencyId, fc.code AS fiatCode, fc.minor_units AS fiatMinorUnits,
  t.fiat_amount_minor AS fiatAmountMinor, t.price_minor AS priceMinor, t.usd_amount_cents AS usdAmountCents,
  t.payment_method_id AS paymentMethodId, pm.slug AS paymentMethodSlug, pm.name AS paymentMethodName,
  pg.slug AS paymentGroupSlug, t.payment_window_minutes AS paymentWindowMinutes,
  t.offer_terms AS offerTerms, t.payment_details AS paymentDetails, t.tags, t.payer_name AS payerName,
  CASE WHEN b.id_verified_at IS NOT NULL THEN b.full_name END AS buyerVerifiedName,
  t.status, t.started_at AS startedAt, t.expires_at AS expiresAt, t.paid_at AS paidAt, t.ended_at AS endedAt,
  t.disputed_at AS disputedAt, t.dispute_reason_id AS disputeReasonId, t.dispute_text AS disputeText,
  t.dispute_opened_by AS disputeOpenedBy, t.resolved_by AS resolvedBy, t.responder_ip AS responderIp,
  t.version, t.updated_at AS updatedAt, t.affiliate_id AS affiliateId,
  t.dispute_answer_due_at AS disputeAnswerDueAt, t.dispute_answer_late_at AS disputeAnswerLateAt,
  t.dispute_take_due_at AS disputeTakeDueAt, t.dispute_decision_due_at AS disputeDecisionDueAt,
  t.dispute_moderator_id AS disputeModeratorId, t.dispute_taken_at AS disputeTakenAt, t.dispute_level AS disputeLevel,
  (SELECT username FROM users WHERE id = t.dispute_moderator_id) AS disputeModeratorUsername,
  (SELECT public_id FROM users WHERE id = t.affiliate_id) AS affiliatePublicId,
  CASE WHEN t.affiliate_id = b.referred_by_id THEN t.buyer_id WHEN t.affiliate_id IS NOT NULL THEN t.seller_id END
    AS affiliateReferralId`;

const TRADE_FROM = `
  FROM trades t
  JOIN offers o ON o.id = t.offer_id
  JOIN users b ON b.id = t.buyer_id
  JOIN users s ON s.id = t.seller_id
  JOIN fiat_currencies fc ON fc.id = t.fiat_currency_id
  JOIN payment_methods pm ON pm.id = t.payment_method_id
  JOIN payment_groups pg ON pg.id = pm.group_id`;

/** What a trade's trail row records. */
export interface NewTransition {
  tradeId: number;
  action: string;
  fromStatus: TradeStatus | null;
  toStatus: TradeStatus;
  actorId: number | null;
  actorRole: TradeActorRole;
  ledgerTransactionId: string | null;
  note: string | null;
  at: number;
}

export interface NewRequirement {
  tradeId: number;
  stage: string;
  kind: string;
  optional: number;
  at: number;
}

export interface NewMessage {
  tradeId: number;
  authorId: number | null;
  authorRole: TradeActorRole;
  body: string;
  attachmentId: number | null;
  isForModerator: number;
  at: number;
}

const INSERT_TRADE = `INSERT INTO trades (hash, offer_id, offer_type, owner_id, responder_id, buyer_id, seller_id,
    crypto_code, crypto_amount, fee_amount, fee_basis_points, escrow_ref, fiat_currency_id, fiat_amount_minor,
    price_minor, usd_amount_cents, payment_method_id, payment_window_minutes, offer_terms, payment_details, tags,
    payer_name, affiliate_id, status, started_at, expires_at, responder_ip, version, updated_at)
  VALUES (@hash, @offerId, @offerType, @ownerId, @responderId, @buyerId, @sellerId, @cryptoCode, @cryptoAmount,
    @feeAmount, @feeBasisPoints, @escrowRef, @fiatCurrencyId, @fiatAmountMinor, @priceMinor, @usdAmountCents,
    @paymentMethodId, @paymentWindowMinutes, @offerTerms, @paymentDetails, @tags, @payerName, @affiliateId, 'active_funded',
    @startedAt, @expiresAt, @responderIp, 1, @startedAt)
  RETURNING id`;
// Guarded by the status it read: a trade that moved on in the meantime matches nothing.
const CHANGE_STATUS = `UPDATE trades SET status = @to, version = version + 1, updated_at = @at, paid_at = @paidAt,
    ended_at = @endedAt, disputed_at = @disputedAt, dispute_reason_id = @disputeReasonId,
    dispute_text = @disputeText, dispute_opened_by = @disputeOpenedBy, resolved_by = @resolvedBy,
    escrow_ref = @escrowRef
  WHERE id = @id AND status = @from`;
// The seller's payment details while the trade waits for payment; guarded like a status change.
const SET_PAYMENT_DETAILS = `UPDATE trades SET payment_details = @text, version = version + 1, updated_at = @at
  WHERE id = @id AND status = 'active_funded'`;
const INSERT_TRANSITION = `INSERT INTO trade_transitions (trade_id, action, from_status, to_status, actor_id,
    actor_role, ledger_transaction_id, note, at)
  VALUES (@tradeId, @action, @fromStatus, @toStatus, @actorId, @actorRole, @ledgerTransactionId, @note, @at)`;
const INSERT_REQUIREMENT = `INSERT INTO trade_requirements (trade_id, stage, kind, optional, status, updated_at)
  VALUES (@tradeId, @stage, @kind, @optional, 'pending', @at)`;

const BY_HASH = `SELECT ${TRADE_COLUMNS} ${TRADE_FROM} WHERE t.hash = ?`;
const IS_MERCHANT = 'SELECT is_merchant AS isMerchant FROM users WHERE id = ?';
const REQUIREMENTS_OF = `SELECT id, stage, kind, optional, status, attachment_id AS attachmentId
  FROM trade_requirements WHERE trade_id = ? ORDER BY id`;
const ACTIVE_OF = `SELECT ${TRADE_COLUMNS} ${TRADE_FROM}
  WHERE t.id IN (
    SELECT id FROM trades WHERE buyer_id = ? AND status IN ('active_funded', 'paid', 'dispute_open')
    UNION SELECT id FROM trades WHERE seller_id = ? AND status IN ('active_funded', 'paid', 'dispute_open'))
  ORDER BY t.started_at DESC LIMIT 200`;
const DUE_FOR_EXPIRY = `SELECT hash FROM trades WHERE status = 'active_funded' AND expires_at <= ?
  ORDER BY expires_at LIMIT ?`;
const PARTIES_OF = 'SELECT buyer_id AS buyerId, seller_id AS sellerId FROM trades WHERE hash = ?';
// Overdue and escalated disputes lead the moderators' queue (dispute-repository.ts).
const OPEN_DISPUTES = `SELECT ${TRADE_COLUMNS} ${TRADE_FROM}
  WHERE t.status = 'dispute_open' ORDER BY ${DISPUTE_QUEUE_ORDER} LIMIT @limit OFFSET @offset`;

const INSERT_MESSAGE = `INSERT INTO trade_messages (trade_id, author_id, author_role, body, attachment_id,
    is_for_moderator, created_at)
  VALUES (@tradeId, @authorId, @authorRole, @body, @attachmentId, @isForModerator, @at)
  RETURNING id`;
const MESSAGE_COLUMNS = `m.id, m.author_id AS authorId, u.username AS authorUsername, m.author_role AS authorRole,
    m.body, a.public_id AS attachmentPublicId, a.content_type AS attachmentContentType,
    m.is_for_moderator AS isForModerator, m.created_at AS createdAt
  FROM trade_messages m
  LEFT JOIN users u ON u.id = m.author_id
  LEFT JOIN trade_attachments a ON a.id = m.attachment_id`;
const MESSAGES_OF = `SELECT ${MESSAGE_COLUMNS}
  WHERE m.trade_id = @tradeId AND m.id > @afterId AND (@withModeratorOnly = 1 OR m.is_for_moderator = 0)
  ORDER BY m.id LIMIT @limit`;
const MESSAGE_BY_ID = `SELECT ${MESSAGE_COLUMNS} WHERE m.id = ?`;

const ROLE_OF = 'SELECT role, status FROM users WHERE id = ?';
const COUNT_COMPLETED = `UPDATE users SET completed_trades = completed_trades + 1,
  traded_usd_cents = traded_usd_cents + @usdCents WHERE id IN (@buyerId, @sellerId)`;
const LATEST_IP = 'SELECT ip FROM sessions WHERE user_id = ? ORDER BY created_at DESC LIMIT 1';
const BLOCKS = "SELECT kind FROM user_trust WHERE user_id = ? AND other_id = ? AND kind = 'blocked'";

export function createTradesRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const { sql } = database;
  return {
    /** For `immediate(repo.db, …)` (server/services/context.ts). */
    db: database,

    // A trade's rows as it starts and moves on.
    insertTrade: async (trade: NewTrade): Promise<number> =>
      Number((await sql.get<{ id: number }>(INSERT_TRADE, [trade]))?.id),
    changeStatus: async (change: StatusChange): Promise<boolean> =>
      (await sql.run(CHANGE_STATUS, [change])).changes === 1,
    /** False when the trade is no longer waiting for payment. */
    setPaymentDetails: async (change: { id: number; text: string; at: number }): Promise<boolean> =>
      (await sql.run(SET_PAYMENT_DETAILS, [change])).changes === 1,
    insertTransition: (row: NewTransition) => sql.run(INSERT_TRANSITION, [row]),
    insertRequirement: (row: NewRequirement) => sql.run(INSERT_REQUIREMENT, [row]),

    // Trades as the verbs read them.
    byHash: (hash: string) => sql.get<TradeRow>(BY_HASH, [hash]),
    requirementsOf: (tradeId: number) => sql.all<RequirementRow>(REQUIREMENTS_OF, [tradeId]),
    activeOf: (userId: number) => sql.all<TradeRow>(ACTIVE_OF, [userId, userId]),
    dueForExpiry: async (at: number, limit: number): Promise<string[]> =>
      (await sql.all<{ hash: string }>(DUE_FOR_EXPIRY, [at, limit])).map((r) => r.hash),
    /** Whether the person is a merchant now: a merchant buyer's releases collect in its merchant balance. */
    isMerchant: async (userId: number) =>
      Boolean((await sql.get<{ isMerchant: number | boolean }>(IS_MERCHANT, [userId]))?.isMerchant),
    partiesOf: (hash: string) => sql.get<{ buyerId: number; sellerId: number }>(PARTIES_OF, [hash]),
    openDisputes: (limit: number, offset: number, now: number) =>
      sql.all<TradeRow>(OPEN_DISPUTES, [{ limit, offset, now }]),
    // A dispute's clocks: when they start, the take, the escalation job's steps.
    ...disputeClockStatements(database),

    // The chat's lines.
    insertMessage: async (row: NewMessage): Promise<number> =>
      Number((await sql.get<{ id: number }>(INSERT_MESSAGE, [row]))?.id),
    messageById: (id: number) => sql.get<MessageRow>(MESSAGE_BY_ID, [id]),
    messagesOf: (tradeId: number, afterId: number, withModeratorOnly: boolean, limit: number) =>
      sql.all<MessageRow>(MESSAGES_OF, [{ tradeId, afterId, withModeratorOnly: withModeratorOnly ? 1 : 0, limit }]),

    // What a trade asks about its people: moderators, completed trades, addresses, blocks.
    isModerator: async (userId: number): Promise<boolean> => {
      const row = await sql.get<{ role: string; status: string }>(ROLE_OF, [userId]);
      return row !== undefined && row.status === 'active' && (row.role === 'moderator' || row.role === 'admin');
    },
    /** Both parties' completed trades and traded volume. */
    countCompleted: (buyerId: number, sellerId: number, usdCents: number) =>
      sql.run(COUNT_COMPLETED, [{ buyerId, sellerId, usdCents }]),
    latestIp: async (userId: number): Promise<string | null> =>
      (await sql.get<{ ip: string }>(LATEST_IP, [userId]))?.ip ?? null,
    /** Whether `userId` blocked `otherId`. */
    blocked: async (userId: number, otherId: number): Promise<boolean> =>
      (await sql.get<{ kind: string }>(BLOCKS, [userId, otherId])) !== undefined,
  };
}

export type TradesRepository = ReturnType<typeof createTradesRepository>;
