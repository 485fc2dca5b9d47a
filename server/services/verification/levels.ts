import {
  LEVEL_LIMITS_USD_CENTS,
  LIMIT_WINDOW_DAYS,
  MAX_LEVEL,
  VERIFICATION_STEPS,
} from '../../../src/lib/shared/verification-rules.ts';
import type { NextLevel, TradeAllowance, VerifiedSteps } from '../../../src/lib/shared/views/verification.ts';

// The verification ladder (docs/verification.md): e-mail → phone → ID document and selfie →
// proof of address. Pure functions, so the allowance is tested without a database.

export type { NextLevel, TradeAllowance, VerifiedSteps };

export const LIMIT_WINDOW_MS = LIMIT_WINDOW_DAYS * 86_400_000;

/**
 * The number of steps done in order. A later step without the earlier ones does not count yet
 * (an approved ID without a verified phone stays at level 1): the ladder is the order, and
 * the page always names the one next step.
 */
export function levelOf(steps: VerifiedSteps): number {
  let level = 0;
  for (const step of VERIFICATION_STEPS) {
    if (!steps[step]) break;
    level++;
  }
  return level;
}

export function limitOfLevel(level: number): number {
  return LEVEL_LIMITS_USD_CENTS[Math.max(0, Math.min(level, MAX_LEVEL))] ?? 0;
}

export function allowanceOf(level: number, usedUsdCents: number): TradeAllowance {
  const limitUsdCents = limitOfLevel(level);
  const step = VERIFICATION_STEPS[level];
  return {
    level,
    limitUsdCents,
    usedUsdCents,
    unusedUsdCents: Math.max(0, limitUsdCents - usedUsdCents),
    windowDays: LIMIT_WINDOW_DAYS,
    next: step ? { level: level + 1, step, limitUsdCents: limitOfLevel(level + 1) } : null,
  };
}

/** The ladder as the dashboard lists it: every level with what reaching it takes. */
export function ladder(): NextLevel[] {
  return VERIFICATION_STEPS.map((step, i) => ({ level: i + 1, step, limitUsdCents: limitOfLevel(i + 1) }));
}
