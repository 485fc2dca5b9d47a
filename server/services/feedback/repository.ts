import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import type { TradeStatus } from '../../../db/schema/index.ts';

// Reads and writes of trade feedback (trade_feedback, spec section 3 "Feedback") and feature
// requests, in SQL that SQLite and PostgreSQL both run (db/sql-client.ts caches each text); every
// method answers a promise. The service decides, this only runs SQL.

export type Rating = 'positive' | 'negative';
/** Feedback from the buyer has type sell (about the person who sold), from the seller type buy. */
export type FeedbackType = 'buy' | 'sell';

export interface FeedbackTradeRow {
  id: number;
  hash: string;
  status: TradeStatus;
  buyerId: number;
  sellerId: number;
  buyerUsername: string;
  sellerUsername: string;
}

export interface FeedbackRow {
  id: number;
  tradeHash: string;
  fromId: number;
  toId: number;
  fromUsername: string;
  fromAvatarUrl: string | null;
  type: FeedbackType;
  rating: Rating;
  message: string;
  reply: string | null;
  repliedAt: number | null;
  createdAt: number;
  updatedAt: number;
  fiatCode: string;
  paymentMethodName: string;
}

const FEEDBACK_COLUMNS = `f.id, t.hash AS tradeHash, f.from_id AS fromId, f.to_id AS toId, u.username AS fromUsername,
  (SELECT avatar_url FROM user_settings WHERE user_id = f.from_id) AS fromAvatarUrl,
  f.type, f.rating, f.message, f.reply, f.replied_at AS repliedAt, f.created_at AS createdAt,
  f.updated_at AS updatedAt, fc.code AS fiatCode, pm.name AS paymentMethodName
  FROM trade_feedback f
  JOIN users u ON u.id = f.from_id
  JOIN trades t ON t.id = f.trade_id
  JOIN fiat_currencies fc ON fc.id = t.fiat_currency_id
  JOIN payment_methods pm ON pm.id = t.payment_method_id`;

export interface NewFeedback {
  tradeId: number;
  fromId: number;
  toId: number;
  type: FeedbackType;
  rating: Rating;
  message: string;
  at: number;
}

const INSERT_REQUEST =
  'INSERT INTO feature_requests (user_id, text, locale, created_at) VALUES (@userId, @text, @locale, @at)';
const REQUESTS_SINCE = 'SELECT count(*) AS n FROM feature_requests WHERE user_id = ? AND created_at > ?';

const TRADE_BY_HASH = `SELECT t.id, t.hash, t.status, t.buyer_id AS buyerId, t.seller_id AS sellerId,
    b.username AS buyerUsername, s.username AS sellerUsername
  FROM trades t JOIN users b ON b.id = t.buyer_id JOIN users s ON s.id = t.seller_id
  WHERE t.hash = ?`;
const OF_TRADE = `SELECT ${FEEDBACK_COLUMNS} WHERE f.trade_id = ? ORDER BY f.id`;
const INSERT = `INSERT INTO trade_feedback (trade_id, from_id, to_id, type, rating, message, created_at, updated_at)
  VALUES (@tradeId, @fromId, @toId, @type, @rating, @message, @at, @at)`;
// A replaced rating drops the reply that answered the old words; the receiver may answer again.
const REPLACE = `UPDATE trade_feedback SET rating = @rating, message = @message, reply = NULL, replied_at = NULL,
    updated_at = @at
  WHERE id = @id`;
// Once: a reply that is already there is never overwritten, whoever races.
const REPLY = 'UPDATE trade_feedback SET reply = @reply, replied_at = @at WHERE id = @id AND reply IS NULL';
const COUNT = `UPDATE users SET feedback_positive = feedback_positive + @positive,
    feedback_negative = feedback_negative + @negative
  WHERE id = @toId`;
const USER_BY_NAME = 'SELECT id, username, status FROM users WHERE lower(username) = lower(?)';
// One statement for every filter: NULL means "any" (cast, so PostgreSQL knows the parameter's type
// where it is only tested for NULL). The (to_id, created_at) index serves it.
const LIST = `SELECT ${FEEDBACK_COLUMNS}
  WHERE f.to_id = @toId AND (CAST(@type AS TEXT) IS NULL OR f.type = @type)
    AND (CAST(@rating AS TEXT) IS NULL OR f.rating = @rating)
  ORDER BY f.created_at DESC, f.id DESC LIMIT @limit OFFSET @offset`;
const TOTALS = `SELECT count(*) AS total,
    sum(CASE WHEN rating = 'positive' THEN 1 ELSE 0 END) AS positive,
    sum(CASE WHEN rating = 'negative' THEN 1 ELSE 0 END) AS negative
  FROM trade_feedback WHERE to_id = @toId AND (CAST(@type AS TEXT) IS NULL OR type = @type)`;

export function createFeedbackRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const { sql } = database;
  return {
    /** For `immediate(repo.db, …)` (server/services/context.ts). */
    db: database,
    tradeByHash: (hash: string) => sql.get<FeedbackTradeRow>(TRADE_BY_HASH, [hash]),
    ofTrade: (tradeId: number) => sql.all<FeedbackRow & { tradeId: number }>(OF_TRADE, [tradeId]),
    insert: (row: NewFeedback) => sql.run(INSERT, [row]),
    replace: (row: { id: number; rating: Rating; message: string; at: number }) => sql.run(REPLACE, [row]),
    reply: async (id: number, text: string, at: number): Promise<boolean> =>
      (await sql.run(REPLY, [{ id, reply: text, at }])).changes === 1,
    /** Moves a person's feedback counters by the given steps (−1, 0 or +1 each). */
    count: (toId: number, positive: number, negative: number) => sql.run(COUNT, [{ toId, positive, negative }]),
    userByName: (username: string) =>
      sql.get<{ id: number; username: string; status: string }>(USER_BY_NAME, [username]),
    list: (toId: number, type: FeedbackType | null, rating: Rating | null, limit: number, offset: number) =>
      sql.all<FeedbackRow>(LIST, [{ toId, type, rating, limit, offset }]),
    totals: async (toId: number, type: FeedbackType | null) => {
      const row = await sql.get<{ total: number; positive: number | null; negative: number | null }>(TOTALS, [
        { toId, type },
      ]);
      return { total: row?.total ?? 0, positive: row?.positive ?? 0, negative: row?.negative ?? 0 };
    },

    // The feature-request form's rows.
    insertFeatureRequest: (row: { userId: number; text: string; locale: string; at: number }) =>
      sql.run(INSERT_REQUEST, [row]),
    featureRequestsSince: async (userId: number, since: number): Promise<number> =>
      (await sql.get<{ n: number }>(REQUESTS_SINCE, [userId, since]))?.n ?? 0,
  };
}

export type FeedbackRepository = ReturnType<typeof createFeedbackRepository>;
