import { hashPassword } from '../accounts/password.ts';
import { immediate, type ServiceContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { checkNewPassword, MISSING_CODE, WRONG_CODE } from './checks.ts';
import { RESET_REDIRECT } from './limits.ts';
import { mailChanged } from './mail-changed.ts';
import { invalidLink, liveReset } from './reset-link.ts';
import type { PasswordsDeps, ResetPasswordInput } from './types.ts';

/**
 * Sets a new password through a live link. The link is spent only on success: a weak password
 * or a wrong code leaves it usable. Proves the mailbox, so the address counts as verified and
 * the account's failed sign-ins are forgotten; every session ends and nobody is signed in.
 */
export async function resetPassword(
  deps: PasswordsDeps,
  ctx: ServiceContext,
  input: ResetPasswordInput,
): Promise<{ userId: number; redirectTo: string }> {
  const { repo, accounts, sessions, throttle, secondFactor, now } = deps;
  const { client } = input;
  const { reset, user } = await liveReset(deps, input.token);
  checkNewPassword(input.password, 'password');
  // As at sign-in (the person is not signed in): 401 with the field, the link untouched.
  if ((await secondFactor.verify(ctx, { userId: user.id, purpose: 'login', code: input.code })) === 'failed') {
    const { message, key } = input.code?.trim() ? WRONG_CODE : MISSING_CODE;
    throw new AppError(input.code?.trim() ? 'TWO_FACTOR_INVALID' : 'TWO_FACTOR_REQUIRED', message, {
      field: 'code',
      key,
      details: [{ field: 'code', message, key }],
    });
  }
  const passwordHash = await hashPassword(input.password);
  await immediate(repo.db, async () => {
    const at = now();
    if (!(await repo.consumeReset(reset.id, at))) throw invalidLink();
    await repo.setPasswordHash(user.id, passwordHash);
    await repo.expireUnused(user.id, at);
    await accounts.markEmailVerified(user.id);
    await sessions.invalidateAll(ctx, { userId: user.id });
    await throttle.clearAccount(user.email);
  });
  await mailChanged(deps, user, client, 'reset');
  return { userId: user.id, redirectTo: RESET_REDIRECT };
}
