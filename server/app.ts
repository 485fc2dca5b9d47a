import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Hono, type MiddlewareHandler } from 'hono';
import { apiKeyAuth } from './http/api-key-auth.ts';
import { type AppEnv, authMiddleware } from './http/auth.ts';
import { csrf } from './http/csrf.ts';
import { errorResponse, unexpectedErrorResponse } from './http/errors.ts';
import { serveOpenApi } from './http/openapi.ts';
import { requestBody } from './http/request-body.ts';
import { STRICT_TRANSPORT_SECURITY } from './http/transport.ts';
import { visitorCountry } from './http/visitor-country.ts';
import { noteRoute, probeRoutes } from './observability/api-observability.ts';
import type { Readiness } from './observability/readiness.ts';
import { authorizeChannel } from './realtime/channels.ts';
import type { ChannelAuthorizer } from './realtime/hub.ts';
import { affiliateRoutes } from './routes/affiliates.ts';
import { apiKeyRoutes } from './routes/api-keys.ts';
import { authRoutes, emailLinkRoutes } from './routes/auth.ts';
import { avatarRoutes } from './routes/avatar.ts';
import { bankAccountRoutes } from './routes/bank-accounts.ts';
import { bankRoutes } from './routes/banks.ts';
import { cookiePolicyRoutes } from './routes/cookie-policy.ts';
import { deviceReviewRoutes } from './routes/devices.ts';
import { exportRoutes } from './routes/exports.ts';
import { feedbackRoutes } from './routes/feedback.ts';
import { giftCardRoutes } from './routes/gift-cards.ts';
import { hedgingRoutes } from './routes/hedging.ts';
import { kioskRoutes } from './routes/kiosks.ts';
import { marketRoutes } from './routes/market.ts';
import { notificationRoutes } from './routes/notifications.ts';
import { offersRoutes } from './routes/offers.ts';
import { operatorRoutes } from './routes/operators.ts';
import { passwordRoutes } from './routes/passwords.ts';
import { phoneRoutes } from './routes/phone.ts';
import { profileRoutes } from './routes/profiles.ts';
import { proofRoutes } from './routes/proof.ts';
import { pushRoutes } from './routes/push.ts';
import { locationRoutes, referenceRoutes } from './routes/reference.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { settingsRoutes } from './routes/settings.ts';
import { STATEMENT_KEY_PATH, statementRoutes } from './routes/statements.ts';
import { telegramRoutes } from './routes/telegram.ts';
import { tradeUploadRoutes } from './routes/trade-uploads.ts';
import { tradesRoutes } from './routes/trades.ts';
import { transparencyRoutes } from './routes/transparency.ts';
import { twoFactorRoutes } from './routes/two-factor.ts';
import { usersRoutes } from './routes/users.ts';
import { vendorRoutes } from './routes/vendor.ts';
import { verificationRoutes } from './routes/verification.ts';
import { walletRoutes } from './routes/wallet.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import type { Services } from './services/container.ts';
import { AppError } from './services/errors.ts';

export interface AppOptions {
  services: Services;
  allowedOrigins?: readonly string[];
  secureCookies?: boolean;
  /** Behind a reverse proxy: take the client address from X-Forwarded-For. */
  trustProxy?: boolean;
  logError?: (error: unknown) => void;
  /** The realtime hub's channel authoriser, for push-authorize (public and personal channels by default). */
  authorizeChannel?: ChannelAuthorizer;
  /** What /readyz reports (server/observability/readiness.ts); without it, ready once it answers. */
  readiness?: () => Promise<Readiness>;
}

/** Path prefixes the Hono app answers (spec section 7); main.ts sends everything else to Astro. */
export const API_PREFIXES = [
  '/rest/v1/',
  '/auth/',
  '/account/',
  // Only the push authorisation: /trade/{hash} itself is the trade page (spec section 2).
  '/trade/push-authorize/',
  '/vendor/',
  '/location/',
  // Avatars and trade files: under UPLOADS_DIR, served by the API (routes/avatar.ts,
  // routes/trade-uploads.ts), not from a web root.
  '/uploads/',
  // The public key signed statements are checked with (routes/statements.ts).
  STATEMENT_KEY_PATH,
] as const;

