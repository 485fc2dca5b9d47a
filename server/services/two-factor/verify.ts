import type { ServiceContext } from '../context.ts';
import { check } from './codes.ts';
import { purposesOf } from './state.ts';
import type { TwoFactorCheck, TwoFactorParts, TwoFactorPurpose } from './types.ts';

/**
 * The one check other areas make before a protected action. `failed` covers a missing code
 * (not counted: asking for it is the normal first step) and a wrong or used one (counted).
 * Throws RATE_LIMITED when the account has had too many wrong secrets lately.
 */
export async function verifyTwoFactor(
  parts: TwoFactorParts,
  _ctx: ServiceContext,
  { userId, purpose, code }: { userId: number; purpose: TwoFactorPurpose; code?: string | undefined },
): Promise<TwoFactorCheck> {
  const found = await parts.repo.find(userId);
  if (!found?.factor || !purposesOf(found.factor)[purpose]) return 'disabled';
  if (!code?.trim()) return 'failed';
  return (await check(parts, userId, found.email, found.factor, code)) ? 'passed' : 'failed';
}

/**
 * The operators' check (server/services/operators/second-factor.ts): any enabled factor, whatever
 * its purposes, proven by a current code or a recovery code, spent and counted as `verify` does.
 * `disabled` when the account has no confirmed factor at all.
 */
export async function verifyEnabledFactor(
  parts: TwoFactorParts,
  _ctx: ServiceContext,
  { userId, code }: { userId: number; code?: string | undefined },
): Promise<TwoFactorCheck> {
  const found = await parts.repo.find(userId);
  if (!found?.factor || found.factor.confirmedAt === null) return 'disabled';
  if (!code?.trim()) return 'failed';
  return (await check(parts, userId, found.email, found.factor, code)) ? 'passed' : 'failed';
}
