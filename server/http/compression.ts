import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { type BrotliCompress, constants, createBrotliCompress, createGzip, type Gzip } from 'node:zlib';
import { preferredEncoding } from './content-encoding.ts';

// Pages rendered per request (the listing, the calculator, an offer, sign-in) compressed as they
// are sent, br or gzip by the request's Accept-Encoding (decision 140). Static files carry their
// own variants (static-files.ts) and the API's JSON answers are small; main.ts wraps only the
// answers Astro renders, in this one place, so no route compresses on its own.
//
// Brotli at quality 4: on an 86 KB page it takes ~4 ms for 13.6 KB, where gzip (level 6) takes
// ~2 ms for 14.8 KB, quality 5 ~6 ms for 12.7 KB and quality 11 ~220 ms for 11.3 KB. A page
// rendered for one request pays it on every answer: 4 buys most of brotli's gain over gzip for
// about twice gzip's time. What is written is flushed at the end of each turn of the event loop,
// so a page's first bytes still leave before its last are rendered.

export const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;
/** Below this a compressed answer saves less than its headers and the work cost. */
export const MIN_COMPRESSED_BYTES = 1024;
/** Text formats; images, fonts, archives and media are compressed already. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml|manifest\+json)|image\/svg\+xml)/i;

type Encoding = 'br' | 'gzip';
type WriteCallback = (error?: Error | null) => void;

function addVary(res: ServerResponse): void {
  const vary = res.getHeader('Vary');
  const values = (Array.isArray(vary) ? vary.join(',') : String(vary ?? '')).toLowerCase();
  if (values.includes('accept-encoding') || values.includes('*')) return;
  res.setHeader('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

/** Whether the head now on `res` describes a body worth compressing. */
function compressible(res: ServerResponse, status: number): boolean {
  if (status < 200 || status === 204 || status === 304) return false;
  if (res.hasHeader('Content-Encoding')) return false;
  if (!COMPRESSIBLE.test(String(res.getHeader('Content-Type') ?? ''))) return false;
  const length = res.getHeader('Content-Length');
  return length === undefined || Number(length) >= MIN_COMPRESSED_BYTES;
}

function compressor(encoding: Encoding): BrotliCompress | Gzip {
  return encoding === 'br'
    ? createBrotliCompress({
        params: {
          [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      })
    : createGzip({ level: GZIP_LEVEL });
}

/** The compressor's output written through the response's own `write` and `end`, with back-pressure both ways. */
function pipeToResponse(
  compressed: BrotliCompress | Gzip,
  res: ServerResponse,
  write: (...args: unknown[]) => boolean,
  end: (...args: unknown[]) => ServerResponse,
): void {
  compressed.on('data', (chunk: Buffer) => {
    if (!write.call(res, chunk)) {
      compressed.pause();
      res.once('drain', () => compressed.resume());
    }
  });
  compressed.on('end', () => end.call(res));
  compressed.on('error', (error) => res.destroy(error));
  // A writer waiting for 'drain' after a full compressor hears it from the response, as it would uncompressed.
  compressed.on('drain', () => res.emit('drain'));
  res.once('close', () => compressed.destroy());
}

/** Flushes what the compressor holds at the end of this turn of the event loop, once per turn. */
function flusher(current: () => BrotliCompress | Gzip | undefined, encoding: Encoding | undefined): () => void {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    setImmediate(() => {
      queued = false;
      const stream = current();
      if (!stream || stream.writableEnded || stream.destroyed) return;
      if (encoding === 'gzip') stream.flush(constants.Z_SYNC_FLUSH);
      else stream.flush();
    });
  };
}

/**
 * Makes `res` compress what is written to it when the request accepts br or gzip and the answer is
 * text of some size without an encoding of its own. The head is held until the first write or the
 * end: an answer ended at once with a body under 1 KB (a redirect, a small error) goes as it is.
 */
export function compressAnswer(req: IncomingMessage, res: ServerResponse): void {
  if (req.method === 'HEAD') return;
  const encoding = preferredEncoding(req.headers['accept-encoding']);
  const writeHead = res.writeHead;
  // The response's own, before they are replaced below.
  const write = res.write as (...args: unknown[]) => boolean;
  const end = res.end as (...args: unknown[]) => ServerResponse;
  let pendingStatus: number | undefined;
  let stream: BrotliCompress | Gzip | undefined;

  /** Sends the held head; starts the compressor when the answer is to be compressed. */
  const commit = (bodyBytes: number | undefined) => {
    if (pendingStatus === undefined) return;
    const status = pendingStatus;
    pendingStatus = undefined;
    if (compressible(res, status)) {
      addVary(res);
      const worthIt = bodyBytes === undefined || bodyBytes >= MIN_COMPRESSED_BYTES;
      if (encoding && worthIt) {
        res.removeHeader('Content-Length');
        res.setHeader('Content-Encoding', encoding);
        stream = compressor(encoding);
        pipeToResponse(stream, res, write, end);
      }
    }
    writeHead.call(res, status);
  };

  const flushSoon = flusher(() => stream, encoding);

  res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    // (status, headers) or (status, statusMessage, headers): the headers go on the response now,
    // the head itself once the body's size is known.
    const headers = rest.find((arg) => typeof arg === 'object' && arg !== null) as OutgoingHttpHeaders | undefined;
    const message = rest.find((arg) => typeof arg === 'string') as string | undefined;
    if (message !== undefined) res.statusMessage = message;
    if (headers)
      for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
    pendingStatus = status;
    return res;
  } as ServerResponse['writeHead'];

  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]): boolean {
    if (pendingStatus === undefined && !res.headersSent) pendingStatus = res.statusCode;
    commit(undefined);
    if (!stream) return write.call(res, chunk, ...rest);
    const callback = rest.find((arg) => typeof arg === 'function') as WriteCallback | undefined;
    const ok = stream.write(chunk as Buffer | string, callback);
    flushSoon();
    return ok;
  } as ServerResponse['write'];

  res.end = function (this: ServerResponse, ...args: unknown[]): ServerResponse {
    const callback = args.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    const chunk = typeof args[0] === 'function' ? undefined : (args[0] as Buffer | string | undefined);
    if (pendingStatus === undefined && !res.headersSent) pendingStatus = res.statusCode;
    commit(chunk === undefined || chunk === null ? 0 : Buffer.byteLength(chunk));
    if (!stream) return end.call(res, ...args);
    if (callback) res.once('finish', callback);
    if (chunk === undefined || chunk === null) stream.end();
    else stream.end(chunk);
    return res;
  } as ServerResponse['end'];
}
