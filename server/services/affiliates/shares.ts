import { AFFILIATE_SHARE_BASIS_POINTS } from '../../../src/lib/shared/affiliates.ts';
import type { UplineRow } from './repository.ts';

// Who earns what of a completed trade's escrow fee (issue 20, decision 114), as a pure function
// of the trade and its parties' referrers, so the rules are tested without a database.
//
// - The buyer's referrers earn on every completed trade; the seller's only when the affiliate
//   also earns on sales (`isAffiliatePayForSellSide`, granted by an administrator).
// - Tier 1 (the trader's referrer) gets 50 % of the fee, tier 2 (their referrer) 10 %.
// - When both sides earn, each side's shares are of half the fee: never more than 60 % in all.
// - A dispute decided for the seller returns the escrow (no fee, nothing to share); one decided
//   for the buyer shares only the buyer's side: the seller lost it.
// - Only affiliates who are not banned earn, and never on a trade they are a party of (a fee
//   discount on one's own trades is not a referral).
// - Shares round down to whole minor units: the platform keeps the remainder.

export type Side = 'buy' | 'sell';

export interface Share {
  affiliateId: number;
  tier: 1 | 2;
  /** The affiliate's tier-1 referral it came through. */
  referralId: number;
  traderId: number;
  side: Side;
  amount: number;
}

export interface TradeForShares {
  buyerId: number;
  sellerId: number;
  fee: number;
  /** Which sides may earn: a release, both; a dispute won by the buyer, the buyer's only. */
  outcome: 'released' | 'dispute_won_buyer';
}

interface Earner {
  affiliateId: number;
  tier: 1 | 2;
  referralId: number;
}

const eligible = (affiliate: number | null, status: string | null) => affiliate === 1 && status !== 'banned';

/** The affiliates who earn on `side` of the trade through the trader's referrers. */
function earnersOf(upline: UplineRow | undefined, side: Side, parties: number[]): Earner[] {
  if (!upline) return [];
  const earners: Earner[] = [];
  const earns = (id: number, affiliate: number | null, sellSide: number | null, status: string | null) =>
    eligible(affiliate, status) && (side === 'buy' || sellSide === 1) && !parties.includes(id);
  if (earns(upline.t1Id, upline.t1Affiliate, upline.t1SellSide, upline.t1Status))
    earners.push({ affiliateId: upline.t1Id, tier: 1, referralId: upline.userId });
  if (upline.t2Id !== null && earns(upline.t2Id, upline.t2Affiliate, upline.t2SellSide, upline.t2Status))
    earners.push({ affiliateId: upline.t2Id, tier: 2, referralId: upline.t1Id });
  return earners;
}

/** Every share of the trade's fee, in minor units of its currency; empty when nobody earns. */
export function sharesOf(trade: TradeForShares, uplines: UplineRow[]): Share[] {
  const parties = [trade.buyerId, trade.sellerId];
  const upline = (id: number) => uplines.find((row) => row.userId === id);
  const sides: { side: Side; traderId: number; earners: Earner[] }[] = [
    { side: 'buy' as const, traderId: trade.buyerId, earners: earnersOf(upline(trade.buyerId), 'buy', parties) },
    ...(trade.outcome === 'released'
      ? [
          {
            side: 'sell' as const,
            traderId: trade.sellerId,
            earners: earnersOf(upline(trade.sellerId), 'sell', parties),
          },
        ]
      : []),
  ].filter((entry) => entry.earners.length > 0);
  if (sides.length === 0 || trade.fee <= 0) return [];
  const base = Math.floor(trade.fee / sides.length);
  return sides.flatMap(({ side, traderId, earners }) =>
    earners
      .map((earner) => ({
        ...earner,
        traderId,
        side,
        amount: Math.floor((base * AFFILIATE_SHARE_BASIS_POINTS[earner.tier]) / 10_000),
      }))
      .filter((share) => share.amount > 0),
  );
}

/** The tier-1 affiliate a trade is credited to when it starts (`trades.affiliate_id`): the buyer's, else the seller's. */
export function affiliateOfTrade(buyerId: number, sellerId: number, uplines: UplineRow[]): number | null {
  const parties = [buyerId, sellerId];
  const first = (id: number, side: Side) =>
    earnersOf(
      uplines.find((row) => row.userId === id),
      side,
      parties,
    ).find((earner) => earner.tier === 1)?.affiliateId;
  return first(buyerId, 'buy') ?? first(sellerId, 'sell') ?? null;
}
