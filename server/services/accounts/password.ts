import { type Algorithm, hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';

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
