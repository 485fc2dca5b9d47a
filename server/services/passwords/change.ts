import { hashPassword, verifyPassword } from '../accounts/password.ts';
import { immediate, type PersonContext } from '../context.ts';
import type { SessionRow } from '../shared/account-types.ts';
import { checkNewPassword, fieldError, MISSING_CODE, WRONG_CODE } from './checks.ts';
import { mailChanged } from './mail-changed.ts';
import type { ChangePasswordInput, PasswordsDeps } from './types.ts';

/**
 * A signed-in person replaces their password, proving the current one (counted on the
 * account's sign-in limit when wrong) and, when it protects sign-in, the second factor.
 * Answers the new session for this browser: every session, this one included, has ended.
 */
export async function changePassword(
  deps: PasswordsDeps,
  ctx: PersonContext,
  input: ChangePasswordInput,
): Promise<{ token: string; session: SessionRow }> {
  const { repo, sessions, throttle, secondFactor, now } = deps;
  const { user } = ctx.auth;
  const { client } = input;
  // Reserved before argon2, so parallel wrong guesses cannot all pass the limit (issue 16).
  const attempt = await throttle.reservePassword(user.email);
  const currentOk = await verifyPassword(user.passwordHash, input.currentPassword);
  if (currentOk) await throttle.succeeded(attempt);
  else await throttle.failed(attempt);
  checkNewPassword(
    input.newPassword,
    'newPassword',
    currentOk
      ? []
      : [
          {
            field: 'currentPassword',
            message: 'This is not your current password.',
            key: 'current_password_wrong',
          },
        ],
  );
  if (input.newPassword === input.currentPassword) {
    throw fieldError('newPassword', 'Choose a password different from your current one.', 'password_unchanged');
  }
  // Signed in, a wrong code is a mistake in a form field, not a lost session (as on the 2FA forms).
  if ((await secondFactor.verify(ctx, { userId: user.id, purpose: 'login', code: input.code })) === 'failed') {
    const { message, key } = input.code?.trim() ? WRONG_CODE : MISSING_CODE;
    throw fieldError('code', message, key);
  }
  const passwordHash = await hashPassword(input.newPassword);
  const created = await immediate(repo.db, async () => {
    // Guarded on the hash this request verified: a change that won meanwhile is not overwritten.
    if (!(await repo.replacePasswordHash(user.id, user.passwordHash, passwordHash))) return undefined;
    // A reset link asked for earlier would otherwise undo this change.
    await repo.expireUnused(user.id, now());
    await sessions.invalidateAll(ctx, { userId: user.id });
    return await sessions.create(ctx, { userId: user.id, client });
  });
  if (!created) {
    throw fieldError(
      'currentPassword',
      'Your password was changed meanwhile. Sign in again.',
      'password_changed_meanwhile',
    );
  }
  await mailChanged(deps, user, client, 'changed');
  return created;
}
