import { bindVerb, type PersonContext } from '../context.ts';
import type { AffiliatesDeps } from './deps.ts';
import { affiliateOf, earnOnRelease, type ReleasedTrade } from './earn.ts';
import { payOut } from './payout.ts';
import { tier1Referrals, tier2Referrals } from './referrals.ts';
import { affiliateSummary, joinProgramme } from './summary.ts';

// The affiliate programme (issue 20, docs/affiliates.md): the summary and joining, the referral
// table and its tier-2 lists, the move of earnings to the wallet; and for the trades service, the
// affiliate a trade is credited to and the fee shares at its release. One verb per file.

export type { AffiliatesDeps } from './deps.ts';
export type { ReleasedTrade } from './earn.ts';

export function createAffiliatesService(deps: AffiliatesDeps) {
  return {
    summary: (ctx: PersonContext) => affiliateSummary(deps, ctx),
    join: (ctx: PersonContext) => joinProgramme(deps, ctx),
    referrals: bindVerb(deps, tier1Referrals),
    tier2: bindVerb(deps, tier2Referrals),
    payOut: bindVerb(deps, payOut),
    /** For the trades service (server/services/trades/deps.ts `AffiliateShares`). */
    shares: {
      affiliateOf: (buyerId: number, sellerId: number) => affiliateOf(deps, buyerId, sellerId),
      earn: (...args: [Parameters<typeof earnOnRelease>[1], ReleasedTrade, 'released' | 'dispute_won_buyer']) =>
        earnOnRelease(deps, ...args),
    },
  };
}

export type AffiliatesService = ReturnType<typeof createAffiliatesService>;
