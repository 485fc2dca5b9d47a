import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../services/errors.ts';
import type { AppEnv } from './app-env.ts';
import { claimsApiKey } from './auth.ts';
import { readCookie } from './cookies.ts';
import { errorResponse } from './errors.ts';

// Spec section 7: every call sends the CSRF header. The cookie is readable by our own scripts,
// which echo it in X-CSRF-Token; another site can neither read it nor set the header. Signed in,
// the token is the session's own (stored with it, renewed with it); signed out, it is a plain
// double-submit token.

export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_HEADER = 'X-CSRF-Token';
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * GETs the HTTP contract makes change state (spec section 7: reset-phone removes the number).
 * Without the check a link or an <img> on another site could make them; our pages send the
 * header on every such call.
 */
export const STATE_CHANGING_GETS: ReadonlySet<string> = new Set(['/rest/v1/users/reset-phone']);

function needsToken(method: string, path: string): boolean {
  return !SAFE_METHODS.has(method) || (method === 'GET' && STATE_CHANGING_GETS.has(path));
}

export function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The valid token the client already holds, or undefined when it must be issued one. */
export function presentedCsrfCookie(cookieHeader: string | undefined | null): string | undefined {
  const token = readCookie(cookieHeader, CSRF_COOKIE);
  return token && TOKEN_PATTERN.test(token) ? token : undefined;
}

export function csrfSetCookie(token: string, secure: boolean): string {
  return `${CSRF_COOKIE}=${token}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export interface CsrfOptions {
  /** Origins besides the request's own that may send mutating requests (PUBLIC_ORIGIN). */
  allowedOrigins: readonly string[];
  secureCookies: boolean;
}

/** True when the browser's own signals say the request did not come from another site. */
export function isSameSiteRequest(headers: Headers, requestOrigin: string, allowed: readonly string[]): boolean {
  const origin = headers.get('origin');
  const originAllowed = origin === requestOrigin || (origin !== null && allowed.includes(origin));
  if (origin !== null && !originAllowed) return false;
  const site = headers.get('sec-fetch-site');
  if (site === 'cross-site') return false;
  if (site === 'same-site' && !originAllowed) return false;
  return true;
}

/** Runs after the auth middleware, so a signed-in request is checked against its session's token. */
export function csrf(options: CsrfOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // Signed with an API key: no cookie is involved, and the signature is checked before any route.
    if (claimsApiKey(c)) return next();
    const cookieHeader = c.req.header('cookie');
    const cookieToken = presentedCsrfCookie(cookieHeader);
    const sessionToken = c.get('auth')?.session.csrfToken;
    const token = sessionToken ?? cookieToken;
    // What the browser's XSRF-TOKEN cookie must become: a fresh token when it has none, the
    // session's when it holds a stale one.
    const cookieToSet = !token
      ? newCsrfToken()
      : sessionToken && cookieToken !== sessionToken
        ? sessionToken
        : undefined;
    const setCookie = (headers: Headers) => {
      if (cookieToSet) headers.append('Set-Cookie', csrfSetCookie(cookieToSet, options.secureCookies));
    };

    if (needsToken(c.req.method, c.req.path)) {
      const header = c.req.header(CSRF_HEADER) ?? '';
      const origin = new URL(c.req.url).origin;
      if (
        !token ||
        !sameToken(header, token) ||
        !isSameSiteRequest(c.req.raw.headers, origin, options.allowedOrigins)
      ) {
        const res = errorResponse(
          c,
          new AppError(
            'CSRF_TOKEN_MISMATCH',
            'The security token is missing or does not match. Reload the page and try again.',
            { field: CSRF_HEADER, key: 'csrf' },
          ),
        );
        setCookie(res.headers);
        return res;
      }
    }

    await next();
    // Sign-in and sign-out set the cookie themselves; otherwise keep it equal to the expected token.
    // Only read the headers when there is a cookie to set: reading them costs (see docs/decisions/037-users-me-performance.md).
    if (cookieToSet && !c.res.headers.getSetCookie().some((v) => v.startsWith(`${CSRF_COOKIE}=`)))
      setCookie(c.res.headers);
  };
}
