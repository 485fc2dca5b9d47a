import type { SiteOrigin } from '../site-origin.ts';

// What every answer says about the connection it came over, in one place for pages, assets and
// the API alike.

/** Behind an https PUBLIC_ORIGIN: browsers keep to https for a year, subdomains included. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/** Load balancers probe by address, not by name. */
const ANY_HOST_PATHS = new Set(['/healthz', '/readyz']);

/**
 * With PUBLIC_ORIGIN set, a request naming another host is refused (421) before anything reads
 * it: nothing the server writes may then depend on a Host an attacker chose. Without it (one
 * machine, development) any host is served, since links come from the configuration anyway.
 */
export function hostRefusal(
  host: string | undefined,
  pathname: string,
  site: Pick<SiteOrigin, 'origin' | 'fromPublicOrigin'>,
): { status: number; message: string } | undefined {
  if (!site.fromPublicOrigin || ANY_HOST_PATHS.has(pathname)) return undefined;
  const expected = new URL(site.origin).host;
  if (host?.toLowerCase() === expected) return undefined;
  return { status: 421, message: `This server answers for ${expected} only.` };
}
