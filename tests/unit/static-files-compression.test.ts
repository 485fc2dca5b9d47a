import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../../scripts/precompress.ts';
import { compressionPendingMarker, createStaticFiles } from '../../server/http/static-files.ts';
import { PRERENDERED_ORIGIN } from '../../src/lib/shared/page-origin.ts';

// A first `npm start` serves before its assets are compressed (decision 127): a file read while
// the marker is there goes out whole and is not remembered, so once the variants are written and
// the marker removed, the same file goes out compressed without a restart. An asset: a page's
// variants are made by the server itself, after its origin is put in (decision 141).

let build: string;
let server: Server;
let url: string;
const asset = `${'console.log("A first start serves at once.");\n'.repeat(200)}`;
const page = `<html><head><link rel="canonical" href="${PRERENDERED_ORIGIN}/about"></head><body>${'<p>About us.</p>'.repeat(200)}</body></html>`;

beforeAll(async () => {
  build = mkdtempSync(join(tmpdir(), 'coinfair-static-'));
  mkdirSync(join(build, 'client/dist'), { recursive: true });
  writeFileSync(join(build, 'client/dist/site.js'), asset);
  mkdirSync(join(build, 'client/about'));
  writeFileSync(join(build, 'client/about/index.html'), page);
  writeFileSync(compressionPendingMarker(build), '');
  const files = createStaticFiles(join(build, 'client'), { origin: () => 'https://coinfair.example' });
  server = createServer((req, res) => {
    if (!files.serve(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(build, { recursive: true, force: true });
});

/** The raw response (fetch would decode the body): its Content-Encoding and bytes. */
const get = (path: string) =>
  new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
    const req = request(url + path, { headers: { 'accept-encoding': 'br' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });

describe('static files while a first start compresses', () => {
  it('sends an asset whole while its variants are pending, and compressed once they are written', async () => {
    const before = await get('/dist/site.js');
    expect(before.encoding).toBeUndefined();
    expect(before.body.toString()).toBe(asset);

    await precompress(join(build, 'client'), 'fast', join(build, 'cache'));
    rmSync(compressionPendingMarker(build));

    const after = await get('/dist/site.js');
    expect(after.encoding).toBe('br');
    expect(brotliDecompressSync(after.body).toString()).toBe(asset);
  });

  it('sends a page compressed from its first request, with the configured origin put in', async () => {
    rmSync(compressionPendingMarker(build), { force: true });
    const first = await get('/about/');
    expect(first.encoding).toBe('br');
    const html = brotliDecompressSync(first.body).toString();
    expect(html).toContain('href="https://coinfair.example/about"');
    expect(html).not.toContain(PRERENDERED_ORIGIN);
  });
});
