import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import type { LedgerCurrency } from '../../../db/schema/index.ts';
import type { ReferralSort, SortDirection } from '../../../src/lib/shared/affiliates.ts';

// SQL of the affiliate programme (issue 20), in the portable text both engines run
// (db/sql-client.ts). Who referred whom is `users.referred_by_id`; what each affiliate earned on
// which trade is `affiliate_earnings`, written beside the ledger's `affiliate_share` transaction.

/** One trader's referrers: tier 1 (who referred them) and tier 2 (who referred that one), if any. */
export interface UplineRow {
  userId: number;
  t1Id: number;
  t1Affiliate: number;
  t1SellSide: number;
  t1Status: string;
  t2Id: number | null;
  t2Affiliate: number | null;
  t2SellSide: number | null;
  t2Status: string | null;
}

export interface NewEarning {
  affiliateId: number;
  tier: 1 | 2;
  referralId: number;
  traderId: number;
  tradeId: number;
  escrowRef: string;
  side: 'buy' | 'sell';
  currency: LedgerCurrency;
  amount: number;
  usdCents: number;
  ledgerTransactionId: string;
  at: number;
}

/** A referral as the table lists them, with what the affiliate earned through them. */
export interface ReferralDbRow {
  publicId: string;
  username: string;
  registeredAt: number;
  completedTrades: number;
  tradedUsdCents: number;
  lastSeenAt: number;
  earnedBtc: number;
  earnedUsdt: number;
  earnedUsdCents: number;
  referralsCount: number;
}

/** The referral table's query: whose referrals, which ones, in which order, which page. */
export interface ReferralQuery {
  /** The referrer whose referrals are listed (the affiliate, or for tier 2 their tier-1 referral). */
  referrerId: number;
  /** Who the earnings are counted for. */
  affiliateId: number;
  tier: 1 | 2;
  activeSince: number;
  minTrades: number;
  registeredFrom: number;
  registeredBefore: number;
  sortBy: ReferralSort;
  sortDir: SortDirection;
  limit: number;
  offset: number;
}

const UPLINES = `SELECT u.id AS userId,
    r1.id AS t1Id, r1.is_affiliate AS t1Affiliate, r1.is_affiliate_pay_for_sell_side AS t1SellSide, r1.status AS t1Status,
    r2.id AS t2Id, r2.is_affiliate AS t2Affiliate, r2.is_affiliate_pay_for_sell_side AS t2SellSide, r2.status AS t2Status
  FROM users u JOIN users r1 ON r1.id = u.referred_by_id LEFT JOIN users r2 ON r2.id = r1.referred_by_id
  WHERE u.id IN (?, ?)`;
const EARNING_COLUMNS = [
  'affiliateId',
  'tier',
  'referralId',
  'traderId',
  'tradeId',
  'escrowRef',
  'side',
  'currency',
  'amount',
  'usdCents',
  'ledgerTransactionId',
  'at',
] as const;
/** One statement for a release's shares (a text per number of rows, each prepared once). */
const insertEarningsText = (rows: number) => `INSERT INTO affiliate_earnings
  (affiliate_id, tier, referral_id, trader_id, trade_id, escrow_ref, side, currency, amount, usd_cents,
   ledger_transaction_id, created_at)
  VALUES ${Array.from({ length: rows }, () => `(${EARNING_COLUMNS.map(() => '?').join(', ')})`).join(', ')}`;
const SET_AFFILIATE = 'UPDATE users SET is_affiliate = 1 WHERE id = ? AND is_affiliate = 0';
const PERSON = `SELECT id, public_id AS publicId, username, referral_code AS referralCode, referred_by_id AS referredById,
  is_affiliate AS isAffiliate, is_affiliate_pay_for_sell_side AS isAffiliatePayForSellSide
  FROM users WHERE lower(username) = lower(?)`;
const PERSON_BY_PUBLIC_ID = `SELECT id, public_id AS publicId, username, referral_code AS referralCode,
  referred_by_id AS referredById, is_affiliate AS isAffiliate,
  is_affiliate_pay_for_sell_side AS isAffiliatePayForSellSide FROM users WHERE public_id = ?`;
const PERSON_BY_ID = `SELECT id, public_id AS publicId, username, referral_code AS referralCode,
  referred_by_id AS referredById, is_affiliate AS isAffiliate,
  is_affiliate_pay_for_sell_side AS isAffiliatePayForSellSide FROM users WHERE id = ?`;
const COUNTS = `SELECT
    (SELECT count(*) FROM users WHERE referred_by_id = @id) AS tier1,
    (SELECT count(*) FROM users u JOIN users r ON r.id = u.referred_by_id WHERE r.referred_by_id = @id) AS tier2`;
const EARNED = `SELECT currency, sum(amount) AS amount, sum(usd_cents) AS usdCents FROM affiliate_earnings
  WHERE affiliate_id = ? AND created_at >= ? GROUP BY currency`;

