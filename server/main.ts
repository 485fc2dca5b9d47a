import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger as Pino } from 'pino';
import { isApiPath } from './app.ts';
import { type Backend, createBackend, type Logger } from './backend.ts';
import { type Config, ConfigError, readConfig } from './config.ts';
import { compressAnswer } from './http/compression.ts';
import { pageBodyRefusal } from './http/page-body.ts';
import { createStaticFiles } from './http/static-files.ts';
import { hostRefusal, STRICT_TRANSPORT_SECURITY } from './http/transport.ts';
import { createLog, loggerOf } from './observability/log.ts';
import { answerPublicMetrics, startConfiguredMetricsServer } from './observability/metrics-endpoint.ts';
import { noteRequest, observeRequests } from './observability/request-log.ts';

// One node:http server, three faces (ARCHITECTURE.md): the Hono API, the realtime hub on /ws, and
// the Astro build (prerendered pages and /dist/ assets from memory, SSR pages through its handler).

type AstroHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: undefined,
  locals: App.Locals,
) => void | Promise<void>;

export type { Logger };

export interface StartOptions {
  config: Config;
  /** The folder `npm run build` wrote: client/, server/entry.mjs and migrations/. */
  buildDir: string;
  migrationsFolder?: string;
  /** The structured log (server/observability/log.ts): by default from LOG_LEVEL and LOG_FORMAT, to standard output. */
  logs?: Pino;
  /** Where the backend's own messages go; by default the structured log. */
  log?: Logger;
}

export interface RunningServer {
  server: Server;
  url: string;
  /** METRICS_PORT's listener, when configured (its port is known here when METRICS_PORT=0). */
  metricsUrl: string | undefined;
  /** The backend's bus and services, for the browser tests' harness (tests/e2e/harness.ts). */
  backend: Pick<Backend, 'bus' | 'services'>;
  stop(): Promise<void>;
}

async function loadAstroHandler(buildDir: string): Promise<AstroHandler> {
  const entry = await import(pathToFileURL(join(buildDir, 'server', 'entry.mjs')).href);
  return entry.handler as AstroHandler;
}

/** The structured log a configuration asks for: pretty lines in development unless LOG_FORMAT says. */
export const configuredLog = (config: Config): Pino =>
  createLog({
    level: config.LOG_LEVEL,
    format: config.LOG_FORMAT ?? (config.NODE_ENV === 'development' ? 'pretty' : 'json'),
  });

export async function startServer({
  config,
  buildDir,
  migrationsFolder,
  logs = configuredLog(config),
  log = loggerOf(logs),
}: StartOptions): Promise<RunningServer> {
  const backend = await createBackend({
    config,
    migrationsFolder: migrationsFolder ?? join(buildDir, 'migrations'),
    log,
  });
  const { api, hub } = backend;
  const { siteOrigin } = backend.services;
  // Prerendered pages get the configured origin in their canonical and language links (decision 141).
  const staticFiles = createStaticFiles(join(buildDir, 'client'), { origin: () => siteOrigin.origin });
  const astro = await loadAstroHandler(buildDir);

  const { track, settled } = inFlight();
  const { registry } = backend.metrics;
  const observer = { log: logs, trustProxy: config.TRUST_PROXY === 'on', onFinished: backend.metrics.observeRequest };
  const handler = requestHandler({ backend, config, staticFiles, astro, track, log });
  const server = createServer(observeRequests(observer, handler));
  server.on('upgrade', (req, socket, head) => {
    if (hostRefusal(req.headers.host, '/ws', siteOrigin) || !hub.handleUpgrade(req, socket, head)) socket.destroy();
  });
  server.keepAliveTimeout = 65_000;

  const { url, port } = await listen(server, config);
  // PORT=0 (tests) binds a free port: links in mail point to it from now on.
  siteOrigin.listeningOn(port);
  const metrics = await startConfiguredMetricsServer(config, {
    registry,
    api,
    onError: (error) => log.error('Metrics: could not be collected', error),
  });

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      // close() stops accepting and resolves once in-flight requests have finished.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      metrics?.server.close();
      metrics?.server.closeAllConnections();
      // Upgraded sockets would hold close() open: say goodbye to them first.
      await hub.close();
      await closed;
      await settled();
      await backend.stop();
    })();
    return stopping;
  };

  return { server, url, metricsUrl: metrics?.url, backend, stop };
}

interface RequestHandlerParts {
  backend: Backend;
  config: Config;
  staticFiles: ReturnType<typeof createStaticFiles>;
  astro: AstroHandler;
  track(work: Promise<unknown>): void;
  log: Logger;
}

