import {
  AFFILIATE_PAYOUT_MINIMUM,
  AFFILIATE_SHARE_BASIS_POINTS,
  referralPath,
} from '../../../src/lib/shared/affiliates.ts';
import type { AffiliateSummary } from '../../../src/lib/shared/views/affiliates.ts';
import type { PersonContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { AffiliatesDeps } from './deps.ts';
import { btc, earningsView, usdt } from './views.ts';

// The top of the /affiliates page: the link, how many people came through it, what they earned
// the affiliate in all and this month, and what waits to be moved to the wallet.

/** The affiliate's earnings accounts, in minor units (zero before the first share). */
export async function earningsBalances({ ledger }: AffiliatesDeps, ctx: PersonContext, userId: number) {
  return ledger.balances(ctx, { userId, kind: 'affiliate_earnings' });
}

/** What the rows of `affiliate_earnings` since `since` add up to. */
async function earnedSince({ repo }: AffiliatesDeps, userId: number, since: number) {
  const sums = { BTC: 0, USDT: 0, usdCents: 0 };
  for (const row of await repo.earnedSince(userId, since)) {
    sums[row.currency] += row.amount;
    sums.usdCents += row.usdCents;
  }
  return sums;
}

const monthStart = (at: number) => {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
};

export async function affiliateSummary(deps: AffiliatesDeps, ctx: PersonContext): Promise<AffiliateSummary> {
  const { repo, siteOrigin, now } = deps;
  const person = await repo.personById(ctx.auth.user.id);
  if (!person) throw notFound('Account', 'user');
  const [counts, earned, thisMonth, balance] = await Promise.all([
    repo.counts(person.id),
    earnedSince(deps, person.id, 0),
    earnedSince(deps, person.id, monthStart(now())),
    earningsBalances(deps, ctx, person.id),
  ]);
  const code = person.referralCode ?? '';
  return {
    isAffiliate: person.isAffiliate === 1,
    isAffiliatePayForSellSide: person.isAffiliatePayForSellSide === 1,
    referralCode: code,
    link: siteOrigin.url(referralPath(code)),
    tier1Count: counts.tier1,
    tier2Count: counts.tier2,
    earned: earningsView(earned),
    thisMonth: earningsView(thisMonth),
    balance: { BTC: btc(balance.BTC), USDT: usdt(balance.USDT) },
    minimum: { BTC: btc(AFFILIATE_PAYOUT_MINIMUM.BTC), USDT: usdt(AFFILIATE_PAYOUT_MINIMUM.USDT) },
    rates: { tier1: AFFILIATE_SHARE_BASIS_POINTS[1] / 100, tier2: AFFILIATE_SHARE_BASIS_POINTS[2] / 100 },
    canPayOut: balance.BTC >= AFFILIATE_PAYOUT_MINIMUM.BTC || balance.USDT >= AFFILIATE_PAYOUT_MINIMUM.USDT,
  };
}

/** Joining the programme: the person takes the affiliate role (once; joining again changes nothing). */
export async function joinProgramme(deps: AffiliatesDeps, ctx: PersonContext): Promise<AffiliateSummary> {
  await deps.repo.setAffiliate(ctx.auth.user.id);
  return affiliateSummary(deps, ctx);
}
