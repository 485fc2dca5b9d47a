import { CRYPTO_DECIMALS, fromMinorUnits } from '../../../src/lib/shared/money.ts';
import type { ServiceContext } from '../context.ts';
import { earningsOf, systemAccount } from '../ledger/ledger.ts';
import { AFFILIATES_BUS_CHANNEL, type AffiliateEarnedPayload } from '../notifications/trade-events.ts';
import type { AffiliatesDeps } from './deps.ts';
import { affiliateOfTrade, sharesOf } from './shares.ts';

// What the trades service asks of the programme (server/services/trades/deps.ts
// `AffiliateShares`): at the start, which affiliate the trade is credited to; at a release, the
// shares of its fee, moved on the ledger inside the release's own transaction (`ctx.tx`).

/** A completed trade as the shares need it. */
export interface ReleasedTrade {
  id: number;
  hash: string;
  escrowRef: string;
  buyerId: number;
  sellerId: number;
  cryptoCode: 'BTC' | 'USDT';
  cryptoAmount: number;
  feeAmount: number;
  usdAmountCents: number;
  buyerUsername: string;
  sellerUsername: string;
}

export async function affiliateOf({ repo }: AffiliatesDeps, buyerId: number, sellerId: number): Promise<number | null> {
  return affiliateOfTrade(buyerId, sellerId, await repo.uplines(buyerId, sellerId));
}

/**
 * The trade's fee shares, from fee income into the affiliates' earnings accounts as one
 * `affiliate_share` transaction, and a row per share for the referral table. Once per escrow: a
 * retry finds the ledger's key and writes nothing more.
 */
export async function earnOnRelease(
  { repo, ledger, bus }: AffiliatesDeps,
  ctx: ServiceContext,
  trade: ReleasedTrade,
  outcome: 'released' | 'dispute_won_buyer',
): Promise<void> {
  const uplines = await repo.uplines(trade.buyerId, trade.sellerId);
  if (uplines.length === 0) return;
  const shares = sharesOf({ buyerId: trade.buyerId, sellerId: trade.sellerId, fee: trade.feeAmount, outcome }, uplines);
  if (shares.length === 0) return;
  const currency = trade.cryptoCode;
  // One leg per account: an affiliate may earn twice on one trade (tier 1 of one side, tier 2 of the other).
  const perAffiliate = new Map<number, number>();
  for (const share of shares)
    perAffiliate.set(share.affiliateId, (perAffiliate.get(share.affiliateId) ?? 0) + share.amount);
  const total = shares.reduce((sum, share) => sum + share.amount, 0);
  const posted = await ledger.post(ctx, {
    kind: 'affiliate_share',
    idempotencyKey: `trade:${trade.escrowRef}:affiliate`,
    memo: `trade ${trade.hash}: affiliate shares`,
    metadata: { tradeRef: trade.escrowRef },
    legs: [
      { account: systemAccount('fee_income', currency), amount: -total },
      ...[...perAffiliate].map(([id, amount]) => ({ account: earningsOf(id, currency), amount })),
    ],
  });
  if (posted.replayed) return;
  await repo.insertEarnings(
    shares.map((share) => ({
      ...share,
      tradeId: trade.id,
      escrowRef: trade.escrowRef,
      currency,
      usdCents: Math.round((trade.usdAmountCents * share.amount) / trade.cryptoAmount),
      ledgerTransactionId: posted.id,
      at: posted.createdAt,
    })),
  );
  const payload: AffiliateEarnedPayload = {
    shares: shares.map((share) => ({
      affiliateId: share.affiliateId,
      amount: fromMinorUnits(share.amount, CRYPTO_DECIMALS[currency]),
      currency,
      tier: share.tier,
      traderUsername: share.side === 'buy' ? trade.buyerUsername : trade.sellerUsername,
    })),
  };
  // One event for the release: its notifications are written in one transaction.
  ctx.tx?.afterCommit(() => bus.publish(AFFILIATES_BUS_CHANNEL, { type: 'affiliate.earned', payload }));
}
