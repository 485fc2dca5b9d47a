import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSession } from '../support/browser-session.ts';
import { createTestApp, TEST_ORIGIN } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';

// In production the app answers through @hono/node-server, where the API headers are added as the
// head is written (apiHeaders in server/app.ts); app.request and the pages' in-process calls go
// through Hono alone. Both ways must give the same answer: status, headers and body.

const t = await createTestApp();
const server = createServer(getRequestListener(t.app.fetch));
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

// Connection-level headers differ by nature; a freshly issued CSRF token differs by design.
const CONNECTION = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
const answer = async (res: Response) => ({
  status: res.status,
  headers: [...res.headers]
    .filter(([name]) => !CONNECTION.has(name))
    .map(([name, value]) => `${name}: ${value.replace(/XSRF-TOKEN=[\w-]{43}/, 'XSRF-TOKEN=<new>')}`)
    .sort(),
  body: await res.text(),
});

async function bothWays(path: string, init: RequestInit = {}) {
  const inProcess = await t.app.request(`${TEST_ORIGIN}${path}`, init, {
    incoming: { socket: { remoteAddress: '127.0.0.1' } },
  });
  const overHttp = await fetch(`${base}${path}`, init);
  return { inProcess: await answer(inProcess), overHttp: await answer(overHttp) };
}

describe('answers through @hono/node-server', () => {
  it('carry the same headers as in-process answers', async () => {
    const cases: [string, RequestInit?][] = [
      ['/rest/v1/timezones'],
      ['/rest/v1/timezones', { headers: { cookie: `XSRF-TOKEN=${'A'.repeat(43)}` } }],
      ['/rest/v1/no-such-thing'],
      ['/rest/v1/users/me'],
      ['/rest/v1/cookie-policy', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }],
    ];
    for (const [path, init] of cases) {
      const { inProcess, overHttp } = await bothWays(path, init);
      expect(overHttp).toEqual(inProcess);
      expect(overHttp.headers).toContain('x-content-type-options: nosniff');
    }
  });

  it('keep a signed-in answer the same', async () => {
    const b = browserSession(t);
    expect(
      (await b.post('/rest/v1/auth/login', { email: (await createUser(t)).email, password: 'Coinfair-demo-2026!' }))
        .status,
    ).toBe(200);
    const cookie = [...b.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const { inProcess, overHttp } = await bothWays('/rest/v1/users/me', { headers: { cookie } });
    expect(inProcess.status).toBe(200);
    expect(overHttp).toEqual(inProcess);
    expect(overHttp.headers).toContain('cache-control: no-store');
  });

  it('keep a route’s own Cache-Control', async () => {
    const b = browserSession(t);
    expect(
      (await b.post('/rest/v1/auth/login', { email: (await createUser(t)).email, password: 'Coinfair-demo-2026!' }))
        .status,
    ).toBe(200);
    const image = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#16a085' } })
      .jpeg()
      .toBuffer();
    const body = new FormData();
    body.append('file', new File([new Uint8Array(image)], 'avatar.jpg', { type: 'image/jpeg' }));
    const upload = await b.send('/rest/v1/users/avatar-upload', { method: 'POST', body });
    const { fileUrl } = (await upload.json()).data;
    const { url } = (await (await b.post('/rest/v1/users/process-avatar', { fileUrl })).json()).data;
    const { inProcess, overHttp } = await bothWays(url);
    expect(inProcess.status).toBe(200);
    expect(overHttp).toEqual(inProcess);
    expect(overHttp.headers).toContain('cache-control: private, max-age=31536000, immutable');
  });
});
