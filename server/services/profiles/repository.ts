import { asDatabase, type Database, type DatabaseLike } from '../../../db/database.ts';
import type { TradeStatus } from '../../../db/schema/index.ts';

// Reads behind public profiles, trust and past trades: the person, what others think of them,
// and their trades, each by the indexes the trades table already has (buyer and seller by start).
// The trades service owns every write of a trade; this only reads. Every method answers a promise,
// on either engine (db/database.ts).

/** Coins reached the buyer (server/services/trades/state-machine.ts COMPLETED_STATUSES). */
const COMPLETED = `('released', 'dispute_won_buyer')`;
const ACTIVE = `('active_funded', 'paid', 'dispute_open')`;

/**
 * Satoshi of a person's completed BTC trades (column `traded`), bought (first parameter) and sold
 * (second), each by its index.
 */
export const BTC_TRADED_SQL = `SELECT COALESCE(sum(crypto_amount), 0) AS traded FROM (
  SELECT crypto_amount FROM trades WHERE buyer_id = ? AND crypto_code = 'BTC' AND status IN ${COMPLETED}
  UNION ALL
  SELECT crypto_amount FROM trades WHERE seller_id = ? AND crypto_code = 'BTC' AND status IN ${COMPLETED}) AS traded_trades`;

export type TrustKind = 'trusted' | 'blocked';

export interface ProfileUserRow {
  id: number;
  username: string;
  status: 'active' | 'suspended' | 'banned';
  isEmailVerified: number;
  idVerifiedAt: number | null;
  /** The name given with the identity documents; the verified name once `idVerifiedAt` is set. */
  fullName: string | null;
  feedbackPositive: number;
  feedbackNegative: number;
  completedTrades: number;
  lastSeenAt: number;
  createdAt: number;
  avatarUrl: string | null;
  bio: string | null;
  phoneVerifiedAt: number | null;
}

export type PastTradesStatus = 'all' | 'successful' | 'cancelled' | 'disputed';
export type PastTradesType = 'bought' | 'sold' | 'all';

export interface PastTradeRow {
  hash: string;
  status: TradeStatus;
  buyerId: number;
  buyerUsername: string;
  sellerUsername: string;
  buyerAvatarUrl: string | null;
  sellerAvatarUrl: string | null;
  cryptoCode: 'BTC' | 'USDT';
  cryptoAmount: number;
  fiatCode: string;
  fiatMinorUnits: number;
  fiatAmountMinor: number;
  paymentMethodName: string;
  startedAt: number;
  endedAt: number | null;
  disputedAt: number | null;
}

/** Which ended trades a status filter keeps (spec section 3, "Past trades"). */
const STATUS_WHERE: Record<PastTradesStatus, string> = {
  all: '1 = 1',
  successful: `t.status IN ${COMPLETED}`,
  cancelled: `t.status IN ('cancelled_buyer', 'cancelled_seller', 'cancelled_system')`,
  // A trade that went through a dispute, however it ended (decided, released or given up).
  disputed: 't.disputed_at IS NOT NULL',
};

/** A person's ended trades and their count, per side and status filter. */
function pastTradesReads(database: Database) {
  const PAST_COLUMNS = `t.hash, t.status, t.buyer_id AS buyerId, b.username AS buyerUsername,
       s.username AS sellerUsername,
       (SELECT avatar_url FROM user_settings WHERE user_id = t.buyer_id) AS buyerAvatarUrl,
       (SELECT avatar_url FROM user_settings WHERE user_id = t.seller_id) AS sellerAvatarUrl,
       t.crypto_code AS cryptoCode, t.crypto_amount AS cryptoAmount, fc.code AS fiatCode,
       fc.minor_units AS fiatMinorUnits, t.fiat_amount_minor AS fiatAmountMinor, pm.name AS paymentMethodName,
       t.started_at AS startedAt, t.ended_at AS endedAt, t.disputed_at AS disputedAt
     FROM trades t
     JOIN users b ON b.id = t.buyer_id
     JOIN users s ON s.id = t.seller_id
     JOIN fiat_currencies fc ON fc.id = t.fiat_currency_id
     JOIN payment_methods pm ON pm.id = t.payment_method_id`;
  // Written per filter shape on first use (3 sides × 4 statuses, two statements each); each text
  // is prepared once by the client.
  const pastStatements = new Map<string, { page: string; count: string }>();
  const pastFor = (type: PastTradesType, status: PastTradesStatus) => {
    const key = `${type}:${status}`;
    let statements = pastStatements.get(key);
    if (!statements) {
      const side =
        type === 'bought'
          ? 't.buyer_id = @userId'
          : type === 'sold'
            ? 't.seller_id = @userId'
            : 't.id IN (SELECT id FROM trades WHERE buyer_id = @userId UNION SELECT id FROM trades WHERE seller_id = @userId)';
      const where = `WHERE ${side} AND t.status NOT IN ${ACTIVE} AND ${STATUS_WHERE[status]}`;
      statements = {
        page: `SELECT ${PAST_COLUMNS} ${where} ORDER BY t.started_at DESC, t.id DESC LIMIT @limit OFFSET @offset`,
        count: `SELECT count(*) AS n FROM trades t ${where}`,
      };
      pastStatements.set(key, statements);
    }
    return statements;
  };

  return {
    pastTrades: (userId: number, type: PastTradesType, status: PastTradesStatus, limit: number, offset: number) =>
      database.sql.all<PastTradeRow>(pastFor(type, status).page, [{ userId, limit, offset }]),
    countPastTrades: async (userId: number, type: PastTradesType, status: PastTradesStatus): Promise<number> =>
      (await database.sql.get<{ n: number }>(pastFor(type, status).count, [{ userId }]))?.n ?? 0,
  };
}

