import type { StatementsDeps } from './deps.ts';
import { STATEMENT_TYPE, STATEMENT_VERSION, type Statement, type StatementHeader } from './document.ts';
import type { StatementKey } from './keys.ts';
import { STATEMENT_ALGORITHM, STATEMENT_CANONICALIZATION, signStatement } from './signature.ts';

// A statement as the API answers it, and the published key (docs/decisions/147-signed-statements.md).

/** What a person keeps: the statement, its signature, and which key and rules check it. */
export interface SignedStatement {
  statement: Statement;
  /** Ed25519 over the statement's canonical JSON (RFC 8785), base64url. */
  signature: string;
  keyId: string;
  /** The raw public key, base64url: enough to check the bytes; compare keyId with the published key. */
  publicKey: string;
  algorithm: typeof STATEMENT_ALGORITHM;
  canonicalization: typeof STATEMENT_CANONICALIZATION;
}

/** The header every statement starts with. */
export const headerOf = (
  deps: StatementsDeps,
  key: StatementKey,
  user: { publicId: string; username: string },
): StatementHeader => ({
  type: STATEMENT_TYPE,
  version: STATEMENT_VERSION,
  issuer: deps.issuer(),
  keyId: key.keyId,
  account: { id: user.publicId, username: user.username },
});

export const signed = (statement: Statement, key: StatementKey): SignedStatement => ({
  statement,
  signature: signStatement(statement, key.privateKey),
  keyId: key.keyId,
  publicKey: key.x,
  algorithm: STATEMENT_ALGORITHM,
  canonicalization: STATEMENT_CANONICALIZATION,
});

/** The public key document of GET /.well-known/coinfair-statement-key: a JWK set with the PEM beside. */
export interface PublishedKeys {
  keys: {
    kty: 'OKP';
    crv: 'Ed25519';
    alg: 'EdDSA';
    use: 'sig';
    kid: string;
    x: string;
    pem: string;
  }[];
  algorithm: typeof STATEMENT_ALGORITHM;
  canonicalization: typeof STATEMENT_CANONICALIZATION;
  issuer: string;
}

export async function publishedKeys(deps: StatementsDeps): Promise<PublishedKeys> {
  const key = await deps.key();
  return {
    keys: [{ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig', kid: key.keyId, x: key.x, pem: key.publicPem }],
    algorithm: STATEMENT_ALGORITHM,
    canonicalization: STATEMENT_CANONICALIZATION,
    issuer: deps.issuer(),
  };
}
