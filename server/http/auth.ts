import type { Context, MiddlewareHandler } from 'hono';
import { API_KEY_HEADERS } from '../../src/lib/shared/api-keys.ts';
import type { SessionService } from '../services/accounts/sessions.ts';
import {
  type AuthState,
  type PersonContext,
  personContext,
  type ServiceContext,
  visitorContext,
} from '../services/context.ts';
import { AppError } from '../services/errors.ts';
import type { ClientInfo, SessionRow } from '../services/shared/account-types.ts';
import type { AppEnv } from './app-env.ts';
import { readCookie } from './cookies.ts';
import { csrfSetCookie } from './csrf.ts';

// The session cookie (Lucia's guide): HttpOnly so scripts never see it, SameSite=Lax, and behind
// HTTPS `Secure` with the `__Host-` prefix, which also forbids a Domain attribute, so a sibling
// subdomain cannot plant or read it.

export type { AppEnv, AuthState };

export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-session' : 'session';
}

export function sessionSetCookie(token: string, expiresAt: number, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((expiresAt - Date.now()) / 1000));
  return `${sessionCookieName(secure)}=${token}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function sessionClearCookie(secure: boolean): string {
  return `${sessionCookieName(secure)}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/**
 * A readable hint beside the HttpOnly session: "this browser is signed in". Prerendered pages
 * cannot know who reads them; their pre-paint script reads the hint to show the account menu
 * instead of the sign-in buttons without a flash, then asks the API who it is. It grants nothing.
 */
export const SIGNED_IN_HINT_COOKIE = 'signed_in';

function signedInHintCookie(expiresAt: number, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((expiresAt - Date.now()) / 1000));
  return `${SIGNED_IN_HINT_COOKIE}=1; Path=/; Max-Age=${maxAge}; SameSite=Lax${secure ? '; Secure' : ''}`;
}

function signedInHintClear(secure: boolean): string {
  return `${SIGNED_IN_HINT_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** Signs the browser out: the session cookie and its hint go. */
export function clearSessionCookies(c: Context, secure: boolean): void {
  c.header('Set-Cookie', sessionClearCookie(secure), { append: true });
  c.header('Set-Cookie', signedInHintClear(secure), { append: true });
}

/**
 * A new session's cookies: the HttpOnly session token and the CSRF token bound to it. Sign-in,
 * sign-up and every privilege change (two-factor on or off, vendor terms) answer with these.
 */
export function setSessionCookies(c: Context, token: string, session: SessionRow, secure: boolean): void {
  c.header('Set-Cookie', sessionSetCookie(token, session.expiresAt, secure), { append: true });
  c.header('Set-Cookie', csrfSetCookie(session.csrfToken, secure), { append: true });
  c.header('Set-Cookie', signedInHintCookie(session.expiresAt, secure), { append: true });
}

/** Whether the request says it is signed with an API key (server/http/api-key-auth.ts refuses it if it is not). */
export const claimsApiKey = (c: Context) => c.req.header(API_KEY_HEADERS.key) !== undefined;

/** Resolves the session cookie into `c.get('auth')` for every API request. */
export function authMiddleware(sessions: SessionService, secure: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // A request signed with an API key is that key's person, whatever cookies it carries (api-key-auth.ts).
    if (claimsApiKey(c)) {
      c.set('auth', null);
      return next();
    }
    const token = readCookie(c.req.header('cookie'), sessionCookieName(secure));
    const found = token ? await sessions.validate(token) : null;
    c.set('auth', found ? { session: found.session, user: found.user, profile: found.profile } : null);
    await next();
    // Most answers leave the cookie as it is; only the others need to look at the headers.
    if (!token || (found && !found.renewed)) return;
    // A sign-in or sign-out in this request already decided the cookie; never undo it.
    const name = `${sessionCookieName(secure)}=`;
    if (c.res.headers.getSetCookie().some((v) => v.startsWith(name))) return;
    if (!found) {
      // A late answer to a request sent before this browser's session was replaced: the browser
      // already holds the new cookie, which clearing would throw away.
      if (await sessions.wasReplaced(token)) return;
      c.res.headers.append('Set-Cookie', sessionClearCookie(secure));
      c.res.headers.append('Set-Cookie', signedInHintClear(secure));
    } else if (found.renewed) {
      c.res.headers.append('Set-Cookie', sessionSetCookie(token, found.session.expiresAt, secure));
      c.res.headers.append('Set-Cookie', signedInHintCookie(found.session.expiresAt, secure));
    }
  };
}

/** The service context of this request: the signed-in person's, or a visitor's. */
export function requestContext(c: Context<AppEnv>): ServiceContext {
  const auth = c.get('auth');
  return auth ? withPlace(c, personContext(auth)) : visitorContextOf(c);
}

/** The service context of a visitor's request, even when someone is signed in (registration). */
export function visitorContextOf(c: Context<AppEnv>): ServiceContext {
  return withPlace(c, visitorContext());
}

/** The signed-in person's service context, or 401 UNAUTHENTICATED. */
export function personContextOf(c: Context<AppEnv>): PersonContext {
  return withPlace(c, personContext(requireAuth(c)));
}

/** The request's country joins its context (unset outside the app, as in unit tests of a router). */
function withPlace<T extends ServiceContext>(c: Context<AppEnv>, ctx: T): T {
  const visitorCountryIso = c.get('visitorCountry');
  return visitorCountryIso ? { ...ctx, visitorCountryIso } : ctx;
}

/** The signed-in person, or 401 UNAUTHENTICATED. */
export function requireAuth(c: Context<AppEnv>): AuthState {
  const auth = c.get('auth');
  if (!auth) throw new AppError('UNAUTHENTICATED', 'Sign in to continue.', { key: 'unauthenticated' });
  return auth;
}

/**
 * Middleware: 401 before the handler when nobody is signed in, so a visitor's upload is never
 * received and a visitor learns nothing from validation errors or about the objects a path names.
 */
export const signedIn: MiddlewareHandler<AppEnv> = async (c, next) => {
  requireAuth(c);
  await next();
};

/**
 * The address and browser of a request. No origin: the Host header is the client's to write, so
 * links the server sends come from services.siteOrigin (server/site-origin.ts) instead.
 */
export function clientInfo(c: Context<AppEnv>, trustProxy: boolean): ClientInfo {
  const ip = clientAddress(c.req.header('x-forwarded-for'), c.env?.incoming?.socket?.remoteAddress, trustProxy);
  return { ip, userAgent: c.req.header('user-agent') ?? '' };
}

/**
 * The client's address: the socket's, or behind our proxy (TRUST_PROXY=on) the last entry of
 * X-Forwarded-For, the one our proxy appended (the others are the client's to write).
 */
export function clientAddress(
  forwardedFor: string | undefined,
  socketAddress: string | undefined,
  trustProxy: boolean,
) {
  const forwarded = trustProxy ? forwardedFor?.split(',').at(-1)?.trim() : undefined;
  return forwarded || socketAddress || 'unknown';
}
