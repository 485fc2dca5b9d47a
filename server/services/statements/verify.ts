import { createPublicKey, type KeyObject } from 'node:crypto';
import {
  keyIdOf,
  publicKeyFromRaw,
  STATEMENT_ALGORITHM,
  STATEMENT_CANONICALIZATION,
  verifyStatement,
} from './signature.ts';

// Checking a saved statement without the platform (scripts/verify-statement.ts; docs/trust.md):
// the file as the API answered it (or its `data`), and optionally the published key document.
// Imports only signature.ts, which imports only node:crypto: no database, no network.

export interface Verdict {
  ok: boolean;
  /** One line for a person. */
  message: string;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const fail = (message: string): Verdict => ({ ok: false, message: `INVALID: ${message}` });

/** The key `keyId` names, from a key file: the published document, one JWK of it, or a public PEM. */
function keyFromFile(text: string, keyId: string): KeyObject | string {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN PUBLIC KEY-----')) {
    try {
      return createPublicKey(trimmed);
    } catch {
      return 'the key file is a PEM that does not read as a public key';
    }
  }
  let document: unknown;
  try {
    document = JSON.parse(trimmed);
  } catch {
    return 'the key file is neither JSON nor a PEM public key';
  }
  const keys = isObject(document) && Array.isArray(document.keys) ? document.keys : [document];
  const found = keys.find((key): key is Json => isObject(key) && key.kid === keyId);
  if (!found) return `the statement names key ${keyId}, which the key file does not hold`;
  if (found.crv !== 'Ed25519' || typeof found.x !== 'string') return `key ${keyId} in the key file is not Ed25519`;
  try {
    return publicKeyFromRaw(found.x);
  } catch {
    return `key ${keyId} in the key file is not a 32-byte Ed25519 key`;
  }
}

/** Decimal text with fixed decimals as an integer of minor units, for the sums check. */
const minor = (text: unknown) =>
  typeof text === 'string' && /^\d+\.\d+$/.test(text) ? BigInt(text.replace('.', '')) : null;

/** Why a monthly statement's numbers do not add up (closing = opening + credits − debits), if they do not. */
function sumsProblem(statement: Json): string | undefined {
  if (statement.kind !== 'monthly' || !Array.isArray(statement.currencies)) return undefined;
  for (const currency of statement.currencies as unknown[]) {
    const rows = isObject(currency) ? [currency, ...(Array.isArray(currency.accounts) ? currency.accounts : [])] : [];
    for (const row of rows) {
      if (!isObject(row)) return 'a currency line is not an object';
      const [opening, credits, debits, closing] = [row.opening, row.credits, row.debits, row.closing].map(minor);
      if (opening == null || credits == null || debits == null || closing == null) {
        return `an amount of ${String(isObject(currency) ? currency.currency : '?')} is not a decimal`;
      }
      if (opening + credits - debits !== closing) {
        return `${String(isObject(currency) ? currency.currency : '?')}: opening + credits − debits is not the closing balance`;
      }
    }
  }
  return undefined;
}

const describe = (statement: Json) => {
  const account = isObject(statement.account)
    ? `${String(statement.account.id)} (${String(statement.account.username)})`
    : '?';
  const what =
    statement.kind === 'monthly'
      ? `monthly statement ${String(statement.period)}`
      : `statement as of ${String(statement.asOf)}`;
  return `${what} of ${account} from ${String(statement.issuer)}`;
};

/**
 * The verdict on a saved statement: its signature checked against the key file's key when one is
 * given, else against the public key the file carries (which proves the file is intact and which
 * key signed it; that the key is the platform's is for the person to compare with the published one).
 */
export function verifySavedStatement(statementText: string, keyText?: string): Verdict {
  let parsed: unknown;
  try {
    parsed = JSON.parse(statementText);
  } catch {
    return fail('the statement file is not JSON');
  }
  const envelope = isObject(parsed) && isObject(parsed.data) ? parsed.data : parsed;
  if (!isObject(envelope) || !isObject(envelope.statement)) return fail('the file holds no statement');
  const { statement, signature, keyId } = envelope;
  if (typeof signature !== 'string' || typeof keyId !== 'string')
    return fail('the statement has no signature or key id');
  if (envelope.algorithm !== STATEMENT_ALGORITHM || envelope.canonicalization !== STATEMENT_CANONICALIZATION) {
    return fail(`expected ${STATEMENT_ALGORITHM} over ${STATEMENT_CANONICALIZATION} canonical JSON`);
  }
  // The key id inside the signed part: the signature also covers which key the platform meant.
  if (statement.keyId !== keyId) return fail('the key id beside the statement is not the one inside it');
  let key: KeyObject;
  if (keyText !== undefined) {
    const found = keyFromFile(keyText, keyId);
    if (typeof found === 'string') return fail(found);
    key = found;
  } else {
    if (typeof envelope.publicKey !== 'string') return fail('the file carries no public key: pass --key key.json');
    try {
      key = publicKeyFromRaw(envelope.publicKey);
    } catch {
      return fail('the public key the file carries is not a 32-byte Ed25519 key');
    }
    if (keyIdOf(key) !== keyId) return fail(`the public key the file carries is not key ${keyId}`);
  }
  if (!verifyStatement(statement, signature, key)) {
    return fail('the signature does not match the statement: it was changed after signing, or signed by another key');
  }
  const sums = sumsProblem(statement);
  if (sums) return fail(`signed, but its numbers do not add up (${sums})`);
  const by =
    keyText !== undefined
      ? `key ${keyId} of the key file`
      : `key ${keyId} carried in the file; compare it with ${String(statement.issuer)}/.well-known/coinfair-statement-key or pass --key`;
  return { ok: true, message: `VALID: ${describe(statement)}, signed by ${by}` };
}
