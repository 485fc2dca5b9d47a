import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config.ts';
import { parseStatementKey, statementKeyProblem } from '../../server/services/statements/keys.ts';
import { monthOf, parsePeriod, previousMonth } from '../../server/services/statements/period.ts';
import {
  canonicalJson,
  keyIdOf,
  publicKeyFromRaw,
  rawPublicKey,
  signStatement,
  verifyStatement,
} from '../../server/services/statements/signature.ts';
import { verifySavedStatement } from '../../server/services/statements/verify.ts';

// Statements' canonical JSON, signature, key and offline verdict (issue 24;
// docs/decisions/147-signed-statements.md): pure functions over node:crypto.

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const statement = {
  type: 'coinfair.statement',
  version: 1,
  keyId: keyIdOf(publicKey),
  kind: 'monthly',
  period: '2026-10',
  issuer: 'https://coinfair.example',
  account: { id: 'usr_abc', username: 'alice' },
  currencies: [
    {
      currency: 'BTC',
      opening: '0.00000000',
      credits: '0.01000000',
      debits: '0.00250000',
      closing: '0.00750000',
      accounts: [],
    },
  ],
};
const envelope = (body = statement, signature = signStatement(statement, privateKey)) => ({
  statement: body,
  signature,
  keyId: keyIdOf(publicKey),
  publicKey: rawPublicKey(publicKey).toString('base64url'),
  algorithm: 'Ed25519',
  canonicalization: 'RFC8785',
});

describe('canonicalJson (RFC 8785 for strings, safe integers, booleans, null)', () => {
  it('sorts keys, keeps array order, writes no whitespace, leaves out undefined', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x', { d: 2, c: 3 }], z: undefined })).toBe(
      '{"a":[true,null,"x",{"c":3,"d":2}],"b":1}',
    );
  });

  it('orders keys by UTF-16 code units, as RFC 8785 section 3.2.3 shows', () => {
    const keys = ['\u20ac', '\r', '\ufb33', '1', '\ud83d\ude00', '\u0080', '\u00f6'];
    const text = canonicalJson(Object.fromEntries(keys.map((key) => [key, 0])));
    // The RFC's order: "\r", "1", "\u0080", "\u00f6", "\u20ac", "\ud83d\ude00", "\ufb33".
    expect(text).toBe('{"\\r":0,"1":0,"\u0080":0,"\u00f6":0,"\u20ac":0,"\ud83d\ude00":0,"\ufb33":0}');
  });

  it('escapes strings as JSON does and refuses what a statement never holds', () => {
    expect(canonicalJson('a"b\\c\u0001é')).toBe('"a\\"b\\\\c\\u0001é"');
    expect(() => canonicalJson(0.5)).toThrow(/not a safe integer/);
    expect(() => canonicalJson(2 ** 60)).toThrow(/not a safe integer/);
    expect(() => canonicalJson(() => 1)).toThrow(/no JSON form/);
  });

  it('gives the same text whatever order the object was built in', () => {
    const reordered = Object.fromEntries(Object.entries(statement).reverse());
    expect(canonicalJson(reordered)).toBe(canonicalJson(statement));
  });
});

describe('signStatement and verifyStatement (Ed25519)', () => {
  it('signs deterministically and verifies with the public key', () => {
    const signature = signStatement(statement, privateKey);
    expect(signature).toMatch(/^[A-Za-z0-9_-]{86}$/);
    expect(signStatement(structuredClone(statement), privateKey)).toBe(signature);
    expect(verifyStatement(statement, signature, publicKey)).toBe(true);
  });

  it('refuses a changed amount, an added field, another key and a malformed signature', () => {
    const signature = signStatement(statement, privateKey);
    const changed = structuredClone(statement);
    (changed.currencies[0] as { closing: string }).closing = '0.00750001';
    expect(verifyStatement(changed, signature, publicKey)).toBe(false);
    expect(verifyStatement({ ...statement, note: 'x' }, signature, publicKey)).toBe(false);
    expect(verifyStatement(statement, signature, generateKeyPairSync('ed25519').publicKey)).toBe(false);
    // One character of R changed (the last ones partly encode S's top byte, zero one time in 16).
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    expect(verifyStatement(statement, flipped, publicKey)).toBe(false);
    expect(verifyStatement(statement, 'short', publicKey)).toBe(false);
    expect(verifyStatement({ amount: 0.5 }, signature, publicKey)).toBe(false);
  });

  it('names a key by its public half, from any of its forms', () => {
    const x = rawPublicKey(privateKey).toString('base64url');
    expect(keyIdOf(privateKey)).toBe(keyIdOf(publicKey));
    expect(keyIdOf(publicKeyFromRaw(x))).toBe(keyIdOf(publicKey));
    expect(keyIdOf(publicKey)).toMatch(/^ed25519:[A-Za-z0-9_-]{22}$/);
    expect(() => publicKeyFromRaw('too-short')).toThrow();
  });
});

