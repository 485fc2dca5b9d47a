import type { MiddlewareHandler } from 'hono';
import type { Places } from '../services/places/places.ts';
import type { AppEnv } from './app-env.ts';
import { clientInfo } from './auth.ts';

/**
 * Middleware: the country the request comes from, for every API request (issue 19): the client's
 * address (the proxy's forwarded one under TRUST_PROXY=on) placed by the offline database, else
 * DEFAULT_COUNTRY. Services read it as `ctx.visitorCountryIso`. A private or local address is
 * answered without touching the database, so tests and development never load it.
 */
export function visitorCountry(
  places: Pick<Places, 'countryOfAddress'>,
  trustProxy: boolean,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('visitorCountry', await places.countryOfAddress(clientInfo(c, trustProxy).ip));
    await next();
  };
}
