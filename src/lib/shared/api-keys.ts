// API keys for bots (issue 21, docs/api.md): what a key may do, the headers a signed request
// carries, and the text its signature covers. Isomorphic: the server checks with these, the
// settings screen and the docs' example sign with the same canonical text.

/** `read`: GET only. `trade`: everything a key may reach (docs/api.md lists what it may not). */
export const API_KEY_SCOPES = ['read', 'trade'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Active keys a person may hold at once. */
export const MAX_API_KEYS = 10;
export const API_KEY_NAME_MAX = 60;

/** Requests a key may make per window, and the window. */
export const API_KEY_RATE_LIMIT = 120;
export const API_KEY_RATE_WINDOW_SECONDS = 60;

/** How far a request's timestamp may be from the server's clock, either way. */
export const API_KEY_TIMESTAMP_SKEW_SECONDS = 300;

export const API_KEY_HEADERS = {
  key: 'x-api-key',
  timestamp: 'x-api-timestamp',
  nonce: 'x-api-nonce',
  signature: 'x-api-signature',
} as const;

/** A nonce: 16 to 64 URL-safe characters, never used twice by one key within the skew window. */
export const API_NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * What the signature covers, one field per line: the method, the path with its query string as
 * sent, the timestamp (unix seconds), the nonce, and the body's SHA-256 in lower-case hex (of the
 * empty string when there is none). The signature is HMAC-SHA256 of this text under the key's
 * secret, in lower-case hex.
 */
export const canonicalRequest = (
  method: string,
  pathAndQuery: string,
  timestamp: string,
  nonce: string,
  bodySha256: string,
) => [method.toUpperCase(), pathAndQuery, timestamp, nonce, bodySha256].join('\n');

/** A key as its owner's settings list it; the secret is never in it. */
export interface ApiKeyView {
  /** `ck_…`: sent as X-Api-Key. */
  id: string;
  name: string;
  scope: ApiKeyScope;
  /** Unix seconds. */
  createdAt: number;
  lastUsedAt: number | null;
  lastUsedIp: string | null;
}
