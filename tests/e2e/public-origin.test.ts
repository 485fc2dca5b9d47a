import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServer } from './harness.ts';

// The built server behind a proxy at https://coinfair.example (issue 16, items 1 and 7): every
// answer, pages included, tells browsers to keep to https, and a request naming another host is
// refused before anything reads it.

const PUBLIC_HOST = 'coinfair.example';
let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer({ PUBLIC_ORIGIN: `https://${PUBLIC_HOST}` });
});
afterAll(() => server.stop());

/** fetch() may not set Host; node:http may, as a proxy or an attacker does. */
function get(
  path: string,
  host: string,
  method = 'GET',
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('Strict-Transport-Security on every answer', () => {
  it.each([
    ['a prerendered page', '/'],
    ['a prerendered page in another language', '/de/vendors'],
    ['a page rendered per request', '/login'],
    ['the not-found page', '/no/such/page'],
    ['the API', '/rest/v1/currencies/USD'],
  ])('%s (%s)', async (_what, path) => {
    const res = await get(path, PUBLIC_HOST);
    expect(res.status).toBeLessThan(500);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('a built asset', async () => {
    const html = (await get('/', PUBLIC_HOST)).body;
    const asset = /(?:href|src)="(\/dist\/[^"]+)"/.exec(html)?.[1] ?? '';
    const res = await get(asset, PUBLIC_HOST);
    expect(res.status).toBe(200);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});

describe('a Host other than PUBLIC_ORIGIN’s', () => {
  it.each(['/', '/login', '/rest/v1/users/current_user'])('is refused with 421 on %s', async (path) => {
    const res = await get(path, 'evil.example');
    expect(res.status).toBe(421);
    expect(res.body).toContain(PUBLIC_HOST);
  });

  it('is refused on a password reset request, so no mail is written for it', async () => {
    const res = await get('/rest/v1/auth/forgot-password', 'evil.example', 'POST');
    expect(res.status).toBe(421);
  });

  it('still lets load balancers probe /healthz by address', async () => {
    const res = await get('/healthz', new URL(server.url).host);
    expect(res.status).toBe(200);
  });

  it('cannot open the realtime socket', async () => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, { headers: { host: 'evil.example' } });
    const outcome = await new Promise<string>((resolve) => {
      ws.once('open', () => resolve('open'));
      ws.once('error', () => resolve('refused'));
    });
    expect(outcome).toBe('refused');
  });
});
