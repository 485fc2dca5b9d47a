import { createConvert, type HedgingDeps } from './convert.ts';
import { HEDGING_LIMITS } from './rules.ts';

// Conversion between BTC and USDT ("hedging", spec sections 3, 4 and 8): at a current quote, within
// the limits, from a wallet that holds the amount, through the conversion desk, in one ledger
// transaction. `order_id` makes it idempotent: a retry with the same order answers the first
// conversion even after its quote expired, and nothing moves twice.

export type { ConvertResult } from './answer.ts';
export type { ConvertInput, HedgingDeps } from './convert.ts';
export { HEDGING_LIMITS, RETRYABLE_CODES } from './rules.ts';

export function createHedgingService(deps: HedgingDeps) {
  return {
    limits: HEDGING_LIMITS,
    convert: createConvert(deps),
  };
}

export type HedgingService = ReturnType<typeof createHedgingService>;
