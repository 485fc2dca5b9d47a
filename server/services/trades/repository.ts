import { gated } from '../../../db/access.ts';
import type { Db } from '../../../db/client.ts';
import type { TradeActorRole, TradeStatus } from '../../../db/schema/index.ts';
import type { TradeRequirementStatus } from '../../../src/lib/shared/trade-requirements.ts';

// Reads and writes of trades, their trail, requirements and chat. Statements are prepared once per
// database and run synchronously inside; every method answers a promise (db/access.ts `gated`).
// The service decides, this only runs SQL.

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

/** A trade as the service reads it: its columns, its outcome, and the names joined in. */
export interface TradeRow extends NewTrade, TradeOutcome {
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
  t.status, t.started_at AS startedAt, t.expires_at AS expiresAt, t.paid_at AS paidAt, t.ended_at AS endedAt,
  t.disputed_at AS disputedAt, t.dispute_reason_id AS disputeReasonId, t.dispute_text AS disputeText,
  t.dispute_opened_by AS disputeOpenedBy, t.resolved_by AS resolvedBy, t.responder_ip AS responderIp,
  t.version, t.updated_at AS updatedAt`;

const TRADE_FROM = `
  FROM trades t
  JOIN offers o ON o.id = t.offer_id
  JOIN users b ON b.id = t.buyer_id
  JOIN users s ON s.id = t.seller_id
  JOIN fiat_currencies fc ON fc.id = t.fiat_currency_id
  JOIN payment_methods pm ON pm.id = t.payment_method_id
  JOIN payment_groups pg ON pg.id = pm.group_id`;

/** A trade's rows as it starts and moves on. */
function tradeWrites(client: Db['$client']) {
  const insertTrade = client.prepare<NewTrade>(
    `INSERT INTO trades (hash, offer_id, offer_type, owner_id, responder_id, buyer_id, seller_id, crypto_code,
       crypto_amount, fee_amount, fee_basis_points, escrow_ref, fiat_currency_id, fiat_amount_minor, price_minor,
       usd_amount_cents, payment_method_id, payment_window_minutes, offer_terms, payment_details, tags, payer_name,
       status, started_at, expires_at, responder_ip, version, updated_at)
     VALUES (@hash, @offerId, @offerType, @ownerId, @responderId, @buyerId, @sellerId, @cryptoCode, @cryptoAmount,
       @feeAmount, @feeBasisPoints, @escrowRef, @fiatCurrencyId, @fiatAmountMinor, @priceMinor, @usdAmountCents,
       @paymentMethodId, @paymentWindowMinutes, @offerTerms, @paymentDetails, @tags, @payerName, 'active_funded',
       @startedAt, @expiresAt, @responderIp, 1, @startedAt)`,
  );
  // Guarded by the status it read: a trade that moved on in the meantime matches nothing.
  const changeStatus = client.prepare<StatusChange>(
    `UPDATE trades SET status = @to, version = version + 1, updated_at = @at, paid_at = @paidAt, ended_at = @endedAt,
       disputed_at = @disputedAt, dispute_reason_id = @disputeReasonId, dispute_text = @disputeText,
       dispute_opened_by = @disputeOpenedBy, resolved_by = @resolvedBy, escrow_ref = @escrowRef
     WHERE id = @id AND status = @from`,
  );
  const insertTransition = client.prepare<{
    tradeId: number;
    action: string;
    fromStatus: TradeStatus | null;
    toStatus: TradeStatus;
    actorId: number | null;
    actorRole: TradeActorRole;
    ledgerTransactionId: string | null;
    note: string | null;
    at: number;
  }>(
    `INSERT INTO trade_transitions (trade_id, action, from_status, to_status, actor_id, actor_role,
       ledger_transaction_id, note, at)
     VALUES (@tradeId, @action, @fromStatus, @toStatus, @actorId, @actorRole, @ledgerTransactionId, @note, @at)`,
  );
  const insertRequirement = client.prepare<{
    tradeId: number;
    stage: string;
    kind: string;
    optional: number;
    at: number;
  }>(
    `INSERT INTO trade_requirements (trade_id, stage, kind, optional, status, updated_at)
     VALUES (@tradeId, @stage, @kind, @optional, 'pending', @at)`,
  );
  return {
    insertTrade: (trade: NewTrade): number => Number(insertTrade.run(trade).lastInsertRowid),
    changeStatus: (change: StatusChange): boolean => changeStatus.run(change).changes === 1,
    insertTransition: (row: Parameters<typeof insertTransition.run>[0]) => insertTransition.run(row),
    insertRequirement: (row: Parameters<typeof insertRequirement.run>[0]) => insertRequirement.run(row),
  };
}

/** Trades as the verbs read them. */
function tradeReads(client: Db['$client']) {
  const byHash = client.prepare<[string], TradeRow>(`SELECT ${TRADE_COLUMNS} ${TRADE_FROM} WHERE t.hash = ?`);
  const requirementsOf = client.prepare<[number], RequirementRow>(
    `SELECT id, stage, kind, optional, status, attachment_id AS attachmentId
     FROM trade_requirements WHERE trade_id = ? ORDER BY id`,
  );
  const activeOf = client.prepare<[number, number], TradeRow>(
    `SELECT ${TRADE_COLUMNS} ${TRADE_FROM}
     WHERE t.id IN (
       SELECT id FROM trades WHERE buyer_id = ? AND status IN ('active_funded', 'paid', 'dispute_open')
       UNION SELECT id FROM trades WHERE seller_id = ? AND status IN ('active_funded', 'paid', 'dispute_open'))
     ORDER BY t.started_at DESC LIMIT 200`,
  );
  const dueForExpiry = client.prepare<[number, number], { hash: string }>(
    `SELECT hash FROM trades WHERE status = 'active_funded' AND expires_at <= ? ORDER BY expires_at LIMIT ?`,
  );
  const partiesOf = client.prepare<[string], { buyerId: number; sellerId: number }>(
    'SELECT buyer_id AS buyerId, seller_id AS sellerId FROM trades WHERE hash = ?',
  );
  const disputes = client.prepare<{ limit: number; offset: number }, TradeRow>(
    `SELECT ${TRADE_COLUMNS} ${TRADE_FROM}
     WHERE t.status = 'dispute_open' ORDER BY t.disputed_at LIMIT @limit OFFSET @offset`,
  );
  return {
    byHash: (hash: string) => byHash.get(hash),
    requirementsOf: (tradeId: number) => requirementsOf.all(tradeId),
    activeOf: (userId: number) => activeOf.all(userId, userId),
    dueForExpiry: (at: number, limit: number) => dueForExpiry.all(at, limit).map((r) => r.hash),
    partiesOf: (hash: string) => partiesOf.get(hash),
    openDisputes: (limit: number, offset: number) => disputes.all({ limit, offset }),
  };
}

/** The chat's lines. */
function chatStatements(client: Db['$client']) {
  const insertMessage = client.prepare<{
    tradeId: number;
    authorId: number | null;
    authorRole: TradeActorRole;
    body: string;
    attachmentId: number | null;
    isForModerator: number;
    at: number;
  }>(
    `INSERT INTO trade_messages (trade_id, author_id, author_role, body, attachment_id, is_for_moderator, created_at)
     VALUES (@tradeId, @authorId, @authorRole, @body, @attachmentId, @isForModerator, @at)`,
  );
  const MESSAGE_COLUMNS = `m.id, m.author_id AS authorId, u.username AS authorUsername, m.author_role AS authorRole,
       m.body, a.public_id AS attachmentPublicId, a.content_type AS attachmentContentType,
       m.is_for_moderator AS isForModerator, m.created_at AS createdAt
     FROM trade_messages m
     LEFT JOIN users u ON u.id = m.author_id
     LEFT JOIN trade_attachments a ON a.id = m.attachment_id`;
  const messagesOf = client.prepare<
    { tradeId: number; afterId: number; withModeratorOnly: number; limit: number },
    MessageRow
  >(
    `SELECT ${MESSAGE_COLUMNS}
     WHERE m.trade_id = @tradeId AND m.id > @afterId AND (@withModeratorOnly = 1 OR m.is_for_moderator = 0)
     ORDER BY m.id LIMIT @limit`,
  );
  const messageById = client.prepare<[number], MessageRow>(`SELECT ${MESSAGE_COLUMNS} WHERE m.id = ?`);
  return {
    insertMessage: (row: Parameters<typeof insertMessage.run>[0]): number =>
      Number(insertMessage.run(row).lastInsertRowid),
    messageById: (id: number) => messageById.get(id),
    messagesOf: (tradeId: number, afterId: number, withModeratorOnly: boolean, limit: number) =>
      messagesOf.all({ tradeId, afterId, withModeratorOnly: withModeratorOnly ? 1 : 0, limit }),
  };
}

/** What a trade asks about its people: moderators, completed trades, addresses, blocks. */
function people(client: Db['$client']) {
  const roleOf = client.prepare<[number], { role: string; status: string }>(
    'SELECT role, status FROM users WHERE id = ?',
  );
  const countCompleted = client.prepare<{ buyerId: number; sellerId: number }>(
    'UPDATE users SET completed_trades = completed_trades + 1 WHERE id IN (@buyerId, @sellerId)',
  );
  const latestIp = client.prepare<[number], { ip: string }>(
    'SELECT ip FROM sessions WHERE user_id = ? ORDER BY created_at DESC LIMIT 1',
  );
  const blocks = client.prepare<[number, number], { kind: string }>(
    "SELECT kind FROM user_trust WHERE user_id = ? AND other_id = ? AND kind = 'blocked'",
  );
  return {
    isModerator: (userId: number) => {
      const row = roleOf.get(userId);
      return row !== undefined && row.status === 'active' && (row.role === 'moderator' || row.role === 'admin');
    },
    countCompleted: (buyerId: number, sellerId: number) => countCompleted.run({ buyerId, sellerId }),
    latestIp: (userId: number) => latestIp.get(userId)?.ip ?? null,
    /** Whether `userId` blocked `otherId`. */
    blocked: (userId: number, otherId: number) => blocks.get(userId, otherId) !== undefined,
  };
}

export function createTradesRepository(db: Db) {
  const client = db.$client;
  return gated(db, { db, ...tradeWrites(client), ...tradeReads(client), ...chatStatements(client), ...people(client) });
}

export type TradesRepository = ReturnType<typeof createTradesRepository>;
