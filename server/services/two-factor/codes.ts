import type { TwoFactorStatus } from '../../../src/lib/shared/views/settings.ts';
import { immediate } from '../context.ts';
import { AppError } from '../errors.ts';
import type { UserRow } from '../shared/account-types.ts';
import { hashRecoveryCode } from './recovery-codes.ts';
import type { TwoFactorRow } from './repository.ts';
import { notEnabled, purposesOf, stateOf, wrongCode } from './state.ts';
import { looksLikeTotp, matchTotp } from './totp.ts';
import type { TwoFactorParts } from './types.ts';

// The account's factor as the verbs load it, and a code checked and spent under the limits.

export async function load({ repo }: TwoFactorParts, userId: number) {
  const found = await repo.find(userId);
  if (!found) throw new AppError('NOT_FOUND', 'This account was not found.');
  return found;
}

/** Spends a TOTP step or a recovery code of an enabled factor; false when it is neither. */
async function spend({ repo, now }: TwoFactorParts, userId: number, row: TwoFactorRow, code: string): Promise<boolean> {
  const compact = code.replace(/\s/g, '');
  if (looksLikeTotp(compact)) {
    const step = matchTotp(row.secret, compact, now(), row.lastUsedStep);
    return step !== null && (await repo.spendStep(userId, step));
  }
  return repo.spendRecoveryHash(userId, hashRecoveryCode(code));
}

/**
 * A code checked under the limits: RATE_LIMITED once the account has had enough wrong codes.
 * The attempt is reserved, the code spent (a conditional UPDATE: one use, however many race)
 * and the outcome kept in one transaction, a savepoint when the caller has one open.
 */
export function check(
  parts: TwoFactorParts,
  userId: number,
  email: string,
  row: TwoFactorRow,
  code: string,
): Promise<boolean> {
  const { db, throttle } = parts;
  return immediate(db, async () => {
    const attempt = await throttle.reserveCode(email);
    if (await spend(parts, userId, row, code)) {
      await throttle.succeeded(attempt);
      return true;
    }
    await throttle.failed(attempt);
    return false;
  });
}

/** The enabled factor of a signed-in person who proves it with `code`, or an error. */
export async function requireCode(parts: TwoFactorParts, user: UserRow, code: string): Promise<TwoFactorRow> {
  const { email, factor } = await load(parts, user.id);
  if (!factor || factor.confirmedAt === null) throw notEnabled();
  if (!(await check(parts, user.id, email, factor, code))) throw wrongCode();
  return factor;
}

export async function statusOf(parts: TwoFactorParts, userId: number): Promise<TwoFactorStatus> {
  const { factor } = await load(parts, userId);
  const state = stateOf(factor);
  return {
    state,
    ...purposesOf(factor),
    recoveryCodesLeft: state === 'enabled' ? (factor?.recoveryCodeHashes.length ?? 0) : 0,
  };
}
