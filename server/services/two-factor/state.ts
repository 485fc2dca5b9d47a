import type { TwoFactorPurposes, TwoFactorState } from '../../../src/lib/shared/views/settings.ts';
import { AppError } from '../errors.ts';
import { DISABLED_SECRET, type TwoFactorRow } from './repository.ts';

// What a stored factor row means, and the errors the verbs answer.

const OFF: TwoFactorPurposes = { login: false, sendout: false, release: false };

export function stateOf(row: TwoFactorRow | null | undefined): TwoFactorState {
  if (!row) return 'initial';
  if (row.confirmedAt !== null) return 'enabled';
  return row.secret === DISABLED_SECRET ? 'disabled' : 'verification';
}

export function purposesOf(
  row: Pick<TwoFactorRow, 'confirmedAt' | 'forLogin' | 'forSendout' | 'forRelease'> | null | undefined,
): TwoFactorPurposes {
  if (!row || row.confirmedAt === null) return OFF;
  return { login: row.forLogin, sendout: row.forSendout, release: row.forRelease };
}

/** Signed in, a wrong code is a mistake in a form field, not a lost session: 400 on `code`. */
export function wrongCode(): AppError {
  const message = 'This code is not correct. Enter the current code from your authenticator app or a recovery code.';
  return new AppError('ERROR_INPUT_VALIDATION', message, { field: 'code', details: [{ field: 'code', message }] });
}

export function notEnabled(): AppError {
  return new AppError('TWO_FACTOR_NOT_ENABLED', 'Two-factor authentication is not turned on for this account.');
}
