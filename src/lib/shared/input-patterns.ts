// Input patterns of spec section 5, shared by forms (instant feedback) and the server (the rule).

/** Digits with at most one decimal point, or empty. */
export const AMOUNT_PATTERN = /^(\d+(\.\d*)?|\.\d+)?$/;

/** Letters and digits only. */
export const USERNAME_PATTERN = /^[A-Za-z0-9]+$/;
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 20;

/** An at sign, a domain with a suffix of at least two letters, no consecutive dots. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)*\.[A-Za-z]{2,}$/;
export const EMAIL_MAX_LENGTH = 254;

export function isValidEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value) && !value.includes('..');
}

/** Device ids are hex. */
export const DEVICE_ID_PATTERN = /^[0-9a-f]+$/i;
