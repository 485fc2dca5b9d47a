import { gated } from '../../../db/access.ts';
import type { Db } from '../../../db/client.ts';
import type { TradeStatus } from '../../../db/schema/index.ts';

// Reads and writes of trade feedback (trade_feedback, spec section 3 "Feedback") and feature
// requests. Statements are prepared once per database; every method answers a promise (db/access.ts
// `gated`). The service decides, this only runs SQL.

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

/** The feature-request form's rows. */
function featureRequests(client: Db['$client']) {
  const insertRequest = client.prepare<{ userId: number; text: string; locale: string; at: number }>(
    'INSERT INTO feature_requests (user_id, text, locale, created_at) VALUES (@userId, @text, @locale, @at)',
  );
  const requestsSince = client
    .prepare<[number, number], number>('SELECT count(*) FROM feature_requests WHERE user_id = ? AND created_at > ?')
    .pluck();

  return {
    insertFeatureRequest: (row: Parameters<typeof insertRequest.run>[0]) => insertRequest.run(row),
    featureRequestsSince: (userId: number, since: number): number => requestsSince.get(userId, since) ?? 0,
  };
}

export function createFeedbackRepository(db: Db) {
  const client = db.$client;
  const tradeByHash = client.prepare<[string], FeedbackTradeRow>(
    `SELECT t.id, t.hash, t.status, t.buyer_id AS buyerId, t.seller_id AS sellerId,
       b.username AS buyerUsername, s.username AS sellerUsername
     FROM trades t JOIN users b ON b.id = t.buyer_id JOIN users s ON s.id = t.seller_id
     WHERE t.hash = ?`,
  );
  const ofTrade = client.prepare<[number], FeedbackRow & { tradeId: number }>(
    `SELECT ${FEEDBACK_COLUMNS} WHERE f.trade_id = ? ORDER BY f.id`,
  );
  const insert = client.prepare<{
    tradeId: number;
    fromId: number;
    toId: number;
    type: FeedbackType;
    rating: Rating;
    message: string;
    at: number;
  }>(
    `INSERT INTO trade_feedback (trade_id, from_id, to_id, type, rating, message, created_at, updated_at)
     VALUES (@tradeId, @fromId, @toId, @type, @rating, @message, @at, @at)`,
  );
  // A replaced rating drops the reply that answered the old words; the receiver may answer again.
  const replace = client.prepare<{ id: number; rating: Rating; message: string; at: number }>(
    `UPDATE trade_feedback SET rating = @rating, message = @message, reply = NULL, replied_at = NULL,
       updated_at = @at
     WHERE id = @id`,
  );
  // Once: a reply that is already there is never overwritten, whoever races.
  const reply = client.prepare<{ id: number; reply: string; at: number }>(
    'UPDATE trade_feedback SET reply = @reply, replied_at = @at WHERE id = @id AND reply IS NULL',
  );
  const count = client.prepare<{ toId: number; positive: number; negative: number }>(
    `UPDATE users SET feedback_positive = feedback_positive + @positive,
       feedback_negative = feedback_negative + @negative
     WHERE id = @toId`,
  );
  const userByName = client.prepare<[string], { id: number; username: string; status: string }>(
    'SELECT id, username, status FROM users WHERE lower(username) = lower(?)',
  );
  // One statement for every filter: NULL means "any". The (to_id, created_at) index serves it.
  const list = client.prepare<
    { toId: number; type: FeedbackType | null; rating: Rating | null; limit: number; offset: number },
    FeedbackRow
  >(
    `SELECT ${FEEDBACK_COLUMNS}
     WHERE f.to_id = @toId AND (@type IS NULL OR f.type = @type) AND (@rating IS NULL OR f.rating = @rating)
     ORDER BY f.created_at DESC, f.id DESC LIMIT @limit OFFSET @offset`,
  );
  const totals = client.prepare<
    { toId: number; type: FeedbackType | null },
    { total: number; positive: number | null; negative: number | null }
  >(
    `SELECT count(*) AS total, sum(rating = 'positive') AS positive, sum(rating = 'negative') AS negative
     FROM trade_feedback WHERE to_id = @toId AND (@type IS NULL OR type = @type)`,
  );
  return gated(db, {
    db,
    tradeByHash: (hash: string) => tradeByHash.get(hash),
    ofTrade: (tradeId: number) => ofTrade.all(tradeId),
    insert: (row: Parameters<typeof insert.run>[0]) => insert.run(row),
    replace: (row: Parameters<typeof replace.run>[0]) => replace.run(row),
    reply: (id: number, text: string, at: number): boolean => reply.run({ id, reply: text, at }).changes === 1,
    /** Moves a person's feedback counters by the given steps (−1, 0 or +1 each). */
    count: (toId: number, positive: number, negative: number) => count.run({ toId, positive, negative }),
    userByName: (username: string) => userByName.get(username),
    list: (toId: number, type: FeedbackType | null, rating: Rating | null, limit: number, offset: number) =>
      list.all({ toId, type, rating, limit, offset }),
    totals: (toId: number, type: FeedbackType | null) => {
      const row = totals.get({ toId, type });
      return { total: row?.total ?? 0, positive: row?.positive ?? 0, negative: row?.negative ?? 0 };
    },
    ...featureRequests(client),
  });
}

export type FeedbackRepository = ReturnType<typeof createFeedbackRepository>;
