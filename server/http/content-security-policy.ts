import { createHash } from 'node:crypto';

// One policy for every page, prerendered (static-files.ts) or rendered per request
// (src/middleware.ts).

/**
 * The page's Content-Security-Policy. Inline scripts (the pre-paint theme script, Astro's hoisted
 * modules) are allowed by their SHA-256, so an injected script runs nowhere.
 */
export function pageContentSecurityPolicy(html: string): string {
  const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) =>
      `'sha256-${createHash('sha256')
        .update(m[1] ?? '')
        .digest('base64')}'`,
  );
  return [
    "default-src 'self'",
    `script-src 'self' ${[...new Set(hashes)].join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
