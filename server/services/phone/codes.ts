import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

// One-time codes that prove a phone number, and the limits on sending them. Pure functions: the
// service decides when to call them, tests check them without a database.

export const CODE_LENGTH = 6;
export const CODE_TTL_MS = 10 * 60 * 1000;
/** Wrong tries a code survives; the last one kills it and a new code must be sent. */
export const MAX_WRONG_TRIES = 5;

/**
 * Sends per user in sliding windows. SMS cost money and can be aimed at someone else's phone;
 * with 5 tries per code, 10 codes a day also cap guessing at 50 of a million a day.
 */
export const SEND_LIMITS = [
  { windowMs: 10 * 60 * 1000, max: 3 },
  { windowMs: 24 * 60 * 60 * 1000, max: 10 },
] as const;

/**
 * Sends per number, whoever asks: one account's day fits, but many accounts together cannot flood
 * one phone (or pump texts to a premium-rate number) beyond two accounts' worth a day.
 */
export const NUMBER_SEND_LIMITS = [
  { windowMs: 60 * 60 * 1000, max: 10 },
  { windowMs: 24 * 60 * 60 * 1000, max: 20 },
] as const;

type SendLimits = readonly { windowMs: number; max: number }[];

const LONGEST_WINDOW_MS = Math.max(...[...SEND_LIMITS, ...NUMBER_SEND_LIMITS].map((l) => l.windowMs));

/** Six digits, uniformly drawn by the CSPRNG; leading zeros kept. */
export function newCode(): string {
  return String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
}

/** Only this hash is stored, so a copy of the database does not hold usable pending codes. */
export function hashCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

export function codeMatches(code: string, storedHash: string): boolean {
  const given = Buffer.from(hashCode(code), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** The send times still inside the longest window, oldest first: what is worth keeping. */
export function recentSends(sentAt: readonly number[], now: number): number[] {
  return sentAt.filter((at) => at > now - LONGEST_WINDOW_MS && at <= now).sort((a, b) => a - b);
}

/**
 * Milliseconds until one more send is allowed, or 0 when it is allowed now. In a window holding
 * `n ≥ max` sends, the window has room again once its `(n − max + 1)`-th oldest send leaves it.
 */
export function sendRetryAfterMs(sentAt: readonly number[], now: number, limits: SendLimits = SEND_LIMITS): number {
  const sends = recentSends(sentAt, now);
  let wait = 0;
  for (const { windowMs, max } of limits) {
    const inWindow = sends.filter((at) => at > now - windowMs);
    const leaving = inWindow[inWindow.length - max];
    if (leaving !== undefined) wait = Math.max(wait, leaving + windowMs - now);
  }
  return wait;
}
