import { type Algorithm, hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';
import {
  failedPasswordChecks,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  type PasswordCheck,
} from '../../../src/lib/shared/password-policy.ts';
import { AppError, type FieldIssue } from '../errors.ts';

// argon2id at the OWASP Password Storage Cheat Sheet parameters (m=19 MiB, t=2, p=1).
const ARGON2ID: Algorithm.Argon2id = 2;
const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash must read as a failed login, not a 500.
    return false;
  }
}

/**
 * A hash to verify against when the e-mail is unknown, so an unknown address costs the same time
 * as a wrong password and the answer's timing tells nothing.
 */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword('decoy-password-never-matches-Aa1!');
  return decoyHash;
}

// ~49,000 passwords most common in public breach corpora (zxcvbn's list, bundled, no network).
const common: ReadonlySet<string> = new Set(dictionary['passwords-common'] as string[]);

/**
 * True when the password is a well-known leaked one, or one with the usual dressing: a capital
 * first letter and a few digits or symbols at the end (`Password123!`, `Qwerty2024#`).
 */
export function isCompromisedPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (common.has(lower)) return true;
  const core = lower.replace(/[\d\W_]{1,6}$/u, '');
  return core.length >= 4 && core !== lower && common.has(core);
}

const PASSWORD_CHECK_MESSAGES: Record<PasswordCheck, string> = {
  digit: 'a digit',
  lowercase: 'a lower-case letter',
  uppercase: 'an upper-case letter',
  special: 'a special character',
  length: 'at least 10 characters',
};

/**
 * What is wrong with a new password under the policy (src/lib/shared/password-policy.ts), as a detail on
 * `field`; undefined when it passes. Registration, password change and reset ask the same.
 */
export function passwordPolicyIssue(password: string, field: string): FieldIssue | undefined {
  if (password.length > PASSWORD_MAX_LENGTH) {
    return {
      field,
      message: `Use at most ${PASSWORD_MAX_LENGTH} characters.`,
      key: 'password_too_long',
      params: { max: PASSWORD_MAX_LENGTH },
    };
  }
  const failed = failedPasswordChecks(password);
  if (failed.length === 0) return undefined;
  return {
    field,
    message: `The password needs ${failed.map((c) => PASSWORD_CHECK_MESSAGES[c]).join(', ')}.`,
    key: 'password_weak',
    params: { min: PASSWORD_MIN_LENGTH },
  };
}

/** A leaked password refused as a new one, with `meta.compromised` for the form (spec section 8). */
export function compromisedPasswordError(field: string): AppError {
  const message = 'This password appears in lists of leaked passwords. Choose another one.';
  return new AppError('ERROR_INPUT_VALIDATION', message, {
    field,
    key: 'password_compromised',
    details: [{ field, message, key: 'password_compromised' }],
    meta: { compromised: true },
  });
}
