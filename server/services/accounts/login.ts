import { NOSCRIPT_NONCE } from '../challenge/challenge.ts';
import { immediate, type ServiceContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { UserRow } from '../shared/account-types.ts';
import { normalizeEmail, safeRedirect } from './fields.ts';
import { decoyPasswordHash, isCompromisedPassword, verifyPassword } from './password.ts';
import { alertOwner } from './sign-in-alert.ts';
import { failureDelayMs, MAX_FAILURES_PER_ACCOUNT, type Reservation } from './throttle.ts';
import type { AccountsDeps, LoginInput } from './types.ts';

/** The wrong-password answer, after the failure was counted and, past the limit, waited for. */
async function refuseSignIn(
  deps: AccountsDeps,
  reservation: Reservation,
  user: UserRow | undefined,
  ip: string,
): Promise<never> {
  const failures = await deps.throttle.failed(reservation);
  if (user && failures >= MAX_FAILURES_PER_ACCOUNT) await alertOwner(deps, user, ip, failures);
  // Past the account limit (challenge on) each further failure waits longer; the right
  // password never waits. Unknown addresses wait alike, so the delay tells nothing.
  const delay = failureDelayMs(failures);
  if (delay > 0) await deps.sleep(delay);
  // One answer for an unknown address and a wrong password.
  throw new AppError('INVALID_CREDENTIALS', 'The e-mail address or the password is not correct.', {
    field: 'password',
    key: 'invalid_credentials',
    details: [
      {
        field: 'password',
        message: 'The e-mail address or the password is not correct.',
        key: 'invalid_credentials',
      },
    ],
  });
}

function secondFactorRefused(code: string | undefined): AppError {
  const message = code?.trim()
    ? 'This code is not correct. Enter the current code from your authenticator app or a recovery code.'
    : 'Enter the code from your authenticator app.';
  const key = code?.trim() ? 'two_factor_invalid' : 'two_factor_required';
  return new AppError(code?.trim() ? 'TWO_FACTOR_INVALID' : 'TWO_FACTOR_REQUIRED', message, {
    field: 'code',
    key,
    details: [{ field: 'code', message, key }],
  });
}

/** A visitor signs in with e-mail, password and, when the account asks, a second-factor code. */
export async function login(deps: AccountsDeps, ctx: ServiceContext, input: LoginInput) {
  const { repo, sessions, throttle, challenge, secondFactor, devices, now } = deps;
  const { client } = input;
  const email = normalizeEmail(input.email);
  // The challenge is optional on login (spec section 5) until failures pile up.
  // A form without JavaScript always offers its `noscript` marker; it counts only when required.
  const hasChallenge =
    input.geetest_validate !== NOSCRIPT_NONCE &&
    Boolean(input.geetest_challenge || input.geetest_validate || input.geetest_seccode);
  const challenged = hasChallenge || (await throttle.challengeDue(email, client.ip));
  // Solved (and spent) before the attempt is reserved: the reservation then knows it came.
  if (challenged) await challenge.verify(ctx, input);
  const reservation = await throttle.reserveSignIn(email, client.ip, challenged);
  const user = await repo.userByEmail(email);
  // An unknown address still costs one argon2 verification (against a hash nothing matches),
  // so the answer's timing does not tell which addresses have accounts.
  const passwordOk = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), input.password);
  if (!user || !passwordOk) return refuseSignIn(deps, reservation, user, client.ip);
  await throttle.succeeded(reservation);
  // Only now, with the password proven, may the answer say that a second factor is on.
  const factor = await secondFactor.verify(ctx, { userId: user.id, purpose: 'login', code: input.code });
  if (factor === 'failed') throw secondFactorRefused(input.code);
  if (user.status === 'banned') {
    throw new AppError('ACCOUNT_BANNED', 'This account is closed. Contact support if you think this is a mistake.', {
      key: 'account_banned',
    });
  }
  // The session and its device row together; the review mail only once both are committed.
  const { token, session, reviewToken } = await immediate(repo.db, async () => ({
    ...(await sessions.create(ctx, { userId: user.id, client })),
    reviewToken: await devices.recordSignIn(ctx, { userId: user.id, client }),
  }));
  await repo.touchLastSeen(user.id, now());
  if (reviewToken) await devices.mailReview(ctx, { user, token: reviewToken, client });
  return {
    token,
    session,
    user,
    redirectTo: safeRedirect(input.back),
    compromised: isCompromisedPassword(input.password),
  };
}
