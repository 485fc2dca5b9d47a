import type { PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { load } from './codes.ts';
import { hashRecoveryCode, newRecoveryCodes } from './recovery-codes.ts';
import { stateOf, wrongCode } from './state.ts';
import { matchTotp } from './totp.ts';
import type { TwoFactorParts } from './types.ts';

/**
 * Turns the factor on with a first code from the app, which proves the secret arrived. Answers
 * the recovery codes, in the clear this once. Wrong codes here do not count toward the limits:
 * the person already holds the secret, so there is nothing to guess.
 */
export async function confirmTwoFactor(
  parts: TwoFactorParts,
  ctx: PersonContext,
  { code }: { code: string },
): Promise<{ recoveryCodes: string[] }> {
  const { repo, now } = parts;
  const { user } = ctx.auth;
  const { factor } = await load(parts, user.id);
  const state = stateOf(factor);
  if (state === 'enabled') {
    throw new AppError('TWO_FACTOR_ALREADY_ENABLED', 'Two-factor authentication is already on.');
  }
  if (!factor || state !== 'verification') {
    throw new AppError('TWO_FACTOR_NOT_ENABLED', 'Start the two-factor setup first: there is no code to confirm.');
  }
  const step = matchTotp(factor.secret, code.replace(/\s/g, ''), now(), factor.lastUsedStep);
  if (step === null) throw wrongCode();
  const recoveryCodes = newRecoveryCodes();
  // The confirming code's step counts as used: it cannot sign anyone in afterwards.
  if (!(await repo.confirm(user.id, factor.secret, step, recoveryCodes.map(hashRecoveryCode), now()))) {
    throw new AppError('TWO_FACTOR_NOT_ENABLED', 'The setup changed meanwhile. Scan the new code and try again.');
  }
  return { recoveryCodes };
}
