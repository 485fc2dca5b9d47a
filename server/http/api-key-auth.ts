import type { MiddlewareHandler } from 'hono';
import { API_KEY_HEADERS, API_KEY_RATE_WINDOW_SECONDS } from '../../src/lib/shared/api-keys.ts';
import { type ApiKeysService, rateLimited } from '../services/api-keys/api-keys.ts';
import { AppError } from '../services/errors.ts';
import type { AppEnv } from './app-env.ts';
import { claimsApiKey, clientInfo } from './auth.ts';

// Requests signed with an API key (issue 21, docs/api.md): the one place they are recognised.
// A request carrying X-Api-Key is authenticated by its signature only: the session middleware
// ignores its cookies, the CSRF check lets it pass (no ambient credential is involved, and a
// browser cannot send the header cross-site without a preflight we never answer), and this
// middleware, after the body was read, checks the signature over the raw body, the key's scope,
// the routes keys may never reach, and the key's rate, whose RateLimit-* headers every answer carries.

/**
 * What a key may never do, whatever its scope: manage keys or sign-in and account security,
 * withdraw, act as a moderator or operator, review identities, and upload files (multipart bodies cannot be
 * signed as our requests are; upload from the browser). Everything else a person may do, a
 * `trade` key may do; a `read` key only reads.
 */
export const API_KEY_OFF_LIMITS: readonly RegExp[] = [
  /^\/rest\/v1\/api-keys(\/|$)/,
  /^\/rest\/v1\/auth\//,
  /^\/rest\/v1\/users\/(2fa|sessions)(\/|$)/,
  /^\/rest\/v1\/users\/(change-password|confirm-phone|reset-phone|set-username|avatar-upload|process-avatar)$/,
  /^\/rest\/v1\/(castle|telegram|verification|moderation|operators)(\/|$)/,
  /^\/rest\/v1\/wallet\/send$/,
  /^\/rest\/v1\/cookie-policy$/,
  /^\/(account|auth|vendor|trade\/push-authorize)\//,
];

export const isOffLimitsForKeys = (path: string) => API_KEY_OFF_LIMITS.some((rule) => rule.test(path));

const READ_METHODS = new Set(['GET', 'HEAD']);

export function apiKeyAuth(apiKeys: ApiKeysService, trustProxy: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!claimsApiKey(c)) return next();
    if (isOffLimitsForKeys(c.req.path))
      throw new AppError('FORBIDDEN', 'API keys cannot do this; use the website.', { key: 'api_key_not_allowed' });
    if ((c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/'))
      throw new AppError('FORBIDDEN', 'Files cannot be uploaded with an API key; use the website.', {
        key: 'api_key_no_uploads',
      });
    const url = new URL(c.req.url);
    const result = await apiKeys.authenticate({
      keyId: c.req.header(API_KEY_HEADERS.key) ?? '',
      timestamp: c.req.header(API_KEY_HEADERS.timestamp) ?? '',
      nonce: c.req.header(API_KEY_HEADERS.nonce) ?? '',
      signature: c.req.header(API_KEY_HEADERS.signature) ?? '',
      method: c.req.method,
      pathAndQuery: `${url.pathname}${url.search}`,
      body: c.get('rawBody') ?? '',
      ip: clientInfo(c, trustProxy).ip,
    });
    const { limit, remaining, resetSeconds, exceeded } = result.rate;
    c.header('RateLimit-Limit', String(limit));
    c.header('RateLimit-Remaining', String(remaining));
    c.header('RateLimit-Reset', String(resetSeconds));
    c.header('RateLimit-Policy', `${limit};w=${API_KEY_RATE_WINDOW_SECONDS}`);
    if (exceeded) throw rateLimited(resetSeconds);
    if (result.scope === 'read' && !READ_METHODS.has(c.req.method))
      throw new AppError('FORBIDDEN', 'This key is read-only.', { key: 'api_key_read_only' });
    c.set('auth', result.auth);
    return next();
  };
}
