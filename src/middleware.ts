import { defineMiddleware } from 'astro:middleware';
import { pageContentSecurityPolicy } from '../server/http/content-security-policy.ts';

// Pages rendered per request (sign-in, settings…) get what static-files.ts gives prerendered
// ones: a CSP allowing only the page's own inline scripts by hash. They carry personal data and
// form tokens, so no cache may keep them, and their links must not leak a token in the URL to
// another site. Prerendered pages pass through at build time untouched.

export const onRequest = defineMiddleware(async (context, next) => {
  const response = await next();
  if (context.isPrerendered) return response;
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
  const html = await response.text();
  headers.set('Content-Security-Policy', pageContentSecurityPolicy(html));
  headers.set('X-Frame-Options', 'DENY');
  return new Response(html, { status: response.status, statusText: response.statusText, headers });
});
