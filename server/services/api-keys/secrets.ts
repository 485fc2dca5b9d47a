import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// The secrets of API keys (decision 116): never stored. A key's secret is
// HMAC-SHA256(API_KEY_ROOT, "coinfair-api-key" ‖ id ‖ salt) in base64url, shown to its owner once;
// the row keeps the salt and the secret's SHA-256. The server derives the secret again to check a
// signature, and the hash tells it the root is still the one the key was made under.

/** Public, for development only: config.ts refuses it with DEMO_DATA=off. */
export const DEVELOPMENT_API_KEY_ROOT = '6170692d6b6579732d696e2d646576656c6f706d656e742d6f6e6c7921212121';

export const newSalt = () => randomBytes(16).toString('base64url');

export function deriveSecret(rootHex: string, publicId: string, salt: string): string {
  const secret = createHmac('sha256', Buffer.from(rootHex, 'hex'))
    .update(`coinfair-api-key\0${publicId}\0${salt}`)
    .digest('base64url');
  return `cs_${secret}`;
}

export const sha256Hex = (value: string | Buffer) => createHash('sha256').update(value).digest('hex');

/** HMAC-SHA256 of the canonical request under the secret, lower-case hex. */
export const signCanonical = (secret: string, canonical: string) =>
  createHmac('sha256', secret).update(canonical).digest('hex');

/** Constant-time comparison of two hex signatures. */
export function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given.toLowerCase(), 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
