import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { type AppEnv, authMiddleware } from './http/auth.ts';
import { csrf } from './http/csrf.ts';
import { errorResponse, unexpectedErrorResponse } from './http/errors.ts';
import { authRoutes, emailLinkRoutes } from './routes/auth.ts';
import { cookiePolicyRoutes } from './routes/cookie-policy.ts';
import { locationRoutes, referenceRoutes } from './routes/reference.ts';
import { usersRoutes } from './routes/users.ts';
import type { Services } from './services/container.ts';
import { AppError } from './services/errors.ts';

export interface AppOptions {
  services: Services;
  allowedOrigins?: readonly string[];
  secureCookies?: boolean;
  /** Behind a reverse proxy: take the client address from X-Forwarded-For. */
  trustProxy?: boolean;
  logError?: (error: unknown) => void;
}

/** Path prefixes the Hono app answers (spec section 7); main.ts sends everything else to Astro. */
export const API_PREFIXES = ['/rest/v1/', '/auth/', '/account/', '/trade/', '/vendor/', '/location/'] as const;

export function isApiPath(pathname: string): boolean {
  return API_PREFIXES.some((prefix) => pathname.startsWith(prefix)) || pathname === '/healthz';
}

export function createApp({
  services,
  allowedOrigins = [],
  secureCookies = false,
  trustProxy = false,
  logError = console.error,
}: AppOptions) {
  const app = new Hono<AppEnv>();

  app.use('*', secureHeaders({ crossOriginResourcePolicy: 'same-origin', xFrameOptions: 'DENY' }));
  app.use('*', async (c, next) => {
    await next();
    // API answers are personal or live; no shared cache may keep them.
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
  });
  app.use('*', authMiddleware(services.sessions, secureCookies));
  app.use('*', csrf({ allowedOrigins, secureCookies }));

  app.get('/healthz', (c) => c.json({ data: { status: 'ok' } }));
  app.route('/rest/v1', referenceRoutes(services));
  app.route('/rest/v1/cookie-policy', cookiePolicyRoutes({ secureCookies }));
  app.route('/location', locationRoutes(services));
  app.route('/rest/v1/auth', authRoutes(services, { secureCookies, trustProxy }));
  app.route('/auth', emailLinkRoutes(services));
  app.route('/rest/v1/users', usersRoutes(services));

  app.notFound((c) =>
    errorResponse(c, new AppError('NOT_FOUND', `No endpoint ${c.req.method} ${new URL(c.req.url).pathname}.`)),
  );
  app.onError((error, c) =>
    error instanceof AppError ? errorResponse(c, error) : unexpectedErrorResponse(c, error, logError),
  );

  return app;
}

export type App = ReturnType<typeof createApp>;
