import type { EmailMessage } from '../messaging/messaging.ts';
import type { UserRow } from '../shared/account-types.ts';
import { THROTTLE_WINDOW_MS } from './throttle.ts';
import type { AccountsDeps } from './types.ts';

/**
 * Tells the owner, once per window, that someone is guessing their password (OWASP: notify
 * rather than lock). The mail is not awaited: the failure's answer must not take longer for a real account.
 */
export async function alertOwner(
  { repo, mailer, siteOrigin, now, log }: AccountsDeps,
  user: UserRow,
  ip: string,
  failures: number,
): Promise<void> {
  const at = now();
  if (!(await repo.claimSignInAlert(user.id, at, at - THROTTLE_WINDOW_MS))) return;
  const minutes = THROTTLE_WINDOW_MS / 60_000;
  const message: EmailMessage = {
    to: user.email,
    subject: 'Someone is trying to guess your Coinfair password',
    text: `Hello ${user.username},\n\nSomeone has typed a wrong password for your Coinfair account ${failures} times in the last ${minutes} minutes, most recently from address ${ip}. For a while, signing in to it asks for an extra security check.\n\nIf it was you, there is nothing to do: sign in with your password as usual.\n\nIf it was not you, your account stays safe as long as nobody knows your password. To be safer, turn on two-factor authentication in your settings: ${siteOrigin.url('/settings')}\nTo choose a new password, use ${siteOrigin.url('/forgot-password')}\n`,
  };
  Promise.resolve()
    .then(() => mailer.send(message))
    .catch((error: unknown) => log('could not send the sign-in alert e-mail', error));
}
