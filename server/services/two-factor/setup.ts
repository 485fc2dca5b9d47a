import type { PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { newTotpSecret, otpauthUrl, qrSvg } from './totp.ts';
import type { TwoFactorParts } from './types.ts';

/** A new secret to scan; replaces a pending one. Nothing is protected until `confirm`. */
export async function setupTwoFactor({ repo, now }: TwoFactorParts, ctx: PersonContext) {
  const { user } = ctx.auth;
  const secret = newTotpSecret();
  if (!(await repo.savePending(user.id, secret, now()))) {
    throw new AppError(
      'TWO_FACTOR_ALREADY_ENABLED',
      'Two-factor authentication is already on. Turn it off first to use another authenticator.',
    );
  }
  const url = otpauthUrl(user.username, secret);
  return { secret, otpauthUrl: url, qrSvg: qrSvg(url) };
}