export function isApiPath(pathname: string): boolean {
  return (
    API_PREFIXES.some((prefix) => pathname.startsWith(prefix)) || pathname === '/healthz' || pathname === '/readyz'
  );
}

/**
 * Headers every API answer carries, set in one pass after the handler: the few that matter for
 * JSON (Hono's secureHeaders adds a dozen meant for pages). API answers are personal or live, so
 * no shared cache may keep them unless a route says otherwise.
 */
function apiHeaders(https: boolean): MiddlewareHandler {
  const fixed: [string, string][] = [
    ['X-Content-Type-Options', 'nosniff'],
    ['X-Frame-Options', 'DENY'],
    ['Referrer-Policy', 'no-referrer'],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
  ];
  if (https) fixed.push(['Strict-Transport-Security', STRICT_TRANSPORT_SECURITY]);
  const fixedNames = new Set(fixed.map(([name]) => name.toLowerCase()));
  // The same rule on the plain header record @hono/node-server writes: ours replace the route's,
  // Cache-Control only when the route set none.
  const withApiHeaders = (headers: OutgoingHttpHeaders = {}): OutgoingHttpHeaders => {
    const merged: OutgoingHttpHeaders = {};
    let cacheControl = false;
    for (const name in headers) {
      const lower = name.toLowerCase();
      if (fixedNames.has(lower)) continue;
      if (lower === 'cache-control') cacheControl = true;
      merged[name] = headers[name];
    }
    for (const [name, value] of fixed) merged[name] = value;
    if (!cacheControl) merged['Cache-Control'] = 'no-store';
    return merged;
  };
  return async (c, next) => {
    // Served through @hono/node-server: add them as it writes the head. Reading c.res.headers
    // turns the answer's plain header record into Web Headers, ~3 µs a request (docs/decisions/037-users-me-performance.md).
    const outgoing: ServerResponse | undefined = c.env?.outgoing;
    if (outgoing) {
      const writeHead = outgoing.writeHead;
      outgoing.writeHead = ((status: number, headers?: OutgoingHttpHeaders) =>
        writeHead.call(outgoing, status, withApiHeaders(headers))) as ServerResponse['writeHead'];
      await next();
      return;
    }
    await next();
    const headers = c.res.headers;
    for (const [name, value] of fixed) headers.set(name, value);
    if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
  };
}

export function createApp({
  services,
  allowedOrigins = [],
  secureCookies = false,
  trustProxy = false,
  logError = console.error,
  authorizeChannel: authorize = authorizeChannel,
  readiness,
}: AppOptions) {
  const app = new Hono<AppEnv>();

  app.use('*', noteRoute());
  app.use('*', apiHeaders(secureCookies));
  app.use('*', authMiddleware(services.sessions, secureCookies));
  app.use('*', visitorCountry(services.places, trustProxy));
  app.use('*', csrf({ allowedOrigins, secureCookies }));
  // After CSRF, so a cross-site request is refused without reading its body.
  app.use('*', requestBody());
  // After the body was read: a key's signature covers the raw body (server/http/api-key-auth.ts).
  app.use('*', apiKeyAuth(services.apiKeys, trustProxy));

  mountRoutes(app, { services, secureCookies, trustProxy, authorize, readiness });
  // Last: the document describes every route registered above.
  serveOpenApi(app, services.siteOrigin);

  app.notFound((c) =>
    errorResponse(c, new AppError('NOT_FOUND', `No endpoint ${c.req.method} ${new URL(c.req.url).pathname}.`)),
  );
  app.onError((error, c) =>
    error instanceof AppError ? errorResponse(c, error) : unexpectedErrorResponse(c, error, logError),
  );

  return app;
}

