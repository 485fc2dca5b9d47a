import { compromisedPasswordError, isCompromisedPassword, passwordPolicyIssue } from '../accounts/password.ts';
import { AppError, type FieldIssue } from '../errors.ts';

// The field errors the password verbs answer, and the new password's checks.

export function invalid(details: FieldIssue[]): AppError {
  const first: FieldIssue = details[0] ?? { field: 'password', message: 'Invalid input.' };
  return new AppError('ERROR_INPUT_VALIDATION', first.message, {
    field: first.field,
    details,
    ...(first.key ? { key: first.key, params: first.params ?? {} } : {}),
  });
}

/** `key`: the message's translation under `errors.` in locales/*.json, where one exists. */
export const fieldError = (field: string, message: string, key?: string) =>
  invalid([{ field, message, ...(key ? { key } : {}) }]);

export const WRONG_CODE = {
  message: 'This code is not correct. Enter the current code from your authenticator app or a recovery code.',
  key: 'two_factor_invalid',
};
export const MISSING_CODE = { message: 'Enter the code from your authenticator app.', key: 'two_factor_required' };

export function checkNewPassword(password: string, field: string, extra: FieldIssue[] = []): void {
  const issue = passwordPolicyIssue(password, field);
  const details = issue ? [...extra, issue] : extra;
  if (details.length > 0) throw invalid(details);
  if (isCompromisedPassword(password)) throw compromisedPasswordError(field);
}
