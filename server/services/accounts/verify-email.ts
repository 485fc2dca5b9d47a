import type { PersonContext } from '../context.ts';
import { immediate, type ServiceContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { UserRow } from '../shared/account-types.ts';
import { hashToken, sendVerification } from './email-verification.ts';
import type { AccountsDeps } from './types.ts';

/** Confirms the address behind a link; a used, expired or unknown link changes nothing. */
export async function verifyEmail(
  { repo, now }: AccountsDeps,
  _ctx: ServiceContext,
  { token }: { token: string },
): Promise<UserRow> {
  const userId =
    token.length <= 100
      ? await immediate(repo.db, async () => {
          const spentBy = await repo.consumeVerification(hashToken(token), now());
          if (spentBy !== undefined) await repo.markEmailVerified(spentBy);
          return spentBy;
        })
      : undefined;
  if (userId === undefined) {
    throw new AppError('TOKEN_INVALID', 'This confirmation link is invalid or has expired. Request a new one.');
  }
  const user = await repo.userById(userId);
  if (!user) throw new AppError('TOKEN_INVALID', 'This confirmation link belongs to no account.');
  return user;
}

/** Mails a new confirmation link, unless the address is confirmed already. */
export async function resendVerification(deps: AccountsDeps, ctx: PersonContext) {
  const { user } = ctx.auth;
  if (user.isEmailVerified) return;
  await sendVerification(deps, user);
}
