import type { Statement } from 'better-sqlite3';
import { gated } from '../../../db/access.ts';
import type { Db } from '../../../db/client.ts';
import type { TradeStatus } from '../../../db/schema/index.ts';

// Reads behind public profiles, trust and past trades: the person, what others think of them,
// and their trades, each by the indexes the trades table already has (buyer and seller by start).
// The trades service owns every write of a trade; this only reads. Every method answers a promise
// (`gated`, db/access.ts).

/** Coins reached the buyer (server/services/trades/state-machine.ts COMPLETED_STATUSES). */
const COMPLETED = `('released', 'dispute_won_buyer')`;
const ACTIVE = `('active_funded', 'paid', 'dispute_open')`;

/** Satoshi of a person's completed BTC trades, bought (first parameter) and sold (second), each by its index. */
export const BTC_TRADED_SQL = `SELECT coalesce(sum(crypto_amount), 0) FROM (
  SELECT crypto_amount FROM trades WHERE buyer_id = ? AND crypto_code = 'BTC' AND status IN ${COMPLETED}
  UNION ALL
  SELECT crypto_amount FROM trades WHERE seller_id = ? AND crypto_code = 'BTC' AND status IN ${COMPLETED})`;

export type TrustKind = 'trusted' | 'blocked';

export interface ProfileUserRow {
  id: number;
  username: string;
  status: 'active' | 'suspended' | 'banned';
  isEmailVerified: number;
  idVerifiedAt: number | null;
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
function pastTradesReads(client: Db['$client']) {
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
  // Prepared per filter shape on first use (3 sides × 4 statuses, two statements each).
  const pastStatements = new Map<
    string,
    {
      page: Statement<{ userId: number; limit: number; offset: number }, PastTradeRow>;
      count: Statement<{ userId: number }, number>;
    }
  >();
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
        page: client.prepare(
          `SELECT ${PAST_COLUMNS} ${where} ORDER BY t.started_at DESC, t.id DESC LIMIT @limit OFFSET @offset`,
        ),
        count: client.prepare<{ userId: number }, number>(`SELECT count(*) FROM trades t ${where}`).pluck(),
      };
      pastStatements.set(key, statements);
    }
    return statements;
  };

  return {
    pastTrades: (userId: number, type: PastTradesType, status: PastTradesStatus, limit: number, offset: number) =>
      pastFor(type, status).page.all({ userId, limit, offset }),
    countPastTrades: (userId: number, type: PastTradesType, status: PastTradesStatus): number =>
      pastFor(type, status).count.get({ userId }) ?? 0,
  };
}

export function createProfilesRepository(db: Db) {
  const client = db.$client;
  const userByName = client.prepare<[string], ProfileUserRow>(
    `SELECT u.id, u.username, u.status, u.is_email_verified AS isEmailVerified, u.id_verified_at AS idVerifiedAt,
       u.feedback_positive AS feedbackPositive, u.feedback_negative AS feedbackNegative,
       u.completed_trades AS completedTrades, u.last_seen_at AS lastSeenAt, u.created_at AS createdAt,
       s.avatar_url AS avatarUrl, s.bio, p.verified_at AS phoneVerifiedAt
     FROM users u
     LEFT JOIN user_settings s ON s.user_id = u.id
     LEFT JOIN phones p ON p.user_id = u.id
     WHERE lower(u.username) = lower(?)`,
  );
  const isModerator = client
    .prepare<[number], number>(
      "SELECT 1 FROM users WHERE id = ? AND status = 'active' AND role IN ('moderator', 'admin')",
    )
    .pluck();
  // The newest device the geolocation placed (devices.country, written after each new sign-in).
  const latestCountry = client.prepare<[number], { iso: string; name: string | null }>(
    `SELECT d.country AS iso, c.name FROM devices d LEFT JOIN countries c ON c.iso = d.country
     WHERE d.user_id = ? AND d.country IS NOT NULL ORDER BY d.created_at DESC, d.id DESC LIMIT 1`,
  );
  const completedWith = client
    .prepare<{ a: number; b: number }, number>(
      `SELECT (SELECT count(*) FROM trades WHERE buyer_id = @a AND seller_id = @b AND status IN ${COMPLETED})
            + (SELECT count(*) FROM trades WHERE buyer_id = @b AND seller_id = @a AND status IN ${COMPLETED})`,
    )
    .pluck();
  const partners = client
    .prepare<[number, number], number>(
      `SELECT count(*) FROM (
         SELECT seller_id FROM trades WHERE buyer_id = ? AND status IN ${COMPLETED}
         UNION SELECT buyer_id FROM trades WHERE seller_id = ? AND status IN ${COMPLETED})`,
    )
    .pluck();
  const btcTraded = client.prepare<[number, number], number>(BTC_TRADED_SQL).pluck();
  const trustCounts = client.prepare<[number], { trusted: number | null; blocked: number | null }>(
    `SELECT sum(kind = 'trusted') AS trusted, sum(kind = 'blocked') AS blocked FROM user_trust WHERE other_id = ?`,
  );
  const trustOf = client
    .prepare<[number, number], TrustKind>('SELECT kind FROM user_trust WHERE user_id = ? AND other_id = ?')
    .pluck();
  const setTrust = client.prepare<{ userId: number; otherId: number; kind: TrustKind; at: number }>(
    `INSERT INTO user_trust (user_id, other_id, kind, created_at) VALUES (@userId, @otherId, @kind, @at)
     ON CONFLICT (user_id, other_id) DO UPDATE SET kind = excluded.kind, created_at = excluded.created_at
     WHERE kind <> excluded.kind`,
  );
  const clearTrust = client.prepare<[number, number]>('DELETE FROM user_trust WHERE user_id = ? AND other_id = ?');

  return gated(db, {
    db,
    userByName: (username: string) => userByName.get(username),
    isModerator: (userId: number) => isModerator.get(userId) !== undefined,
    latestCountry: (userId: number) => latestCountry.get(userId),
    completedWith: (a: number, b: number): number => completedWith.get({ a, b }) ?? 0,
    partners: (userId: number): number => partners.get(userId, userId) ?? 0,
    /** Satoshi of the person's completed BTC trades, bought and sold. */
    btcTraded: (userId: number): number => btcTraded.get(userId, userId) ?? 0,
    trustCounts: (userId: number) => {
      const row = trustCounts.get(userId);
      return { trusted: row?.trusted ?? 0, blocked: row?.blocked ?? 0 };
    },
    trustOf: (userId: number, otherId: number): TrustKind | undefined => trustOf.get(userId, otherId),
    setTrust: (userId: number, otherId: number, kind: TrustKind, at: number) =>
      setTrust.run({ userId, otherId, kind, at }),
    clearTrust: (userId: number, otherId: number) => clearTrust.run(userId, otherId),
    ...pastTradesReads(client),
  });
}

export type ProfilesRepository = ReturnType<typeof createProfilesRepository>;
