import type { TwoFactorPurposes, TwoFactorStatus } from '../../../src/lib/shared/views/settings.ts';
import type { PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { requireCode, statusOf } from './codes.ts';
import type { TwoFactorParts } from './types.ts';

/** Turns the factor off; takes a current code or a recovery code. */
export async function disableTwoFactor(
  parts: TwoFactorParts,
  ctx: PersonContext,
  { code }: { code: string },
): Promise<TwoFactorStatus> {
  const { user } = ctx.auth;
  await requireCode(parts, user, code);
  await parts.repo.disable(user.id);
  return statusOf(parts, user.id);
}

/** What the factor protects; at least one thing, proven with a code. */
export async function updatePurposes(
  parts: TwoFactorParts,
  ctx: PersonContext,
  { purposes, code }: { purposes: TwoFactorPurposes; code: string },
): Promise<TwoFactorStatus> {
  const { user } = ctx.auth;
  if (!purposes.login && !purposes.sendout && !purposes.release) {
    const message = 'Choose at least one thing to protect, or turn two-factor authentication off.';
    throw new AppError('ERROR_INPUT_VALIDATION', message, {
      field: 'login',
      details: (['login', 'sendout', 'release'] as const).map((field) => ({ field, message })),
    });
  }
  await requireCode(parts, user, code);
  await parts.repo.setPurposes(user.id, purposes);
  return statusOf(parts, user.id);
}
