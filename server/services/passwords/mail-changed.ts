import type { ClientInfo, UserRow } from '../shared/account-types.ts';
import type { PasswordsDeps } from './types.ts';

/** After the commit: a mail server that is down must not undo the change. */
export async function mailChanged(
  { mailer, siteOrigin, now, log }: PasswordsDeps,
  user: UserRow,
  client: ClientInfo,
  how: 'changed' | 'reset',
) {
  const when = new Date(now()).toUTCString();
  const what = how === 'reset' ? 'reset through the link sent to this address' : 'changed from your account settings';
  try {
    await mailer.send({
      to: user.email,
      subject: 'Your Coinfair password was changed',
      text: `Hello ${user.username},\n\nThe password of your Coinfair account was ${what} on ${when}, from address ${client.ip}. Every device signed in to your account was signed out.\n\nIf this was you, there is nothing more to do.\n\nIf it was not you, reset your password at once at ${siteOrigin.url('/forgot-password')} and contact our support: ${siteOrigin.url('/support')}\n`,
    });
  } catch (error) {
    log('could not send the password-changed e-mail', error);
  }
}
