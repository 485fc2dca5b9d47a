import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { StatementsRepository } from './repository.ts';
import { keyIdOf, rawPublicKey } from './signature.ts';

// The platform's Ed25519 statement key (docs/decisions/147-signed-statements.md). Given by the
// configuration (STATEMENT_KEY, or STATEMENT_KEY_FILE naming a file with the same text), else made
// once by the first process that signs and kept in `signing_keys`, so restarts and every process
// of a deployment on PostgreSQL sign with the one key a person's statements name.

const PURPOSE = 'statements';
/** PKCS#8's fixed prefix of an Ed25519 private key; the 32-byte seed follows (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface StatementKey {
  privateKey: KeyObject;
  keyId: string;
  /** The raw 32-byte public key, base64url (JWK `x`). */
  x: string;
  /** SubjectPublicKeyInfo PEM. */
  publicPem: string;
  /** Where the key came from, for the start-up log. */
  source: 'configuration' | 'database';
}

/** Why `text` is no Ed25519 private key we accept, or undefined when it is one. */
export function statementKeyProblem(text: string): string | undefined {
  try {
    parseStatementKey(text);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : 'is not an Ed25519 private key';
  }
}

/**
 * An Ed25519 private key from configuration text: a PKCS#8 PEM (`openssl genpkey -algorithm
 * ed25519`), or its 32-byte seed as 64 hexadecimal characters. An environment variable may carry
 * the PEM's line breaks as `\n`.
 */
export function parseStatementKey(text: string): KeyObject {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) {
    const der = Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.from(trimmed, 'hex')]);
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  }
  if (!trimmed.startsWith('-----BEGIN PRIVATE KEY-----')) {
    throw new Error('must be an Ed25519 private key: a PKCS#8 PEM or a 32-byte seed as 64 hexadecimal characters');
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(trimmed.replaceAll('\\n', '\n'));
  } catch {
    throw new Error('is a PEM that does not read as a private key');
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error('must be an Ed25519 key (openssl genpkey -algorithm ed25519)');
  return key;
}

function describe(privateKey: KeyObject, source: StatementKey['source']): StatementKey {
  const publicKey = createPublicKey(privateKey);
  return {
    privateKey,
    keyId: keyIdOf(publicKey),
    x: rawPublicKey(publicKey).toString('base64url'),
    publicPem: String(publicKey.export({ format: 'pem', type: 'spki' })),
    source,
  };
}

export interface KeySettings {
  STATEMENT_KEY?: string | undefined;
  STATEMENT_KEY_FILE?: string | undefined;
}

/** The key the configuration gives, or undefined when it gives none. Throws on a bad one. */
export function configuredStatementKey(settings: KeySettings): StatementKey | undefined {
  if (settings.STATEMENT_KEY) return describe(parseStatementKey(settings.STATEMENT_KEY), 'configuration');
  if (settings.STATEMENT_KEY_FILE) {
    const text = readFileSync(settings.STATEMENT_KEY_FILE, 'utf8');
    try {
      return describe(parseStatementKey(text), 'configuration');
    } catch (error) {
      throw new Error(`STATEMENT_KEY_FILE ${(error as Error).message}`);
    }
  }
  return undefined;
}

/**
 * The deployment's stored key, made and stored first when there is none. Two processes starting
 * together may both make one: the insert keeps the first, and both then read that one back.
 */
export async function storedStatementKey(repo: StatementsRepository, now: () => number): Promise<StatementKey> {
  let pem = await repo.storedKey(PURPOSE);
  if (!pem) {
    const { privateKey } = generateKeyPairSync('ed25519');
    await repo.storeKeyOnce(PURPOSE, String(privateKey.export({ format: 'pem', type: 'pkcs8' })), now());
    pem = await repo.storedKey(PURPOSE);
    if (!pem) throw new Error('statements: the signing key could not be stored');
  }
  return describe(createPrivateKey(pem), 'database');
}

/** The key, resolved once per process: the configuration's, else the stored one. */
export function statementKeySource(
  settings: KeySettings,
  repo: StatementsRepository,
  now: () => number,
): () => Promise<StatementKey> {
  const configured = configuredStatementKey(settings);
  let pending: Promise<StatementKey> | undefined;
  return () => {
    if (configured) return Promise.resolve(configured);
    pending ??= storedStatementKey(repo, now).catch((error: unknown) => {
      // A database that was busy must not leave the process without a key for good.
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
