import type { ServiceContext } from '../context.ts';
import { liveReset, maskEmail } from './reset-link.ts';
import type { PasswordsDeps } from './types.ts';

/** What the reset page shows before the person types: whose account, and whether a code is due. */
export async function inspectReset(
  deps: PasswordsDeps,
  ctx: ServiceContext,
  { token }: { token: string },
): Promise<{ valid: true; email: string; twoFactorRequired: boolean }> {
  const { user } = await liveReset(deps, token);
  return {
    valid: true,
    email: maskEmail(user.email),
    twoFactorRequired: (await deps.secondFactor.purposes(ctx, { userId: user.id })).login,
  };
}
