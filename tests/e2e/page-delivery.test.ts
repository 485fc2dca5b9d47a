import { readdirSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locales, localizePath } from '../../src/lib/shared/i18n/locales.ts';
import { startServer } from './harness.ts';

// How pages leave the built server (issue 23): no cookie a visitor does not need (decision 139),
// pages rendered per request compressed as they stream (decision 140), canonical and language
// links absolute from the configured origin (decision 141), and the calculator's currency button
// named with the code it shows (decision 142). Plain HTTP, as a crawler or a first visit sees it.

const ORIGIN = 'https://coinfair.example';
const HOST = new URL(ORIGIN).host;
const CLIENT_DIR = join(import.meta.dirname, '..', '..', 'build', 'client');
/** A token the browser already holds, so pages that show one render the same bytes twice. */
const HELD_TOKEN = 't'.repeat(43);

let server: Awaited<ReturnType<typeof startServer>>;
let offerPath = '';
beforeAll(async () => {
  server = await startServer({ PUBLIC_ORIGIN: ORIGIN });
  const offer = server.row<{ hash: string }>("SELECT hash FROM offers WHERE type = 'sell' LIMIT 1");
  expect(offer, 'the demo data has an offer').toBeDefined();
  offerPath = `/offers/${offer?.hash}`;
});
afterAll(() => server.stop());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as sent: node:http, unlike fetch(), decodes nothing. */
  body: Buffer;
}

function get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: HOST, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const varyOf = (answer: Answer) => String(answer.headers.vary ?? '').toLowerCase();

/** Every prerendered page of the build: `build/client/de/fees/index.html` → `/de/fees`. */
function prerenderedPages(dir = CLIENT_DIR): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'dist' ? [] : prerenderedPages(path);
    if (name !== 'index.html') return [];
    const page = dir.slice(CLIENT_DIR.length);
    return [page === '' ? '/' : page];
  });
}

describe('no cookie for a visitor without one (decision 139)', () => {
  const pages = () => ['/', '/fees', '/de/vendors', '/buy-bitcoin', '/sell-tether', '/de/buy-bitcoin', offerPath];

  it('static pages, listings, the calculator and an offer set none', async () => {
    for (const path of [...pages(), '/calculator/btc-to-usd']) {
      const answer = await get(path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers['set-cookie'], path).toBeUndefined();
    }
  });

  it('a page whose form posts without JavaScript sets the token it printed', async () => {
    const answer = await get('/login');
    const cookie = [answer.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('XSRF-TOKEN='));
    const token = /XSRF-TOKEN=([^;]+)/.exec(cookie ?? '')?.[1];
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(answer.body.toString()).toContain(`name="csrf" value="${token}"`);
  });

  it('a browser that holds a token is given no new one', async () => {
    const answer = await get('/login', { cookie: `XSRF-TOKEN=${HELD_TOKEN}` });
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect(answer.body.toString()).toContain(`name="csrf" value="${HELD_TOKEN}"`);
  });
});

describe('pages rendered per request, compressed (decision 140)', () => {
  const pages = () => ['/buy-bitcoin', '/calculator/btc-to-usd', offerPath, '/login'];
  const held = { cookie: `XSRF-TOKEN=${HELD_TOKEN}` };

  it.each([
    ['br', 'br', brotliDecompressSync],
    ['gzip', 'gzip, deflate', gunzipSync],
    ['br over gzip', 'gzip;q=0.5, br', brotliDecompressSync],
  ] as const)('%s', async (_name, acceptEncoding, decode) => {
    for (const path of pages()) {
      const plain = await get(path, held);
      const packed = await get(path, { ...held, 'accept-encoding': acceptEncoding });
      const encoding = acceptEncoding.includes('br') ? 'br' : 'gzip';
      expect(packed.headers['content-encoding'], path).toBe(encoding);
      expect(varyOf(packed), path).toContain('accept-encoding');
      expect(packed.headers['content-length'], path).toBeUndefined();
      expect(packed.body.length, path).toBeLessThan(plain.body.length / 3);
      const html = decode(packed.body).toString();
      expect(html.toLowerCase().startsWith('<!doctype html>'), path).toBe(true);
      // The same page: only live figures (prices, times) may differ between two renders.
      const shape = (text: string) => text.replace(/\d/g, '0');
      expect(shape(html).length, path).toBe(shape(plain.body.toString()).length);
    }
  });

  it.each([
    ['no Accept-Encoding', {}],
    ['identity only', { 'accept-encoding': 'identity' }],
    ['both refused', { 'accept-encoding': 'br;q=0, gzip;q=0' }],
  ])('identity with %s, still varying by it', async (_name, headers) => {
    for (const path of pages()) {
      const answer = await get(path, { ...held, ...headers });
      expect(answer.headers['content-encoding'], path).toBeUndefined();
      expect(varyOf(answer), path).toContain('accept-encoding');
      expect(answer.body.toString().toLowerCase().startsWith('<!doctype html>'), path).toBe(true);
    }
  });

  it('a redirect, tiny, goes as it is', async () => {
    const answer = await get('/buy-bitcoin?amount=5', { 'accept-encoding': 'br' });
    expect(answer.status).toBe(301);
    expect(answer.headers['content-encoding']).toBeUndefined();
  });

  it('static pages and built assets come once compressed, from their variants', async () => {
    const html = (await get('/')).body.toString();
    const script = /src="(\/dist\/[^"]+\.js)"/.exec(html)?.[1] ?? '';
    const css = /href="(\/dist\/[^"]+\.css)"/.exec(html)?.[1] ?? '';
    for (const path of ['/', '/de/fees', script, css]) {
      const plain = await get(path);
      for (const [encoding, decode] of [
        ['br', brotliDecompressSync],
        ['gzip', gunzipSync],
      ] as const) {
        // The first answer for a page may precede its variants (made once its origin is in).
        await expect
          .poll(async () => (await get(path, { 'accept-encoding': encoding })).headers['content-encoding'])
          .toBe(encoding);
        const packed = await get(path, { 'accept-encoding': encoding });
        expect(varyOf(packed), path).toBe('accept-encoding');
        expect(decode(packed.body).equals(plain.body), `${path} ${encoding}`).toBe(true);
      }
    }
  });
});

