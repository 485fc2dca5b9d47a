import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

// Where Prometheus reads the metrics (issue 25, decision 148): on the public port only with the
// configured bearer token (404 without one, so a deployment that set nothing shows nothing), or on
// METRICS_PORT, a listener of its own for a private address, with /healthz and /readyz beside it.

/** Whether `header` is `Bearer <token>`, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const presented = Buffer.from(/^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

function plain(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(message);
}

async function writeMetrics(res: ServerResponse, registry: Registry): Promise<void> {
  const body = await registry.metrics();
  res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
  res.end(body);
}

/** `GET /metrics` on the public port. */
export function answerPublicMetrics(
  req: IncomingMessage,
  res: ServerResponse,
  registry: Registry,
  token: string | undefined,
): Promise<void> {
  if (!token) {
    plain(res, 404, 'Not found.');
    return Promise.resolve();
  }
  if (req.method !== 'GET') {
    plain(res, 405, 'Only GET.', { Allow: 'GET' });
    return Promise.resolve();
  }
  if (!bearerMatches(req.headers.authorization, token)) {
    plain(res, 401, 'The metrics need the configured token: Authorization: Bearer <METRICS_TOKEN>.', {
      'WWW-Authenticate': 'Bearer realm="metrics"',
    });
    return Promise.resolve();
  }
  return writeMetrics(res, registry);
}

export interface MetricsServerOptions {
  host: string;
  port: number;
  registry: Registry;
  /** The API, for /healthz and /readyz: the same answers the public port gives. */
  api: (req: IncomingMessage, res: ServerResponse) => unknown;
  onError(error: unknown): void;
}

/** The private listener: /metrics without a token, the probes, and nothing else. */
export async function startMetricsServer({ host, port, registry, api, onError }: MetricsServerOptions) {
  const server: Server = createServer((req, res) => {
    const pathname = (req.url ?? '/').split('?', 1)[0];
    if (pathname === '/metrics' && req.method === 'GET') {
      writeMetrics(res, registry).catch((error: unknown) => {
        onError(error);
        if (!res.headersSent) plain(res, 500, 'The metrics could not be collected.');
      });
      return;
    }
    if (pathname === '/healthz' || pathname === '/readyz') {
      api(req, res);
      return;
    }
    plain(res, 404, 'Only /metrics, /healthz and /readyz here.');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

/** METRICS_PORT's listener and its URL, when the configuration asks for one. */
export async function startConfiguredMetricsServer(
  config: { METRICS_PORT?: number | undefined; METRICS_HOST: string },
  parts: Omit<MetricsServerOptions, 'host' | 'port'>,
): Promise<{ server: Server; url: string } | undefined> {
  if (config.METRICS_PORT === undefined) return undefined;
  const server = await startMetricsServer({ ...parts, host: config.METRICS_HOST, port: config.METRICS_PORT });
  const { port } = server.address() as AddressInfo;
  const host = config.METRICS_HOST.includes(':') ? `[${config.METRICS_HOST}]` : config.METRICS_HOST;
  return { server, url: `http://${host}:${port}` };
}
