import { defineMiddleware } from 'astro:middleware';
import { pageContentSecurityPolicy } from '../server/http/content-security-policy.ts';
import { parseListingUrl } from './lib/offer-listing-url.ts';
import { createPageCache } from './lib/server/page-cache.ts';

// Pages rendered per request (sign-in, settings…) get what static-files.ts gives prerendered
// ones: a CSP allowing only the page's own inline scripts by hash. They carry personal data and
// form tokens, so no cache may keep them, and their links must not leak a token in the URL to
// another site. Prerendered pages pass through at build time untouched.

// Offer listings for visitors who are not signed in: one render per address every 5 seconds.
const listingCache = createPageCache({ ttlMs: 5_000, maxEntries: 300 });
const SESSION_COOKIE = /(?:^|;\s*)(?:__Host-)?session=/;

function cacheKey(request: Request, url: URL): string | undefined {
  if (request.method !== 'GET' || SESSION_COOKIE.test(request.headers.get('cookie') ?? '')) return undefined;
  const address = `${url.pathname}${url.search}`;
  return parseListingUrl(address) ? address : undefined;
}

export const onRequest = defineMiddleware(async (context, next) => {
  const key = context.isPrerendered ? undefined : cacheKey(context.request, context.url);
  const cached = key ? listingCache.get(key) : undefined;
  if (cached) return finish(new Response(cached.html, { status: cached.status, headers: cached.headers }), cached.html);
  const response = await next();
  if (context.isPrerendered) return response;
  if (key && response.status === 200 && response.headers.get('content-type')?.startsWith('text/html')) {
    const html = await response.text();
    const headers = [...response.headers].filter(([name]) => name.toLowerCase() !== 'set-cookie');
    // Hashing the page's inline scripts once per render, not once per answer.
    headers.push(['Content-Security-Policy', pageContentSecurityPolicy(html)]);
    listingCache.set(key, { status: 200, headers, html });
    return finish(new Response(html, { status: 200, headers }), html);
  }
  return finish(response);

  async function finish(response: Response, knownHtml?: string): Promise<Response> {
    const headers = new Headers(response.headers);
    // The CSRF cookie the browser lacked (server/backend.ts pageLocals), unless the answer set one.
    const csrfCookie = context.locals.csrfCookie;
    if (csrfCookie && !headers.getSetCookie().some((c) => c.startsWith('XSRF-TOKEN='))) {
      headers.append('Set-Cookie', csrfCookie);
    }
    headers.set('Cache-Control', 'no-store');
    headers.set('Referrer-Policy', 'same-origin');
    headers.set('X-Content-Type-Options', 'nosniff');
    if (!headers.get('content-type')?.startsWith('text/html')) {
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }
    const html = knownHtml ?? (await response.text());
    if (!headers.has('Content-Security-Policy'))
      headers.set('Content-Security-Policy', pageContentSecurityPolicy(html));
    headers.set('X-Frame-Options', 'DENY');
    return new Response(html, { status: response.status, statusText: response.statusText, headers });
  }
});