/**
 * Which face answers: the API, the metrics, a built file, or a page Astro renders. Prerendered pages
 * set no cookie (issue 16): they stay cacheable by shared caches. The CSRF cookie comes with the
 * first API answer or a page rendered per request whose form needs it (src/middleware.ts, decision 139).
 */
function requestHandler({ backend, config, staticFiles, astro, track, log }: RequestHandlerParts) {
  const { api, secureCookies, pageLocals } = backend;
  const { siteOrigin } = backend.services;
  return (req: IncomingMessage, res: ServerResponse): void => {
    const pathname = (req.url ?? '/').split('?', 1)[0] ?? '/';
    if (secureCookies) res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    const wrongHost = hostRefusal(req.headers.host, pathname, siteOrigin);
    if (wrongHost) {
      refuse(res, wrongHost);
      return;
    }
    if (isApiPath(pathname)) {
      track(api(req, res));
      return;
    }
    if (pathname === '/metrics') {
      noteRequest(req, { route: '/metrics' });
      track(answerPublicMetrics(req, res, backend.metrics.registry, config.METRICS_TOKEN));
      return;
    }
    if (staticFiles.serve(req, res)) {
      noteRequest(req, { route: 'static' });
      return;
    }
    const tooLarge = pageBodyRefusal(req.method, req.headers);
    if (tooLarge) {
      refuse(res, tooLarge);
      return;
    }
    // Pages rendered per request, compressed as they stream (decision 140); static files came
    // with their variants above.
    compressAnswer(req, res);
    // The page's own pattern replaces this once Astro has routed it (src/middleware.ts).
    noteRequest(req, { route: 'page' });
    track(
      Promise.resolve(astro(req, res, undefined, pageLocals(req))).catch((error) => {
        log.error('page render failed', error);
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Something went wrong on our side. Please try again.');
      }),
    );
  };
}

/** Plain-text refusals before any handler runs (a wrong Host, a page body over its limit). */
function refuse(res: ServerResponse, refusal: { status: number; message: string }): void {
  res.writeHead(refusal.status, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
  res.end(refusal.message);
}

/** Listens on the configured address; the URL and port it got (PORT=0 binds a free one). */
async function listen(server: Server, config: Pick<Config, 'HOST' | 'PORT'>): Promise<{ url: string; port: number }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { url: `http://${host}:${address.port}`, port: address.port };
}

/**
 * The handlers still running. A connection closes when its client hangs up, not when our handler
 * ends: shutting down waits for them, so the database outlives every request it serves.
 */
function inFlight() {
  const handling = new Set<Promise<unknown>>();
  return {
    track(work: Promise<unknown>) {
      handling.add(work);
      const done = () => handling.delete(work);
      work.then(done, done);
    },
    settled: () => Promise.allSettled([...handling]),
  };
}

/** A listen failure an operator can fix, in one line: which address, and what to do. */
export function listenProblem(error: unknown, config: Pick<Config, 'HOST' | 'PORT'>): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const where = `${config.HOST}:${config.PORT}`;
  if (code === 'EADDRINUSE')
    return `Port ${config.PORT} is already in use on ${config.HOST}: stop the program using it, or choose another port, e.g. PORT=${config.PORT + 1} npm start`;
  if (code === 'EACCES')
    return `Not allowed to listen on ${where} (ports below 1024 need privileges): choose another port, e.g. PORT=4321 npm start`;
  if (code === 'EADDRNOTAVAIL')
    return `HOST=${config.HOST} is not an address of this machine: use 127.0.0.1, 0.0.0.0 (all) or one of its own addresses`;
  return undefined;
}

/** `npm start`: read the environment, start, and stop cleanly on SIGTERM/SIGINT. */
export async function main(buildDir: string): Promise<void> {
  let config: Config;
  try {
    config = readConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const startedAt = performance.now();
  const logs = configuredLog(config);
  const log = loggerOf(logs);
  let running: RunningServer;
  try {
    running = await startServer({ config, buildDir, logs, log });
  } catch (error) {
    const problem = listenProblem(error, config);
    if (!problem) throw error;
    console.error(problem);
    process.exit(1);
  }
  log.info(`Coinfair is listening on ${running.url} (ready in ${Math.round(performance.now() - startedAt)} ms)`);
  // Whoever started us (a supervisor, a script) may wait for that line.
  logs.flush();

  const shutdown = (signal: string) => {
    log.info(`${signal}: finishing in-flight requests…`);
    const force = setTimeout(() => {
      console.error('Shutdown took longer than 10 s; exiting.');
      process.exit(1);
    }, 10_000);
    force.unref();
    running.stop().then(
      () => process.exit(0),
      (error) => {
        console.error('Shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}
