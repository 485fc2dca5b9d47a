import type { ReferralFilters, ReferralSort, SortDirection } from '../affiliates.ts';

// What the affiliate endpoints answer (issue 20): the referral table's rows and page, the tier-2
// list of one referral, and the affiliate's summary. Amounts are decimal strings, as elsewhere.

/** Per currency, in the currency's decimals; `usd` is their worth when earned, for one total. */
export interface EarningsView {
  BTC: string;
  USDT: string;
  usd: string;
}

export interface ReferralRow {
  /** The referral's public id (`usr_…`): what the tier-2 list is asked with. */
  id: string;
  username: string;
  /** Unix ms. */
  registeredAt: number;
  completedTrades: number;
  /** US dollars, two decimals. */
  tradedVolumeUsd: string;
  /** What the affiliate earned through this person. */
  earnings: EarningsView;
  /** Seen in the last 30 days. */
  isActive: boolean;
  /** Tier 1 only: how many people this referral brought (their tier-2 list). */
  referralsCount: number;
}

export interface ReferralsMeta {
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
  sortBy: ReferralSort;
  sortDir: SortDirection;
  filters: ReferralFilters;
}

export interface ReferralsPage {
  data: ReferralRow[];
  meta: ReferralsMeta;
}

export interface AffiliateSummary {
  isAffiliate: boolean;
  isAffiliatePayForSellSide: boolean;
  referralCode: string;
  /** Absolute, from the configured origin. */
  link: string;
  tier1Count: number;
  tier2Count: number;
  earned: EarningsView;
  thisMonth: EarningsView;
  /** Waiting to be moved to the wallet. */
  balance: { BTC: string; USDT: string };
  minimum: { BTC: string; USDT: string };
  /** Percent of the escrow fee, per tier. */
  rates: { tier1: number; tier2: number };
  /** Whether the balance passes the minimum in some currency. */
  canPayOut: boolean;
}

export interface AffiliatePayout {
  /** The ledger transaction (`ltx_…`). */
  transactionId: string;
  moved: { BTC: string; USDT: string };
  /** True when this answers a retry of the same key. */
  replayed: boolean;
}
