import { randomBytes } from 'node:crypto';
import { isValidEmail } from '../../../src/lib/shared/input-patterns.ts';
import { normalizeEmail } from '../accounts/fields.ts';
import { immediate, type ServiceContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { EmailMessage } from '../messaging/messaging.ts';
import { fieldError } from './checks.ts';
import {
  MAX_RESET_MAILS_PER_ACCOUNT,
  MAX_RESET_REQUESTS_PER_IP,
  RESET_RETENTION_MS,
  RESET_TOKEN_TTL_MS,
  RESET_WINDOW_MS,
} from './limits.ts';
import { hashToken } from './reset-link.ts';
import type { ForgotPasswordInput, PasswordsDeps } from './types.ts';

/** 429 once the client address asked for enough resets in the window. */
async function assertUnderIpLimit({ repo }: PasswordsDeps, ip: string, at: number): Promise<void> {
  const fromIp = await repo.requestsSince(ip, at - RESET_WINDOW_MS);
  if (fromIp.count < MAX_RESET_REQUESTS_PER_IP) return;
  throw new AppError('RATE_LIMITED', 'Too many password reset requests. Wait a while and try again.', {
    key: 'reset_rate_limited',
    retryAfterSeconds: ((fromIp.oldest ?? at) + RESET_WINDOW_MS - at) / 1000,
  });
}

/**
 * "Forgot password": mails a reset link to an existing, open account. The answer and its work
 * are the same for any address; the mail leaves after the answer, so a slow mail server does
 * not tell either. Only the per-address limit answers 429; an account past its own limit
 * silently gets no further mail.
 */
export async function requestReset(
  deps: PasswordsDeps,
  ctx: ServiceContext,
  input: ForgotPasswordInput,
): Promise<void> {
  const { repo, accounts, challenge, mailer, siteOrigin, now, log } = deps;
  const { client } = input;
  const email = normalizeEmail(input.email);
  if (!isValidEmail(email)) throw fieldError('email', 'Enter a valid e-mail address.', 'email_invalid');
  // Before the challenge (a refused request spends none) and again under the write lock with
  // the row it adds: parallel requests cannot all pass a count none of them has written to.
  await assertUnderIpLimit(deps, client.ip, now());
  await challenge.verify(ctx, input);
  // Made for every request, used only for an account: the same work either way.
  const token = randomBytes(32).toString('base64url');
  const id = hashToken(token);
  const user = await immediate(repo.db, async () => {
    const createdAt = now();
    await assertUnderIpLimit(deps, client.ip, createdAt);
    await repo.recordRequest(client.ip, createdAt);
    await repo.pruneRequests(createdAt - RESET_WINDOW_MS);
    await repo.pruneResets(createdAt - RESET_RETENTION_MS);
    const found = await accounts.userByEmail(email);
    if (!found || found.status === 'banned') return undefined;
    if ((await repo.resetsSince(found.id, createdAt - RESET_WINDOW_MS)) >= MAX_RESET_MAILS_PER_ACCOUNT) {
      return undefined;
    }
    // One live link per account: the newest.
    await repo.expireUnused(found.id, createdAt);
    await repo.insertReset({
      id,
      userId: found.id,
      expiresAt: createdAt + RESET_TOKEN_TTL_MS,
      usedAt: null,
      createdAt,
    });
    return found;
  });
  if (!user) return;
  const link = siteOrigin.url(`/reset-password?token=${token}`);
  const message: EmailMessage = {
    to: user.email,
    subject: 'Reset your Coinfair password',
    text: `Hello ${user.username},\n\nSomeone, hopefully you, asked to reset the password of your Coinfair account. Choose a new password here:\n${link}\n\nThe link works once, for 1 hour. If you did not ask for it, ignore this message: your password stays as it is.\n`,
  };
  // Not awaited (see above); a failure is logged, the person can ask again.
  Promise.resolve()
    .then(() => mailer.send(message))
    .catch((error: unknown) => log('could not send the password reset e-mail', error));
}
