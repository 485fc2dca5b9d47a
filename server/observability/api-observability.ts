import { Hono, type MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from '../http/app-env.ts';
import type { Readiness } from './readiness.ts';
import { noteRequest } from './request-log.ts';

// The API's part in what operators see (issue 25): which route answered and for whom, and the
// load balancer's probes.

/**
 * Tells the request log which route answered and for whom (request-log.ts): the route's pattern,
 * so a log line or a metric never carries an id from the path.
 */
export function noteRoute(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const incoming = c.env?.incoming;
    if (!incoming) return;
    const pattern = routePath(c);
    const user = c.get('auth')?.user;
    noteRequest(incoming as never, {
      route: pattern.endsWith('*') ? 'unmatched' : pattern,
      ...(user ? { user: user.publicId } : {}),
    });
  };
}

/**
 * /healthz: the process answers. /readyz: every check passes (200), else 503; the checks'
 * problems go to the log (readiness.ts), not to whoever asks.
 */
export function probeRoutes(readiness: (() => Promise<Readiness>) | undefined) {
  return new Hono<AppEnv>()
    .get('/healthz', (c) => c.json({ data: { status: 'ok' } }))
    .get('/readyz', async (c) => {
      if (!readiness) return c.json({ data: { status: 'ready', checks: {} } });
      const { ready, checks } = await readiness();
      const shown = Object.fromEntries(Object.entries(checks).map(([name, { ok, ms }]) => [name, { ok, ms }]));
      return c.json({ data: { status: ready ? 'ready' : 'not_ready', checks: shown } }, ready ? 200 : 503);
    });
}
