import type { IncomingMessage } from 'node:http';
import type { App } from './app.ts';
import { clientAddress } from './http/auth.ts';
import { csrfSetCookie, newCsrfToken, presentedCsrfCookie } from './http/csrf.ts';
import { noteRequest } from './observability/request-log.ts';
import type { Places } from './services/places/places.ts';
import type { SiteOrigin } from './site-origin.ts';

// What a page rendered per request gets from the backend (server/backend.ts), as `Astro.locals`.

/**
 * What server-rendered pages get in `Astro.locals`: the same API the browser calls, in-process,
 * so a form that works without JavaScript goes through exactly the rules, limits and CSRF checks
 * of the JSON calls (src/lib/server/page-api.ts).
 */
export interface PageLocals {
  callApi(request: Request, clientAddress: string): Promise<Response>;
  /**
   * The browser's CSRF token, for forms that post without JavaScript. Issued when first read: a
   * page with no such form sets no cookie (decision 139).
   */
  readonly csrfToken: string;
  /**
   * The cookie that gives the browser `csrfToken`, once the page has read a token the browser did
   * not hold (src/middleware.ts sets it after the render); undefined otherwise.
   */
  readonly csrfCookie: string | undefined;
  /** The configured public origin (server/site-origin.ts): canonical and language links are absolute. */
  readonly siteOrigin: string;
  /** Where the request comes from (server/services/places): the listing cache keys on it. */
  visitorCountry(): Promise<string>;
  /** Grows at every offer write in any process: the listing cache keys on it, so a write shows at once. */
  offersGeneration(): number;
  /** Names the page's route (`/offer/[hash]`) in the request's log line and metrics. */
  noteRoute(pattern: string): void;
}

/**
 * The locals of one page render: the in-process API, and the browser's CSRF token: its own, or a
 * new one made only when the page reads it (a form posting without JavaScript). A listing, an offer
 * or the calculator read none, so a visitor without cookies gets none (decision 139); their islands
 * fetch the token on their first change (src/lib/api-client.ts).
 */
export function pageLocalsOf(
  app: App,
  {
    secureCookies,
    trustProxy,
    places,
    offersGeneration,
    siteOrigin,
  }: {
    secureCookies: boolean;
    trustProxy: boolean;
    places: Places;
    offersGeneration: () => number;
    siteOrigin: SiteOrigin;
  },
): (req: IncomingMessage) => PageLocals {
  const callApi: PageLocals['callApi'] = async (request, clientAddress) =>
    app.fetch(request, { incoming: { socket: { remoteAddress: clientAddress } } });
  return (req) => {
    const forwardedFor = req.headers['x-forwarded-for'];
    const visitorCountry = () =>
      places.countryOfAddress(
        clientAddress(
          Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor,
          req.socket.remoteAddress,
          trustProxy,
        ),
      );
    const presented = presentedCsrfCookie(req.headers.cookie);
    let issued: string | undefined;
    return {
      callApi,
      visitorCountry,
      offersGeneration,
      noteRoute: (pattern) => noteRequest(req, { route: pattern }),
      get siteOrigin() {
        return siteOrigin.origin;
      },
      get csrfToken() {
        if (presented) return presented;
        issued ??= newCsrfToken();
        return issued;
      },
      get csrfCookie() {
        return issued === undefined ? undefined : csrfSetCookie(issued, secureCookies);
      },
    };
  };
}
