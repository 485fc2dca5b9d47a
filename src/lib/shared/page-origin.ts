// Canonical and language links are absolute, from the configured public origin (server/site-origin.ts,
// the one place for absolute URLs). A page rendered per request knows it (Astro.locals.siteOrigin);
// a prerendered page is built before it is known (PORT=0 binds a port only at start, and one build
// serves any PUBLIC_ORIGIN), so it is written with this placeholder, which server/http/static-files.ts
// replaces with the origin when it first reads the file (decision 141). The `.invalid` top-level
// domain can never resolve (RFC 2606), so a placeholder that escaped would lead nowhere.

export const PRERENDERED_ORIGIN = 'https://prerendered-origin.invalid';

/** `https://coinfair.example` + `/de/fees` → `https://coinfair.example/de/fees`. */
export function absoluteUrl(origin: string, path: string): string {
  return `${origin}${path.startsWith('/') ? '' : '/'}${path}`;
}
