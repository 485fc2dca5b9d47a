import { randomBytes } from 'node:crypto';

// Public identifiers: a prefix that says what the id is, then random base62. Row ids stay internal.

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type IdPrefix =
  | 'usr'
  | 'ses'
  | 'ltx'
  | 'doc'
  | 'ntf'
  | 'att'
  | 'chn'
  | 'qt'
  | 'gcd'
  | 'gci'
  | 'bac'
  | 'msg'
  | 'ck'
  | 'kos'
  | 'pol'
  | 'exp';

/** Random base62 string; rejection sampling keeps every character equally likely. */
export function randomBase62(length: number, random: (n: number) => Buffer = randomBytes): string {
  let out = '';
  while (out.length < length) {
    for (const byte of random(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** `newId('usr')` → `usr_4fQ9…` (16 random characters ≈ 95 bits). */
export function newId(prefix: IdPrefix, random?: (n: number) => Buffer): string {
  return `${prefix}_${randomBase62(16, random)}`;
}

/** Offer hashes of spec section 7 (`offer_hash`): 11 base62 characters, URL-safe. */
export function newOfferHash(random?: (n: number) => Buffer): string {
  return randomBase62(11, random);
}

/**
 * Trade hashes: the `/trade/<hash>` of the trade page and the `trade:<hash>` channel, the same
 * shape as offer hashes (11 base62 characters), which the routes and channels.ts accept.
 */
export function newTradeHash(random?: (n: number) => Buffer): string {
  return randomBase62(11, random);
}
