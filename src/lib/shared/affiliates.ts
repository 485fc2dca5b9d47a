// The affiliate programme (issue 20; docs/affiliates.md, decision 114): what an affiliate earns of
// the escrow fee their referrals' trades pay, when they can move it to their wallet, and how the
// referral table is asked for. One module for the fees page, the /affiliates page and the server.

/** Tier 1: the affiliate's own referrals' trades; tier 2: the referrals of those. Basis points of the fee. */
export const AFFILIATE_SHARE_BASIS_POINTS = { 1: 5000, 2: 1000 } as const;

/** The least an affiliate moves into their wallet at once, per currency, in minor units (0.0001 BTC, 1 USDT). */
export const AFFILIATE_PAYOUT_MINIMUM = { BTC: 10_000, USDT: 1_000_000 } as const;

/** How long a referral link is remembered before registration (the `ref` cookie). */
export const REFERRAL_COOKIE = 'ref';
export const REFERRAL_COOKIE_DAYS = 30;

/** A referral code as the server makes them (server/services/accounts: 10 of [a-z0-9]), read case-blind. */
export const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9]{4,32}$/;

export const REFERRALS_PAGE_SIZE = 20;
export const TIER2_PAGE_SIZE = 50;

/** The referral table's columns that sort (`sortBy`), and the directions (`sortDir`). */
export const REFERRAL_SORTS = ['username', 'registered', 'trades', 'volume', 'earnings'] as const;
export type ReferralSort = (typeof REFERRAL_SORTS)[number];
export const SORT_DIRECTIONS = ['up', 'down'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** "Active": seen in this many days. */
export const ACTIVE_DAYS = 30;

/** The referral table's filters (`filters[active]=1`, `filters[traded]=1`, `filters[from]=YYYY-MM-DD`, `filters[to]=…`). */
export interface ReferralFilters {
  active?: boolean;
  traded?: boolean;
  /** Registered on or after this day (UTC), `YYYY-MM-DD`. */
  from?: string;
  /** Registered on or before this day (UTC). */
  to?: string;
}

/** The link a person shares: the home page with their code. */
export const referralPath = (code: string) => `/?ref=${encodeURIComponent(code)}`;