export interface PersonRow {
  id: number;
  publicId: string;
  username: string;
  referralCode: string | null;
  referredById: number | null;
  isAffiliate: number;
  isAffiliatePayForSellSide: number;
}

/** The columns each sort orders by; the user id breaks ties so pages never overlap. */
const ORDER: Record<ReferralSort, string> = {
  username: 'lower(u.username)',
  registered: 'u.created_at',
  trades: 'u.completed_trades',
  volume: 'u.traded_usd_cents',
  // The expression, not its alias: PostgreSQL folds an unquoted earnedUsdCents to lower case.
  earnings: 'coalesce(e.usd, 0)',
};

/** The referrals of @referrerId, filtered. */
const FILTERED = `FROM users u
  WHERE u.referred_by_id = @referrerId AND u.last_seen_at >= @activeSince AND u.completed_trades >= @minTrades
    AND u.created_at >= @registeredFrom AND u.created_at < @registeredBefore`;

/**
 * A page of referrals with what @affiliateId earned through each: for a tier-1 row, everything
 * that came through that person (their trades and their referrals'); for a tier-2 row, what that
 * person's own trades earned the affiliate.
 */
const referralsText = (tier: 1 | 2, sortBy: ReferralSort, sortDir: SortDirection) => {
  const dir = sortDir === 'up' ? 'ASC' : 'DESC';
  const person = tier === 1 ? 'referral_id' : 'trader_id';
  return `SELECT u.public_id AS publicId, u.username, u.created_at AS registeredAt,
      u.completed_trades AS completedTrades, u.traded_usd_cents AS tradedUsdCents, u.last_seen_at AS lastSeenAt,
      coalesce(e.btc, 0) AS earnedBtc, coalesce(e.usdt, 0) AS earnedUsdt, coalesce(e.usd, 0) AS earnedUsdCents,
      (SELECT count(*) FROM users c WHERE c.referred_by_id = u.id) AS referralsCount
    ${FILTERED.replace(
      'FROM users u',
      `FROM users u LEFT JOIN (
      SELECT ${person} AS person, sum(CASE WHEN currency = 'BTC' THEN amount ELSE 0 END) AS btc,
        sum(CASE WHEN currency = 'USDT' THEN amount ELSE 0 END) AS usdt, sum(usd_cents) AS usd
      FROM affiliate_earnings WHERE affiliate_id = @affiliateId${tier === 2 ? ' AND tier = 2' : ''}
      GROUP BY ${person}) e ON e.person = u.id`,
    )}
    ORDER BY ${ORDER[sortBy]} ${dir}, u.id ${dir}
    LIMIT @limit OFFSET @offset`;
};
const COUNT_REFERRALS = `SELECT count(*) AS total ${FILTERED}`;

export function createAffiliatesRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const { sql } = database;
  return {
    db: database,
    /** The referrers of the two parties of a trade (only those who were referred have a row). */
    uplines: (buyerId: number, sellerId: number) => sql.all<UplineRow>(UPLINES, [buyerId, sellerId]),
    insertEarnings: (rows: NewEarning[]) =>
      sql.run(
        insertEarningsText(rows.length),
        rows.flatMap((row) => EARNING_COLUMNS.map((column) => row[column])),
      ),
    /** False when the person was an affiliate already. */
    setAffiliate: async (userId: number) => (await sql.run(SET_AFFILIATE, [userId])).changes === 1,
    personByUsername: (username: string) => sql.get<PersonRow>(PERSON, [username]),
    personByPublicId: (publicId: string) => sql.get<PersonRow>(PERSON_BY_PUBLIC_ID, [publicId]),
    personById: (id: number) => sql.get<PersonRow>(PERSON_BY_ID, [id]),
    counts: async (id: number) =>
      (await sql.get<{ tier1: number; tier2: number }>(COUNTS, [{ id }])) ?? { tier1: 0, tier2: 0 },
    /** What the affiliate earned since `since` (unix ms), per currency. */
    earnedSince: (affiliateId: number, since: number) =>
      sql.all<{ currency: LedgerCurrency; amount: number; usdCents: number }>(EARNED, [affiliateId, since]),
    /** One page of referrals and how many pass the filters. */
    referrals: async ({ tier, sortBy, sortDir, affiliateId, limit, offset, ...filters }: ReferralQuery) => {
      const [rows, count] = await Promise.all([
        sql.all<ReferralDbRow>(referralsText(tier, sortBy, sortDir), [{ ...filters, affiliateId, limit, offset }]),
        sql.get<{ total: number }>(COUNT_REFERRALS, [filters]),
      ]);
      return { rows, total: count?.total ?? 0 };
    },
  };
}

export type AffiliatesRepository = ReturnType<typeof createAffiliatesRepository>;
