import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isApiPath } from './app.ts';
import { type Backend, consoleLogger, createBackend, type Logger } from './backend.ts';
import { type Config, ConfigError, readConfig } from './config.ts';
import { compressAnswer } from './http/compression.ts';
import { pageBodyRefusal } from './http/page-body.ts';
import { createStaticFiles } from './http/static-files.ts';
import { hostRefusal, STRICT_TRANSPORT_SECURITY } from './http/transport.ts';

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
  log?: Logger;
}

export interface RunningServer {
  server: Server;
  url: string;
  /** The backend's bus and services, for the browser tests' harness (tests/e2e/harness.ts). */
  backend: Pick<Backend, 'bus' | 'services'>;
  stop(): Promise<void>;
}

async function loadAstroHandler(buildDir: string): Promise<AstroHandler> {
  const entry = await import(pathToFileURL(join(buildDir, 'server', 'entry.mjs')).href);
  return entry.handler as AstroHandler;
}

export async function startServer({
  config,
  buildDir,
  migrationsFolder,
  log = consoleLogger,
}: StartOptions): Promise<RunningServer> {
  const backend = await createBackend({
    config,
    migrationsFolder: migrationsFolder ?? join(buildDir, 'migrations'),
    log,
  });
  const { api, hub, secureCookies, pageLocals } = backend;
  const { siteOrigin } = backend.services;
  // Prerendered pages get the configured origin in their canonical and language links (decision 141).
  const staticFiles = createStaticFiles(join(buildDir, 'client'), { origin: () => siteOrigin.origin });
  const astro = await loadAstroHandler(buildDir);

  // Prerendered pages set no cookie (issue 16): they stay cacheable by shared caches. The CSRF
  // cookie comes with the first API answer or a page rendered per request whose form needs it
  // (src/middleware.ts, decision 139).
  const { track, settled } = inFlight();
  const server = createServer((req, res) => {
    const pathname = (req.url ?? '/').split('?', 1)[0] ?? '/';
    if (secureCookies) res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    const wrongHost = hostRefusal(req.headers.host, pathname, siteOrigin);
    if (wrongHost) return refuse(res, wrongHost);
    if (isApiPath(pathname)) {
      track(api(req, res));
      return;
    }
    if (staticFiles.serve(req, res)) return;
    const tooLarge = pageBodyRefusal(req.method, req.headers);
    if (tooLarge) return refuse(res, tooLarge);
    // Pages rendered per request, compressed as they stream (decision 140); static files came
    // with their variants above.
    compressAnswer(req, res);
    track(
      Promise.resolve(astro(req, res, undefined, pageLocals(req))).catch((error) => {
        log.error('page render failed', error);
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Something went wrong on our side. Please try again.');
      }),
    );
  });
  server.on('upgrade', (req, socket, head) => {
    if (hostRefusal(req.headers.host, '/ws', siteOrigin) || !hub.handleUpgrade(req, socket, head)) socket.destroy();
  });
  server.keepAliveTimeout = 65_000;

  const { url, port } = await listen(server, config);
  // PORT=0 (tests) binds a free port: links in mail point to it from now on.
  siteOrigin.listeningOn(port);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      // close() stops accepting and resolves once in-flight requests have finished.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Upgraded sockets would hold close() open: say goodbye to them first.
      await hub.close();
      await closed;
      await settled();
      await backend.stop();
    })();
    return stopping;
  };

  return { server, url, backend, stop };
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
  let running: RunningServer;
  try {
    running = await startServer({ config, buildDir });
  } catch (error) {
    const problem = listenProblem(error, config);
    if (!problem) throw error;
    console.error(problem);
    process.exit(1);
  }
  consoleLogger.info(
    `Coinfair is listening on ${running.url} (ready in ${Math.round(performance.now() - startedAt)} ms)`,
  );

  const shutdown = (signal: string) => {
    consoleLogger.info(`${signal}: finishing in-flight requests…`);
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
