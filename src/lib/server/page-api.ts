import type { AstroGlobal } from 'astro';
import { readCookie } from '../../../server/http/cookies.ts';
import { type ApiError, splitErrors } from '../api-client.ts';
import { type Locale, localizePath } from '../shared/i18n/locales.ts';

export type { ApiError };

// Server-rendered pages call the API in-process (Astro.locals.callApi, server/backend.ts) with the
// browser's own cookies and headers. A form that posts without JavaScript therefore meets the
// same validation, limits and CSRF checks as the JSON call the page's script makes.

export interface ApiAnswer<T> {
  status: number;
  data: T | undefined;
  meta: Record<string, unknown> | undefined;
  errors: ApiError[];
  /** Cookies the API set (a new session, a CSRF token): the page passes them on to the browser. */
  setCookies: string[];
}

/** Browser headers the API's rules read: session and CSRF cookies, origin checks, language. */
const FORWARDED = ['cookie', 'user-agent', 'accept-language', 'origin', 'sec-fetch-site', 'x-forwarded-for'];

export async function callApi<T>(
  Astro: AstroGlobal,
  path: string,
  options: {
    method?: 'GET' | 'POST' | 'DELETE';
    json?: unknown;
    /** A form-encoded body instead of JSON, for the endpoints the spec defines so (vendor terms). */
    urlencoded?: Record<string, string>;
    form?: FormData;
    /** The posted form itself as multipart/form-data, for uploads (verification documents). */
    multipart?: FormData;
  } = {},
): Promise<ApiAnswer<T>> {
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = Astro.request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const method = options.method ?? 'GET';
  if (method !== 'GET') {
    // The token the form carried: a no-JS form proves it came from our page the way a script does.
    headers.set('x-csrf-token', String(options.form?.get('csrf') ?? ''));
    // Multipart bodies bring their own type with the boundary.
    if (!options.multipart) {
      headers.set('content-type', options.urlencoded ? 'application/x-www-form-urlencoded' : 'application/json');
    }
  }
  const payload = options.multipart
    ? options.multipart
    : options.urlencoded
      ? new URLSearchParams(options.urlencoded).toString()
      : options.json === undefined
        ? undefined
        : JSON.stringify(options.json);
  const request = new Request(new URL(path, Astro.url), {
    method,
    headers,
    ...(payload === undefined ? {} : { body: payload }),
  });
  const response = await Astro.locals.callApi(request, Astro.clientAddress);
  const body = (await response.json().catch(() => ({}))) as {
    data?: T;
    meta?: Record<string, unknown>;
    errors?: ApiError[];
  };
  return {
    status: response.status,
    data: body.data,
    meta: body.meta,
    errors: body.errors ?? [],
    setCookies: cookiesToPassOn(response, method, Astro.request.headers.get('cookie')),
  };
}

/**
 * The cookies of an in-process answer the browser should get. Not the CSRF token the API makes up
 * for a GET from a browser that held none: the browser never made that call, and a page gives a
 * token only when a form of its own needs one (decision 139), so reading an offer sets no cookie.
 */
function cookiesToPassOn(response: Response, method: string, browserCookies: string | null): string[] {
  const cookies = response.headers.getSetCookie();
  // server/http/csrf.ts's CSRF_COOKIE: that module's imports stay out of the pages' bundle.
  if (method !== 'GET' || readCookie(browserCookies, 'XSRF-TOKEN') !== undefined) return cookies;
  return cookies.filter((cookie) => !cookie.startsWith('XSRF-TOKEN='));
}

/** A 303 to `location` carrying the cookies the API set (after a form post: no resubmission). */
export function redirectWithCookies(location: string, setCookies: readonly string[]): Response {
  const headers = new Headers({ Location: location });
  for (const cookie of setCookies) headers.append('Set-Cookie', cookie);
  return new Response(null, { status: 303, headers });
}

/** Signed out: a 303 to the sign-in page, which comes back to this page's address (`back=`). */
export function toSignIn(
  Astro: AstroGlobal,
  locale: Locale,
  back = `${Astro.url.pathname}${Astro.url.search}`,
): Response {
  return Astro.redirect(`${localizePath(locale, '/login')}?back=${encodeURIComponent(back)}`, 303);
}

/** Reads a posted form, or undefined for a GET or a body that is not a form. */
export async function postedForm(Astro: AstroGlobal): Promise<FormData | undefined> {
  if (Astro.request.method !== 'POST') return undefined;
  try {
    return await Astro.request.formData();
  } catch {
    return undefined;
  }
}

/** The messages a form shows for an API error answer: inline per field, else on top. */
export const formErrors = splitErrors;

/**
 * Hands the cookies the API set while rendering (a renewed or replaced session) on to the
 * browser, once per cookie name however many answers carried them.
 */
export function passOnCookies(Astro: AstroGlobal, ...answers: Pick<ApiAnswer<unknown>, 'setCookies'>[]): void {
  const seen = new Set(Astro.response.headers.getSetCookie().map((cookie) => cookie.slice(0, cookie.indexOf('='))));
  for (const answer of answers) {
    for (const cookie of answer.setCookies) {
      const name = cookie.slice(0, cookie.indexOf('='));
      if (seen.has(name)) continue;
      seen.add(name);
      Astro.response.headers.append('Set-Cookie', cookie);
    }
  }
}
