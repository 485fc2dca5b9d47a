import { createHash, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';

// How a statement is signed and checked (docs/decisions/147-signed-statements.md). This module
// imports nothing but node:crypto, so scripts/verify-statement.ts can check a statement with it
// on a machine that has only Node and this repository: no database, no network.
//
// The signed bytes are the statement's canonical JSON, the JSON Canonicalization Scheme (RFC 8785)
// restricted to what a statement holds: objects, arrays, strings, safe integers, booleans and null.
// Keys are sorted by their UTF-16 code units, nothing is indented, strings are escaped as
// JSON.stringify escapes them. Amounts are decimal strings, never floats, so the one part of JCS
// that is hard to write (ECMAScript's shortest number form) never comes up; a float is refused.

export const STATEMENT_ALGORITHM = 'Ed25519';
export const STATEMENT_CANONICALIZATION = 'RFC8785';

/** The canonical JSON text of `value`; throws on what a statement never holds (a float, undefined…). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new TypeError(`canonicalJson: ${value} is not a safe integer`);
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      // JCS orders by UTF-16 code units: the default sort's order, not localeCompare's.
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`);
    return `{${entries.join(',')}}`;
  }
  throw new TypeError(`canonicalJson: a ${typeof value} has no JSON form`);
}

/** The bytes a signature covers. */
export const signedBytes = (statement: unknown) => Buffer.from(canonicalJson(statement), 'utf8');

/** The raw 32-byte Ed25519 public key of `key` (a public or private key object). */
export function rawPublicKey(key: KeyObject): Buffer {
  const jwk = (key.type === 'public' ? key : createPublicKey(key)).export({ format: 'jwk' });
  if (jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') throw new TypeError('not an Ed25519 key');
  return Buffer.from(jwk.x, 'base64url');
}

/**
 * The key id: `ed25519:` and the first 16 bytes of SHA-256 over the raw public key, base64url. It
 * names the key, so a statement says which published key checks it; it proves nothing by itself.
 */
export function keyIdOf(key: KeyObject): string {
  const digest = createHash('sha256').update(rawPublicKey(key)).digest();
  return `ed25519:${digest.subarray(0, 16).toString('base64url')}`;
}

/** A public key object from the raw 32 bytes (base64url), as the published key and statements carry it. */
export function publicKeyFromRaw(x: string): KeyObject {
  if (!/^[A-Za-z0-9_-]{43}$/.test(x)) throw new TypeError('an Ed25519 public key is 32 bytes in base64url');
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
}

/** The signature of `statement` by `privateKey`, base64url. Ed25519 is deterministic: same bytes, same signature. */
export function signStatement(statement: unknown, privateKey: KeyObject): string {
  return sign(null, signedBytes(statement), privateKey).toString('base64url');
}

/** Whether `signature` (base64url) is `publicKey`'s over the statement's canonical bytes. */
export function verifyStatement(statement: unknown, signature: string, publicKey: KeyObject): boolean {
  if (!/^[A-Za-z0-9_-]{86}$/.test(signature)) return false;
  try {
    return verify(null, signedBytes(statement), publicKey, Buffer.from(signature, 'base64url'));
  } catch {
    // A statement with a float or a non-JSON value was not made by us: not valid.
    return false;
  }
}