const USER_BY_NAME = `SELECT u.id, u.username, u.status, u.is_email_verified AS isEmailVerified,
    u.id_verified_at AS idVerifiedAt, u.full_name AS fullName, u.feedback_positive AS feedbackPositive,
    u.feedback_negative AS feedbackNegative, u.completed_trades AS completedTrades,
    u.last_seen_at AS lastSeenAt, u.created_at AS createdAt,
    s.avatar_url AS avatarUrl, s.bio, p.verified_at AS phoneVerifiedAt
  FROM users u
  LEFT JOIN user_settings s ON s.user_id = u.id
  LEFT JOIN phones p ON p.user_id = u.id
  WHERE lower(u.username) = lower(?)`;
const IS_MODERATOR = `SELECT 1 AS yes FROM users WHERE id = ? AND status = 'active' AND role IN ('moderator', 'admin')`;
// The newest device the geolocation placed (devices.country, written after each new sign-in).
const LATEST_COUNTRY = `SELECT d.country AS iso, c.name FROM devices d LEFT JOIN countries c ON c.iso = d.country
  WHERE d.user_id = ? AND d.country IS NOT NULL ORDER BY d.created_at DESC, d.id DESC LIMIT 1`;
const COMPLETED_WITH = `SELECT (SELECT count(*) FROM trades WHERE buyer_id = @a AND seller_id = @b AND status IN ${COMPLETED})
  + (SELECT count(*) FROM trades WHERE buyer_id = @b AND seller_id = @a AND status IN ${COMPLETED}) AS n`;
const PARTNERS = `SELECT count(*) AS n FROM (
  SELECT seller_id FROM trades WHERE buyer_id = ? AND status IN ${COMPLETED}
  UNION SELECT buyer_id FROM trades WHERE seller_id = ? AND status IN ${COMPLETED}) AS partners`;
const TRUST_COUNTS = `SELECT sum(CASE WHEN kind = 'trusted' THEN 1 ELSE 0 END) AS trusted,
  sum(CASE WHEN kind = 'blocked' THEN 1 ELSE 0 END) AS blocked FROM user_trust WHERE other_id = ?`;
const TRUST_OF = 'SELECT kind FROM user_trust WHERE user_id = ? AND other_id = ?';
const SET_TRUST = `INSERT INTO user_trust (user_id, other_id, kind, created_at) VALUES (@userId, @otherId, @kind, @at)
  ON CONFLICT (user_id, other_id) DO UPDATE SET kind = excluded.kind, created_at = excluded.created_at
  WHERE user_trust.kind <> excluded.kind`;
const CLEAR_TRUST = 'DELETE FROM user_trust WHERE user_id = ? AND other_id = ?';

export function createProfilesRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const { sql } = database;
  const count = async (text: string, args: unknown[]): Promise<number> =>
    (await sql.get<{ n: number | null }>(text, args))?.n ?? 0;

  return {
    db: database,
    userByName: (username: string) => sql.get<ProfileUserRow>(USER_BY_NAME, [username]),
    isModerator: async (userId: number) => (await sql.get(IS_MODERATOR, [userId])) !== undefined,
    latestCountry: (userId: number) => sql.get<{ iso: string; name: string | null }>(LATEST_COUNTRY, [userId]),
    completedWith: (a: number, b: number): Promise<number> => count(COMPLETED_WITH, [{ a, b }]),
    partners: (userId: number): Promise<number> => count(PARTNERS, [userId, userId]),
    /** Satoshi of the person's completed BTC trades, bought and sold. */
    btcTraded: async (userId: number): Promise<number> =>
      (await sql.get<{ traded: number | null }>(BTC_TRADED_SQL, [userId, userId]))?.traded ?? 0,
    trustCounts: async (userId: number) => {
      const row = await sql.get<{ trusted: number | null; blocked: number | null }>(TRUST_COUNTS, [userId]);
      return { trusted: row?.trusted ?? 0, blocked: row?.blocked ?? 0 };
    },
    trustOf: async (userId: number, otherId: number): Promise<TrustKind | undefined> =>
      (await sql.get<{ kind: TrustKind }>(TRUST_OF, [userId, otherId]))?.kind,
    setTrust: (userId: number, otherId: number, kind: TrustKind, at: number) =>
      sql.run(SET_TRUST, [{ userId, otherId, kind, at }]),
    clearTrust: (userId: number, otherId: number) => sql.run(CLEAR_TRUST, [userId, otherId]),
    ...pastTradesReads(database),
  };
}

export type ProfilesRepository = ReturnType<typeof createProfilesRepository>;