describe('parseStatementKey', () => {
  it('reads a PKCS#8 PEM (also with \\n written out) and a 32-byte seed in hex', () => {
    const pem = String(privateKey.export({ format: 'pem', type: 'pkcs8' }));
    expect(keyIdOf(parseStatementKey(pem))).toBe(keyIdOf(publicKey));
    expect(keyIdOf(parseStatementKey(pem.replaceAll('\n', '\\n')))).toBe(keyIdOf(publicKey));
    // RFC 8032 section 7.1, test 1.
    const seeded = parseStatementKey('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
    expect(rawPublicKey(seeded).toString('hex')).toBe(
      'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    );
  });

  it('says what is wrong with anything else', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' });
    expect(statementKeyProblem(String(rsa))).toMatch(/must be an Ed25519 key/);
    expect(statementKeyProblem('abc')).toMatch(/PKCS#8 PEM or a 32-byte seed/);
    expect(statementKeyProblem('-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----')).toMatch(
      /does not read/,
    );
    expect(statementKeyProblem('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60')).toBeUndefined();
  });
});

describe('periods', () => {
  it('reads YYYY-MM as UTC months and steps back over a year end', () => {
    expect(parsePeriod('2026-02')).toEqual({
      period: '2026-02',
      from: Date.UTC(2026, 1, 1),
      to: Date.UTC(2026, 2, 1),
    });
    expect(parsePeriod('2026-00')).toBeUndefined();
    expect(parsePeriod('26-01')).toBeUndefined();
    expect(previousMonth(Date.UTC(2027, 0, 1, 0, 10)).period).toBe('2026-12');
    expect(monthOf(Date.UTC(2026, 11, 31, 23, 59)).period).toBe('2026-12');
  });
});

describe('verifySavedStatement', () => {
  it('accepts an intact statement, with or without the key document', () => {
    const keys = { keys: [{ kty: 'OKP', crv: 'Ed25519', kid: keyIdOf(publicKey), x: envelope().publicKey }] };
    expect(verifySavedStatement(JSON.stringify({ data: envelope() }), JSON.stringify(keys))).toMatchObject({
      ok: true,
    });
    expect(verifySavedStatement(JSON.stringify(envelope()))).toMatchObject({ ok: true });
  });

  it('refuses a key id beside the statement that is not the one signed inside it', () => {
    const moved = { ...envelope(), keyId: 'ed25519:AAAAAAAAAAAAAAAAAAAAAA' };
    expect(verifySavedStatement(JSON.stringify(moved)).message).toContain('not the one inside it');
  });

  it('refuses numbers that do not add up even when signed', () => {
    const wrong = structuredClone(statement);
    (wrong.currencies[0] as { closing: string }).closing = '0.00750001';
    const verdict = verifySavedStatement(JSON.stringify(envelope(wrong, signStatement(wrong, privateKey))));
    expect(verdict).toEqual({ ok: false, message: expect.stringContaining('do not add up') });
  });

  it('refuses other algorithms and files without a statement', () => {
    expect(verifySavedStatement(JSON.stringify({ ...envelope(), algorithm: 'RS256' })).ok).toBe(false);
    expect(verifySavedStatement('{}').message).toBe('INVALID: the file holds no statement');
  });
});

describe('configuration', () => {
  it('refuses a statement key that is not Ed25519, without printing it, and the key given twice', () => {
    const secret = 'a'.repeat(63);
    expect(() => readConfig({ STATEMENT_KEY: secret })).toThrow(
      /STATEMENT_KEY="aaaa…": must be an Ed25519 private key/,
    );
    expect(() => readConfig({ STATEMENT_KEY: secret })).not.toThrow(new RegExp(secret));
    const seed = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
    expect(readConfig({ STATEMENT_KEY: seed }).STATEMENT_KEY).toBe(seed);
    expect(() => readConfig({ STATEMENT_KEY: seed, STATEMENT_KEY_FILE: '/run/secrets/key' })).toThrow(
      /STATEMENT_KEY_FILE=.*must not be set together with STATEMENT_KEY/,
    );
  });
});
