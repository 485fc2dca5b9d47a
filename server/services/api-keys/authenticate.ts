import {
  API_KEY_RATE_LIMIT,
  API_KEY_RATE_WINDOW_SECONDS,
  API_KEY_TIMESTAMP_SKEW_SECONDS,
  API_NONCE_PATTERN,
  type ApiKeyScope,
  canonicalRequest,
} from '../../../src/lib/shared/api-keys.ts';
import type { AuthState } from '../context.ts';
import { AppError } from '../errors.ts';
import type { ApiKeysDeps } from './deps.ts';
import { deriveSecret, sameSignature, sha256Hex, signCanonical } from './secrets.ts';

// A request signed with an API key (issue 21, docs/api.md "Signing a request"): the key must be
// active, the timestamp within five minutes of ours, the nonce new for this key (remembered for
// twice the skew in the shared store, so a replay to another process is refused too), and the
// signature HMAC-SHA256 of the canonical text under the key's secret. Then the key's rate window
// counts the request.

export interface SignedRequest {
  keyId: string;
  timestamp: string;
  nonce: string;
  signature: string;
  method: string;
  pathAndQuery: string;
  /** The body as received (empty when none). */
  body: string;
  ip: string;
}

export interface KeyAuth {
  auth: AuthState;
  scope: ApiKeyScope;
  /** The window's limit, what is left of it, the seconds until it starts again, and whether this request is past it. */
  rate: { limit: number; remaining: number; resetSeconds: number; exceeded: boolean };
}

type Reason = 'unknown_key' | 'bad_timestamp' | 'bad_nonce' | 'replayed' | 'bad_signature' | 'key_root_changed';

const refused = (reason: Reason, message: string) =>
  new AppError('UNAUTHENTICATED', message, { key: `api_key_${reason}`, meta: { reason } });

/** The session a key's requests carry: none is stored; it names the key. */
function keySession(publicId: string, userId: number, at: number, ip: string): AuthState['session'] {
  return {
    id: `api-key:${publicId}`,
    userId,
    csrfToken: '',
    createdAt: at,
    expiresAt: at,
    ip,
    userAgent: 'api-key',
    publicId,
    lastUsedAt: at,
  };
}

async function countRequest({ store, now }: ApiKeysDeps, keyId: string) {
  const windowMs = API_KEY_RATE_WINDOW_SECONDS * 1000;
  const window = Math.floor(now() / windowMs);
  const count = await store.increment(`api-rate:${keyId}:${window}`, windowMs);
  const resetSeconds = Math.max(1, Math.ceil(((window + 1) * windowMs - now()) / 1000));
  return {
    limit: API_KEY_RATE_LIMIT,
    remaining: Math.max(0, API_KEY_RATE_LIMIT - count),
    resetSeconds,
    exceeded: count > API_KEY_RATE_LIMIT,
  };
}

/** Past the key's rate: the caller sends the RateLimit headers with it. */
export const rateLimited = (resetSeconds: number) =>
  new AppError('RATE_LIMITED', `At most ${API_KEY_RATE_LIMIT} requests a minute per key.`, {
    key: 'api_key_rate_limited',
    retryAfterSeconds: resetSeconds,
  });

export async function authenticate(deps: ApiKeysDeps, request: SignedRequest): Promise<KeyAuth> {
  const { repo, root, store, now } = deps;
  const at = now();
  const row = /^ck_[0-9A-Za-z]{16}$/.test(request.keyId) ? await repo.active(request.keyId) : undefined;
  if (!row) throw refused('unknown_key', 'This API key does not exist or was revoked.');
  const timestamp = Number(request.timestamp);
  if (!/^\d{1,12}$/.test(request.timestamp) || Math.abs(timestamp * 1000 - at) > API_KEY_TIMESTAMP_SKEW_SECONDS * 1000)
    throw refused('bad_timestamp', 'X-Api-Timestamp must be the current time in unix seconds (within 5 minutes).');
  if (!API_NONCE_PATTERN.test(request.nonce))
    throw refused('bad_nonce', 'X-Api-Nonce must be 16 to 64 letters, digits, - or _.');
  const secret = deriveSecret(root, row.publicId, row.salt);
  if (sha256Hex(secret) !== row.secretHash)
    throw refused('key_root_changed', 'This API key was made under another server key; create a new one.');
  const canonical = canonicalRequest(
    request.method,
    request.pathAndQuery,
    request.timestamp,
    request.nonce,
    sha256Hex(request.body),
  );
  if (!sameSignature(signCanonical(secret, canonical), request.signature))
    throw refused('bad_signature', 'The signature does not match the request (docs: /developers#api).');
  // Last: only a correctly signed request spends its nonce.
  if (!(await store.add(`api-nonce:${row.publicId}:${request.nonce}`, '1', 2 * API_KEY_TIMESTAMP_SKEW_SECONDS * 1000)))
    throw refused('replayed', 'This nonce was used already; every request needs a new one.');
  const person = await deps.person(row.userId);
  if (!person) throw refused('unknown_key', 'This API key does not exist or was revoked.');
  if (person.user.status === 'banned')
    throw new AppError('ACCOUNT_BANNED', 'This account is closed. Contact support if you think this is a mistake.', {
      key: 'account_banned',
    });
  const rate = await countRequest(deps, row.publicId);
  // "Last used" at most once a minute per key: a busy bot does not write on every request.
  if (row.lastUsedAt === null || at - row.lastUsedAt >= 60_000 || row.lastUsedIp !== request.ip)
    await repo.markUsed(row.id, at, request.ip);
  return { auth: { ...person, session: keySession(row.publicId, row.userId, at, request.ip) }, scope: row.scope, rate };
}
