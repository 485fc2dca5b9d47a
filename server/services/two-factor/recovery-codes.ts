import { createHash, randomInt } from 'node:crypto';

// One-time codes for the day the phone is lost. Shown once at confirmation; the database keeps
// only their SHA-256, so a leaked backup cannot sign anyone in. Ten random characters from an
// alphabet without look-alikes (no 0/o, 1/l/i) give 50 bits: with the sign-in limits (10 wrong
// codes per 15 minutes) guessing one is hopeless, and a slow hash would buy nothing.

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 10;

/** `k7pq2-xm9rt`: a hyphen in the middle so people can read it out and copy it in halves. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${chars.slice(0, LENGTH / 2)}-${chars.slice(LENGTH / 2)}`;
  });
}

/** What people type varies in case, spaces and hyphens; the code itself does not. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');
}
