import type { ServiceContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { TradeAllowance } from './levels.ts';
import { tradeAllowanceOf } from './summary.ts';
import type { VerificationDeps } from './types.ts';

/**
 * What a person may still trade in the rolling 30 days, in US cents. The trades service reads
 * it at trade start through assertWithinLimit; the offer page through the offers service.
 */
export function tradeAllowance(
  deps: VerificationDeps,
  _ctx: ServiceContext,
  { userId }: { userId: number },
): Promise<TradeAllowance> {
  return tradeAllowanceOf(deps, userId);
}

/**
 * Rejects with TRADING_LIMIT_EXCEEDED when a trade worth `usdAmountCents` would take the person
 * past the limit of their level. Await it inside the trade-start transaction, before the trade
 * row is written, for both the buyer and the seller.
 */
export async function assertWithinLimit(
  deps: VerificationDeps,
  _ctx: ServiceContext,
  { userId, usdAmountCents }: { userId: number; usdAmountCents: number },
): Promise<TradeAllowance> {
  const allowance = await tradeAllowanceOf(deps, userId);
  if (usdAmountCents > allowance.unusedUsdCents) {
    const params = {
      level: allowance.level,
      unused: (allowance.unusedUsdCents / 100).toFixed(2),
      limit: (allowance.limitUsdCents / 100).toFixed(0),
      days: allowance.windowDays,
    };
    throw new AppError(
      'TRADING_LIMIT_EXCEEDED',
      `This trade is above your trading limit: ${params.unused} USD of ${params.limit} USD left for the last ${params.days} days at level ${params.level}. Verify more to raise it.`,
      { key: 'trading_limit_exceeded', params, meta: { allowance } },
    );
  }
  return allowance;
}
