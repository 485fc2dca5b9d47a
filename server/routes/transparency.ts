import { Hono } from 'hono';
import type { AppEnv } from '../http/auth.ts';
import type { Services } from '../services/container.ts';
import { TRANSPARENCY_CACHE_MS } from '../services/transparency/transparency.ts';

// The public dispute statistics (issue 24; docs/decisions/162-public-dispute-statistics.md):
//   GET /rest/v1/transparency   disputes per thousand trades, median times to a moderator's first
//                               word and to a decision, the shares decided for buyers and sellers,
//                               overall and per payment-method group, for the last 30 and 365 days,
//                               and per month for twelve months (public: the /transparency page)

export function transparencyRoutes(services: Services) {
  return new Hono<AppEnv>().get('/rest/v1/transparency', async (c) => {
    const data = await services.transparency.statistics();
    // The same for everyone and remade every ten minutes: shared caches may keep it as long.
    c.header('Cache-Control', `public, max-age=${TRANSPARENCY_CACHE_MS / 1000}`);
    return c.json({ data });
  });
}
