import { createServer, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBrotliDecompress, createGunzip, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { compressAnswer, MIN_COMPRESSED_BYTES } from '../../server/http/compression.ts';

// server/http/compression.ts on a real node:http server (decision 140): what it compresses, what
// it leaves alone, and that a page's first part arrives before its last is written.

const PAGE = `<!doctype html><html><body>${'<p>Offer row, the same words again.</p>'.repeat(200)}</body></html>`;

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server whose every answer goes through compressAnswer, then `handler`. */
async function serve(handler: (res: ServerResponse) => void): Promise<number> {
  server = createServer((req, res) => {
    compressAnswer(req, res);
    handler(res);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  decoded: string;
}

function get(port: number, headers: Record<string, string>, method = 'GET'): Promise<Received> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      const encoding = res.headers['content-encoding'];
      const decoder = encoding === 'br' ? createBrotliDecompress() : encoding === 'gzip' ? createGunzip() : undefined;
      const decodedChunks: Buffer[] = [];
      decoder?.on('data', (chunk: Buffer) => decodedChunks.push(chunk));
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        decoder?.write(chunk);
      });
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        if (!decoder) return resolve({ headers: res.headers, body, decoded: body.toString() });
        decoder.end(() => resolve({ headers: res.headers, body, decoded: Buffer.concat(decodedChunks).toString() }));
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const html = (res: ServerResponse) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });

describe('compressAnswer', () => {
  it.each([
    ['br', 'br'],
    ['gzip, deflate', 'gzip'],
  ])('compresses a page for Accept-Encoding %s', async (accept, encoding) => {
    const port = await serve((res) => {
      html(res);
      res.write(PAGE.slice(0, 1000));
      res.end(PAGE.slice(1000));
    });
    const answer = await get(port, { 'accept-encoding': accept });
    expect(answer.headers['content-encoding']).toBe(encoding);
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(answer.body.length).toBeLessThan(PAGE.length / 10);
    expect(answer.decoded).toBe(PAGE);
  });

  it('sends identity when neither is accepted, still saying it varies', async () => {
    const port = await serve((res) => {
      html(res);
      res.end(PAGE);
    });
    const choices: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
    ];
    for (const headers of choices) {
      const answer = await get(port, headers);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers.vary).toBe('Accept-Encoding');
      expect(answer.decoded).toBe(PAGE);
    }
  });

  it('leaves alone a tiny body, an image, an answer already encoded and a HEAD', async () => {
    const tiny = 'x'.repeat(MIN_COMPRESSED_BYTES - 1);
    const encoded = gzipSync(PAGE);
    const answers: Record<string, (res: ServerResponse) => void> = {
      '/tiny': (res) => {
        html(res);
        res.end(tiny);
      },
      '/image': (res) => {
        res.writeHead(200, { 'Content-Type': 'image/png' });
        res.end(Buffer.alloc(5000));
      },
      '/encoded': (res) => {
        res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' });
        res.end(encoded);
      },
    };
    let path = '';
    const port = await serve((res) => answers[path]?.(res));
    for (const name of Object.keys(answers)) {
      path = name;
      const answer = await get(port, { 'accept-encoding': 'br, gzip' });
      if (name === '/encoded') {
        // Sent once compressed, as the handler made it.
        expect(answer.headers['content-encoding'], name).toBe('gzip');
        expect(answer.body.equals(encoded), name).toBe(true);
      } else {
        expect(answer.headers['content-encoding'], name).toBeUndefined();
        expect(answer.body.length, name).toBe(name === '/tiny' ? tiny.length : 5000);
      }
    }
    path = '/tiny';
    const head = await get(port, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-encoding']).toBeUndefined();
  });

  it('sends what was written before the rest is written (streaming kept)', async () => {
    let firstPartArrived: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      firstPartArrived = resolve;
    });
    const port = await serve((res) => {
      html(res);
      res.write(PAGE.slice(0, 2000));
      // The rest only once the client has decoded the first part: without a flush it never would.
      void arrived.then(() => res.end(PAGE.slice(2000)));
    });
    const answer = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, headers: { 'accept-encoding': 'br' } }, (res) => {
        const decoder = createBrotliDecompress();
        let text = '';
        decoder.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.length >= 2000) firstPartArrived();
        });
        decoder.on('end', () => resolve(text));
        res.pipe(decoder);
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer).toBe(PAGE);
  });
});