/** Every area's routes, in the order their paths are matched. */
function mountRoutes(
  app: Hono<AppEnv>,
  {
    services,
    secureCookies,
    trustProxy,
    authorize,
    readiness,
  }: Required<Pick<AppOptions, 'services' | 'secureCookies' | 'trustProxy'>> &
    Pick<AppOptions, 'readiness'> & { authorize: ChannelAuthorizer },
): void {
  app.route('/', probeRoutes(readiness));
  // A script about to change something without a CSRF token asks here; the middleware above answers.
  app.get('/rest/v1/csrf-token', (c) => c.body(null, 204));
  app.route('/rest/v1', referenceRoutes(services));
  app.route('/rest/v1', marketRoutes(services));
  // Full paths inside: /rest/v1/offers… and /rest/v1/users/{username}/offers.
  app.route('/rest/v1', offersRoutes(services));
  app.route('/rest/v1/cookie-policy', cookiePolicyRoutes({ secureCookies, settings: services.settings }));
  app.route('/location', locationRoutes(services));
  app.route('/rest/v1/auth', authRoutes(services, { secureCookies, trustProxy }));
  app.route('/auth', emailLinkRoutes(services));
  app.route('/rest/v1/castle', deviceReviewRoutes(services));
  app.route('/rest/v1/users', usersRoutes(services));
  app.route('/rest/v1/users', settingsRoutes(services));
  // Full paths inside: /account/, /auth/, /rest/v1/users/ (phone) and /rest/v1/users/, /uploads/ (avatar).
  app.route('/', phoneRoutes(services));
  app.route('/', avatarRoutes(services));
  // Full paths inside: /rest/v1/trade/{id}/attachments|upload|uploads|requirement and /uploads/trades/.
  app.route('/', tradeUploadRoutes(services));
  app.route('/', giftCardRoutes(services, { trustProxy }));
  app.route('/', bankRoutes(services));
  app.route('/', bankAccountRoutes(services));
  app.route('/', affiliateRoutes(services));
  app.route('/', webhookRoutes(services));
  app.route('/', kioskRoutes(services));
  app.route('/', apiKeyRoutes(services));
  // Full paths inside: /rest/v1/users/change-password and /rest/v1/auth/{forgot,reset}-password.
  app.route('/', passwordRoutes(services, { secureCookies, trustProxy }));
  app.route('/rest/v1/telegram', telegramRoutes(services));
  app.route('/rest/v1/hedging', hedgingRoutes(services));
  app.route('/rest/v1/verification', verificationRoutes(services));
  app.route('/vendor', vendorRoutes(services, { secureCookies, trustProxy }));
  app.route('/rest/v1/users/2fa', twoFactorRoutes(services, { secureCookies, trustProxy }));
  app.route('/rest/v1/users/sessions', sessionRoutes(services, { secureCookies }));
  // Full paths inside: /rest/v1/balances and /rest/v1/wallet/….
  app.route('/rest/v1', walletRoutes(services));
  app.route('/rest/v1/notifications', notificationRoutes(services));
  // Full paths inside: /rest/v1/statements…, /.well-known/coinfair-statement-key and /rest/v1/exports….
  app.route('/', statementRoutes(services)).route('/', exportRoutes(services));
  // Full paths inside: /trade/push-authorize/{id} and /account/re-auth-push-subscription.
  app.route('/', pushRoutes(services, { authorize }));
  // Full paths inside: /rest/v1/trade…, /rest/v1/dispute/reasons, /rest/v1/moderation/….
  app.route('/rest/v1', tradesRoutes(services, { trustProxy }));
  // Full paths inside: /rest/v1/feedback/… and /rest/v1/users/{username}/{feedbacks,profile,trust,past-trades}.
  app.route('/rest/v1', feedbackRoutes(services));
  app.route('/rest/v1', profileRoutes(services));
  app.route('/', proofRoutes(services)).route('/', transparencyRoutes(services));
  app.route('/rest/v1/operators', operatorRoutes(services));
}

export type App = ReturnType<typeof createApp>;
