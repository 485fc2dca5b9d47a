import { createHash, randomBytes } from 'node:crypto';
import type { UserRow } from '../shared/account-types.ts';
import type { AccountsDeps } from './types.ts';

const EMAIL_VERIFICATION_TTL_MS = 48 * 60 * 60 * 1000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Stores a new confirmation link for the user's address and mails it. */
export async function sendVerification({ repo, mailer, siteOrigin, now, log }: AccountsDeps, user: UserRow) {
  const token = randomBytes(32).toString('base64url');
  await repo.insertVerification({
    id: hashToken(token),
    userId: user.id,
    email: user.email,
    expiresAt: now() + EMAIL_VERIFICATION_TTL_MS,
  });
  const link = siteOrigin.url(`/auth/verify-email?token=${token}`);
  // Sent after the account is committed: a mail server that is down must not undo a sign-up.
  try {
    await mailer.send({
      to: user.email,
      subject: 'Confirm your e-mail address for Coinfair',
      text: `Hello ${user.username},\n\nConfirm your e-mail address to start trading on Coinfair:\n${link}\n\nThe link works for 48 hours. If you did not create an account, ignore this message.\n`,
    });
  } catch (error) {
    log('could not send the verification e-mail', error);
  }
}
