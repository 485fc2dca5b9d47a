// Password rules of spec section 5 (digit, lower case, upper case, special character, minimum
// length). Isomorphic: the registration form's live helper shows the same five checks the
// server enforces.

/** Ten characters: NIST SP 800-63B asks at least 8; we hold money, so a little more. */
export const PASSWORD_MIN_LENGTH = 10;
/** Bounds the work a request can ask of the hasher; long passphrases still fit. */
export const PASSWORD_MAX_LENGTH = 128;

export const passwordChecks = ['digit', 'lowercase', 'uppercase', 'special', 'length'] as const;
export type PasswordCheck = (typeof passwordChecks)[number];

export function checkPassword(password: string): Record<PasswordCheck, boolean> {
  return {
    digit: /\p{Nd}/u.test(password),
    lowercase: /\p{Ll}/u.test(password),
    uppercase: /\p{Lu}/u.test(password),
    special: /[^\p{L}\p{Nd}]/u.test(password),
    length: [...password].length >= PASSWORD_MIN_LENGTH,
  };
}

/** The checks a password fails, in display order; empty when it passes. */
export function failedPasswordChecks(password: string): PasswordCheck[] {
  const result = checkPassword(password);
  return passwordChecks.filter((check) => !result[check]);
}
