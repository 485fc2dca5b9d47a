import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLog } from '../../server/observability/log.ts';
import { startServer } from './harness.ts';

// What an operator sees of the built server (issue 25): a log line per request with its id and
// route pattern, Prometheus metrics behind a token on the public port and without one on
// METRICS_PORT, and the readiness probe.

const TOKEN = 'metrics-token-for-the-browser-suite-0123';
const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
    done();
  },
});

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer(
    { METRICS_TOKEN: TOKEN, METRICS_PORT: '0' },
    { logs: createLog({ level: 'info', format: 'json', destination: sink }) },
  );
});
afterAll(() => server.stop());

const requestLine = (id: string | null) => lines.find((line) => line.msg === 'request' && line.requestId === id);
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('the request log of the built server', () => {
  it('names the route of a static page, an API call and a page rendered per request', async () => {
    for (const [path, route] of [
      ['/about', 'static'],
      ['/rest/v1/offers?type=buy&currency=USD', '/rest/v1/offers'],
      ['/login', '/[...locale]/login'],
      ['/rest/v1/no-such-thing', 'unmatched'],
    ] as const) {
      const res = await fetch(`${server.url}${path}`);
      await res.arrayBuffer();
      await settle();
      const id = res.headers.get('x-request-id');
      expect(id, path).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
      expect(requestLine(id), path).toMatchObject({ method: 'GET', route, status: res.status });
    }
  });
});

describe('/metrics', () => {
  it('on the public port, only with the configured token', async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${server.url}/metrics`, {
      headers: { authorization: 'Bearer not-the-token-0000000000000' },
    });
    expect(wrong.status).toBe(401);
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toMatch(
      /coinfair_http_request_duration_seconds_bucket\{le="[\d.]+",method="GET",route="\/rest\/v1\/offers",status="200"\}/,
    );
    expect(text).toContain('route="static"');
    for (const name of [
      'coinfair_realtime_sockets',
      'coinfair_jobs_leader 1',
      'coinfair_database_latency_seconds',
      'coinfair_sendouts_waiting 0',
      'coinfair_events_published_total',
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(text, name).toContain(name);
    }
    // No raw path, so no id from a path, ever becomes a label.
    expect(text).not.toMatch(/route="\/rest\/v1\/offers\?/);
  });

  it('on METRICS_PORT without a token, beside the probes and nothing else', async () => {
    expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const metrics = await fetch(`${server.metricsUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('coinfair_http_request_duration_seconds');
    expect((await fetch(`${server.metricsUrl}/readyz`)).status).toBe(200);
    expect((await fetch(`${server.metricsUrl}/`)).status).toBe(404);
  });

  it('counts the leader’s job runs by name, with their interval and last success (decision 169)', async () => {
    const read = async () => (await fetch(`${server.metricsUrl}/metrics`)).text();
    const succeeded = 'coinfair_job_last_success_timestamp_seconds{name="webhook-deliveries"}';
    let text = await read();
    for (let i = 0; i < 50 && !text.includes(succeeded); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      text = await read();
    }
    const runs = /^coinfair_job_runs_total\{name="webhook-deliveries"\} (\d+)$/m.exec(text);
    expect(Number(runs?.[1])).toBeGreaterThan(0);
    expect(text).toMatch(/^coinfair_job_failures_total\{name="trade-expiry"\} 0$/m);
    expect(text).toMatch(/^coinfair_job_interval_seconds\{name="trade-expiry"\} 5$/m);
    expect(text).toContain(succeeded);
  });
});

describe('/readyz', () => {
  it('is ready, and shows each check without saying why one failed', async () => {
    const res = await fetch(`${server.url}/readyz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { data } = await res.json();
    expect(data.status).toBe('ready');
    expect(Object.keys(data.checks).sort()).toEqual(['database', 'jobsLeader', 'migrations']);
    for (const check of Object.values(data.checks)) expect(Object.keys(check as object).sort()).toEqual(['ms', 'ok']);
  });
});