/** The canonical and language links of a page, as `rel hreflang href`. */
function headLinks(html: string): { canonical: string[]; alternates: string[] } {
  const canonical = [...html.matchAll(/<link rel="canonical" href="([^"]*)"/g)].map((m) => m[1] ?? '');
  const alternates = [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]*)"/g)].map(
    (m) => `${m[1]} ${m[2]}`,
  );
  return { canonical, alternates };
}

describe('canonical and language links from the configured origin (decision 141)', () => {
  it('every indexable page, prerendered or rendered per request, links absolutely; noindex pages link none', async () => {
    const pages = [...prerenderedPages(), '/buy-bitcoin', '/de/sell-tether', '/calculator/btc-to-usd', offerPath];
    expect(pages.length).toBeGreaterThan(100);
    let indexable = 0;
    for (const path of pages) {
      const answer = await get(path);
      if (answer.status !== 200) continue;
      const html = answer.body.toString();
      expect(html, path).not.toContain('prerendered-origin.invalid');
      const { canonical, alternates } = headLinks(html);
      if (/<meta name="robots" content="noindex"/.test(html)) {
        expect([...canonical, ...alternates], path).toEqual([]);
        continue;
      }
      indexable++;
      const samePath = path.length > 1 ? path.replace(/\/+$/, '') : path;
      expect(canonical, path).toHaveLength(1);
      expect(canonical[0]?.replace(/\/$/, ''), path).toBe(`${ORIGIN}${samePath}`.replace(/\/$/, ''));
      expect(alternates, path).toHaveLength(locales.length + 1);
      for (const alternate of alternates) expect(alternate.split(' ')[1], path).toMatch(new RegExp(`^${ORIGIN}/`));
    }
    expect(indexable).toBeGreaterThan(100);
  });

  it('names each language’s address of the page', async () => {
    const { alternates } = headLinks((await get('/fees')).body.toString());
    expect(alternates).toContain(`de ${ORIGIN}/de/fees`);
    expect(alternates).toContain(`nb ${ORIGIN}/no/fees`);
    expect(alternates).toContain(`x-default ${ORIGIN}/fees`);
    const listing = headLinks((await get('/he/buy-bitcoin')).body.toString());
    expect(listing.canonical).toEqual([`${ORIGIN}/he/buy-bitcoin`]);
  });

  it('a page that asks not to be indexed links none (sign-in)', async () => {
    const html = (await get('/login')).body.toString();
    expect(html).toContain('<meta name="robots" content="noindex"');
    expect(headLinks(html)).toEqual({ canonical: [], alternates: [] });
  });

  it('the build itself holds no origin, only the placeholder the server fills', () => {
    const built = readFileSync(join(CLIENT_DIR, 'fees', 'index.html'), 'utf8');
    expect(headLinks(built).canonical).toEqual(['https://prerendered-origin.invalid/fees']);
  });
});

describe('the calculator’s currency button (decision 142)', () => {
  it.each(locales)('its name starts with the code it shows, in %s', async (locale) => {
    const html = (await get(localizePath(locale, '/calculator/btc-to-usd'))).body.toString();
    const summary =
      /<summary class="calc-picker-button" aria-label="([^"]+)">\s*<span class="calc-picker-code"[^>]*>([^<]+)<\/span>/.exec(
        html,
      );
    const [, name = '', visible = ''] = summary ?? [];
    expect(visible.trim()).toBe('USD');
    expect(name.startsWith(visible.trim()), `${locale}: "${name}"`).toBe(true);
    expect(name.length).toBeGreaterThan(visible.length + 3);
  });
});
