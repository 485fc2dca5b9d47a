import { safeBackPath } from '../../../src/lib/shared/safe-back-path.ts';
import { AppError } from '../errors.ts';

// What the accounts verbs make of their input fields, and the field errors they answer.

/** Only a path on this site (src/lib/shared/safe-back-path.ts). */
export const safeRedirect = (back: string | undefined, fallback = '/'): string => safeBackPath(back, fallback);

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function fieldError(
  field: string,
  message: string,
  key: string,
  meta?: Record<string, unknown>,
  params: Record<string, string | number> = {},
): AppError {
  return new AppError('ERROR_INPUT_VALIDATION', message, {
    field,
    key,
    params,
    details: [{ field, message, key, params }],
    ...(meta ? { meta } : {}),
  });
}

export const emailTaken = () =>
  fieldError('email', 'An account with this e-mail address already exists.', 'email_taken');
export const usernameAlreadyChanged = () =>
  new AppError('USERNAME_ALREADY_CHANGED', 'You have already changed your username once.', {
    field: 'username',
    key: 'username_already_changed',
  });
