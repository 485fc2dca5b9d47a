import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServer } from './harness.ts';

// The built server as `npm start` runs it: one port for pages, assets, API and realtime.

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer({ PRICE_TICK_SECONDS: '1' });
});
afterAll(() => server.stop());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });

describe('pages and assets', () => {
  it('serves the prerendered home page without a cookie (shared caches may keep it) and with an ETag', async () => {
    const res = await get('/', { 'accept-encoding': 'identity' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect(res.headers.get('set-cookie')).toBeNull();
    // No prerendered page of any language sets one.
    for (const path of ['/de/', '/about', '/fees', '/he/vendors']) {
      expect((await get(path)).headers.get('set-cookie'), path).toBeNull();
    }
    // The first API answer brings the CSRF token a script needs before it changes something.
    const token = await get('/rest/v1/csrf-token');
    expect(token.status).toBe(204);
    expect(token.headers.get('set-cookie')).toMatch(/^XSRF-TOKEN=[\w-]{43}; Path=\/; SameSite=Lax$/);
    const html = await res.text();
    expect(html).toContain('<html lang="en"');
    const again = await get('/', { 'if-none-match': res.headers.get('etag') ?? '' });
    expect(again.status).toBe(304);
  });

  it('sends brotli or gzip when the browser takes it', async () => {
    const br = await get('/', { 'accept-encoding': 'gzip, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    expect(await br.text()).toContain('</html>');
    const gzip = await get('/', { 'accept-encoding': 'gzip' });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
  });

  it('serves every language under its prefix, Hebrew right-to-left', async () => {
    const de = await (await get('/de/')).text();
    expect(de).toContain('<html lang="de"');
    const he = await (await get('/he/')).text();
    expect(he).toMatch(/<html lang="he"[^>]*dir="rtl"/);
  });

  it('marks /dist/ assets immutable for a year', async () => {
    const html = await (await get('/')).text();
    const asset = /(?:href|src)="(\/dist\/[^"]+)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const res = await get(asset as string);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const head = await fetch(`${server.url}${asset}`, { method: 'HEAD' });
    expect(head.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('refuses a page form over its limit before reading it, and a body without a declared length', async () => {
    const big = await fetch(`${server.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'x'.repeat(65 * 1024),
    });
    expect(big.status).toBe(413);
    const streamed = await fetch(`${server.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('email=a'));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(411);
  });

  it("sends a visitor from each signed-in page to sign-in in the page's language, and back to the page", async () => {
    const offer = server.row<{ hash: string }>(
      `SELECT o.hash FROM offers o JOIN payment_methods pm ON pm.id = o.payment_method_id
       JOIN payment_groups pg ON pg.id = pm.group_id WHERE o.type = 'sell' AND pg.slug = 'gift-cards' LIMIT 1`,
    )?.hash;
    const pages = [
      ...['/wallet', '/settings', '/trades', '/notifications', '/affiliates', '/kiosk', '/bank-accounts'],
      ...['/gift-cards', '/webhooks', '/my-offers', '/offers/new', '/vendor-terms', '/verification'],
      ...['/verification/review', '/moderation/disputes', '/admin', '/admin/trades', '/admin/sendouts'],
      ...['/admin/ledger', '/admin/fees', '/admin/audit', '/trade/AbCdEf123456'],
      ...[`/offers/${offer}/edit`, `/offers/${offer}/gift-code-trade`, '/de/wallet?tab=history'],
    ];
    for (const page of pages) {
      const res = await fetch(`${server.url}${page}`, { redirect: 'manual' });
      const login = page.startsWith('/de/') ? '/de/login' : '/login';
      expect([page, res.status, res.headers.get('location')]).toEqual([
        page,
        303,
        `${login}?back=${encodeURIComponent(page)}`,
      ]);
    }
  });

  it('answers unknown pages with a 404 page and refuses path traversal', async () => {
    const res = await get('/no/such/page');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/html');
    const traversal = await get('/dist/..%2f..%2fpackage.json');
    expect(traversal.status).toBe(404);
  });
});

describe('API and realtime on the same port', () => {
  it('answers the reference API', async () => {
    const res = await get('/rest/v1/currencies/USD');
    expect(res.status).toBe(200);
    expect((await res.json()).data.code).toBe('USD');
    expect((await get('/healthz')).status).toBe(200);
  });

  it('streams live prices on the public rates channel', async () => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const frames: any[] = [];
    const tick = new Promise<any>((resolve) => {
      ws.on('message', (data) => {
        const frame = JSON.parse(data.toString());
        frames.push(frame);
        if (frame.type === 'event') resolve(frame);
      });
    });
    ws.send(JSON.stringify({ type: 'subscribe', channel: 'rates' }));
    const event = await tick;
    expect(frames[0]).toEqual({ type: 'subscribed', channel: 'rates' });
    expect(event.channel).toBe('rates');
    expect(event.event.payload.usd.BTC).toBeGreaterThan(1000);
    ws.close();
  });
});
