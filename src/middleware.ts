import { defineMiddleware } from 'astro:middleware';
import { pageContentSecurityPolicy } from '../server/http/content-security-policy.ts';
import { countryChoiceOf } from './lib/listing-country.ts';
import { parseListingUrl } from './lib/offer-listing-url.ts';
import { createPageCache } from './lib/server/page-cache.ts';

// Pages rendered per request (sign-in, settings…) get what static-files.ts gives prerendered
// ones: a CSP allowing only the page's own inline scripts by hash. They carry personal data and
// form tokens, so no cache may keep them, and their links must not leak a token in the URL to
// another site. Prerendered pages pass through at build time untouched.

// Offer listings for visitors who are not signed in: one render per address and country every 5
// seconds. The country (where the request comes from, or the visitor's pick) decides the listing's
// currency and which offers are available, so it is part of the key; so is the count of offer
// writes heard in any process (issue 17), so a new, changed or paused offer shows at once.
const listingCache = createPageCache({ ttlMs: 5_000, maxEntries: 300 });
const SESSION_COOKIE = /(?:^|;\s*)(?:__Host-)?session=/;

async function cacheKey(request: Request, url: URL, locals: App.Locals): Promise<string | undefined> {
  const cookies = request.headers.get('cookie');
  if (request.method !== 'GET' || SESSION_COOKIE.test(cookies ?? '')) return undefined;
  const address = `${url.pathname}${url.search}`;
  if (!parseListingUrl(address)) return undefined;
  const country = countryChoiceOf(cookies) ?? (await locals.visitorCountry());
  return `${locals.offersGeneration()} ${country} ${address}`;
}

export const onRequest = defineMiddleware(async (context, next) => {
  if (!context.isPrerendered) context.locals.noteRoute(context.routePattern);
  const key = context.isPrerendered ? undefined : await cacheKey(context.request, context.url, context.locals);
  const cached = key ? listingCache.get(key) : undefined;
  if (cached) return finish(new Response(null, { status: cached.status, headers: cached.headers }), cached.body);
  const response = await next();
  if (context.isPrerendered) return response;
  if (key && response.status === 200 && response.headers.get('content-type')?.startsWith('text/html')) {
    const html = await response.text();
    const headers = [...response.headers].filter(([name]) => name.toLowerCase() !== 'set-cookie');
    // Hashing the page's inline scripts once per render, not once per answer.
    headers.push(['Content-Security-Policy', pageContentSecurityPolicy(html)]);
    const body = new TextEncoder().encode(html);
    listingCache.set(key, { status: 200, headers, body });
    return finish(new Response(null, { status: 200, headers }), body);
  }
  return finish(response);

  /** The answer with the headers every rendered page gets; `known` is its body when already read. */
  async function finish(response: Response, known?: string | Uint8Array): Promise<Response> {
    const headers = new Headers(response.headers);
    headers.set('Cache-Control', 'no-store');
    headers.set('Referrer-Policy', 'same-origin');
    headers.set('X-Content-Type-Options', 'nosniff');
    if (!headers.get('content-type')?.startsWith('text/html')) {
      giveCsrfCookie(headers);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }
    const body = known ?? (await response.text());
    // After the whole page rendered: a form anywhere in it may have read the token.
    giveCsrfCookie(headers);
    if (!headers.has('Content-Security-Policy')) {
      const html = typeof body === 'string' ? body : new TextDecoder().decode(body);
      headers.set('Content-Security-Policy', pageContentSecurityPolicy(html));
    }
    headers.set('X-Frame-Options', 'DENY');
    return new Response(body as BodyInit, { status: response.status, statusText: response.statusText, headers });
  }

  /**
   * The CSRF cookie, when the page read a token the browser did not hold (server/backend.ts
   * pageLocals, decision 139), unless the answer set one itself (signing in or out).
   */
  function giveCsrfCookie(headers: Headers): void {
    const csrfCookie = context.locals.csrfCookie;
    if (csrfCookie && !headers.getSetCookie().some((c) => c.startsWith('XSRF-TOKEN='))) {
      headers.append('Set-Cookie', csrfCookie);
    }
  }
});
