import { sql } from 'drizzle-orm';
import { check, index, inList, integer, table, text, uniqueIndex } from './dialect.ts';
import { LEDGER_CURRENCIES } from './ledger.ts';
import { trades } from './trades.ts';
import { users } from './users.ts';

// What each affiliate earned on which trade (issue 20; docs/affiliates.md): one row per share,
// written by server/services/affiliates/ in the transaction that releases the trade, beside the
// ledger's `affiliate_share` transaction that moved the same amounts. The ledger holds the money;
// these rows say where it came from, for the referral table's per-person earnings and the summary.

export const AFFILIATE_TIERS = [1, 2] as const;

export const affiliateEarnings = table(
  'affiliate_earnings',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Who earned. */
    affiliateId: integer('affiliate_id')
      .notNull()
      .references(() => users.id),
    /** 1: the trader is the affiliate's own referral; 2: a referral of one of them. */
    tier: integer('tier').notNull(),
    /** The affiliate's tier-1 referral this came through: the trader (tier 1) or the trader's referrer (tier 2). */
    referralId: integer('referral_id')
      .notNull()
      .references(() => users.id),
    /** The referred person whose trade paid the fee. */
    traderId: integer('trader_id')
      .notNull()
      .references(() => users.id),
    tradeId: integer('trade_id')
      .notNull()
      .references(() => trades.id),
    /** The escrow released (a reopened trade releases a new one): with the rest, the row's identity. */
    escrowRef: text('escrow_ref').notNull(),
    /** The trader's side of the trade. */
    side: text('side', { enum: ['buy', 'sell'] }).notNull(),
    currency: text('currency', { enum: LEDGER_CURRENCIES }).notNull(),
    /** Minor units (satoshi, micro-tether), > 0. */
    amount: integer('amount').notNull(),
    /** The amount's worth in US cents at the trade's price, for sums across currencies. */
    usdCents: integer('usd_cents').notNull(),
    /** The ledger transaction (`ltx_…`) that credited it. */
    ledgerTransactionId: text('ledger_transaction_id').notNull(),
    /** Unix ms. */
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('affiliate_earnings_share_uq').on(t.escrowRef, t.affiliateId, t.tier, t.side),
    index('affiliate_earnings_affiliate_idx').on(t.affiliateId, t.referralId),
    index('affiliate_earnings_month_idx').on(t.affiliateId, t.createdAt),
    check('affiliate_earnings_tier_check', sql`${t.tier} IN (1, 2)`),
    check('affiliate_earnings_side_check', inList('side', ['buy', 'sell'])),
    check('affiliate_earnings_amount_check', sql`${t.amount} > 0 AND ${t.usdCents} >= 0`),
  ],
);
