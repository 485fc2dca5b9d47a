import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { PRERENDERED_ORIGIN } from '../../src/lib/shared/page-origin.ts';
import { preferredEncoding } from './content-encoding.ts';
import { pageContentSecurityPolicy } from './content-security-policy.ts';

// Serves the prerendered pages and built assets from memory with the brotli/gzip variants the
// build wrote beside each file. Astro's own static handler streams from disk on every request,
// uncompressed; this keeps a static page as fast as a bare server sending the same bytes.
// Prerendered pages are the exception: they hold a placeholder for the public origin (their
// canonical and language links, src/lib/shared/page-origin.ts, decision 141), so their variants
// are made here, once, after the origin is put in (the build writes none for them), and a page's
// first requests wait for them.

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
  '.mp3': 'audio/mpeg',
};

/** Hashed build assets (spec section 2: the /dist/ base path) never change under one name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=0, must-revalidate';
// The largest is the API reference viewer (/developers/api, 4.8 MB, 1.2 MB as brotli).
const MAX_CACHED_FILE_BYTES = 8 * 1024 * 1024;

interface StaticEntry {
  identity: Buffer;
  /** Pages only: a policy allowing exactly the page's own inline scripts, by hash. */
  contentSecurityPolicy: string | undefined;
  br: Buffer | undefined;
  gzip: Buffer | undefined;
  contentType: string;
  cacheControl: string;
  etag: string;
  isHtml: boolean;
  /** A page whose variants are being made: its first requests wait for them (compressPage). */
  compressing: Promise<void> | undefined;
}

export interface StaticFilesOptions {
  /** The configured public origin (server/site-origin.ts); read at the first request, once the port is known. */
  origin(): string;
}

export interface StaticFiles {
  /** Answers the request when a built file matches; false leaves it to the next handler. */
  serve(req: IncomingMessage, res: ServerResponse, extraHeaders?: (isHtml: boolean) => void): boolean;
}

function readOptional(path: string): Buffer | undefined {
  return existsSync(path) ? readFileSync(path) : undefined;
}

function candidates(pathname: string): string[] {
  if (pathname.endsWith('/')) return [`${pathname}index.html`];
  if (extname(pathname)) return [pathname];
  return [`${pathname}/index.html`, `${pathname}.html`];
}

/** The built file answering `pathname` under `root`, read with its variants; null when none or too large. */
function load(root: string, rootWithSep: string, pathname: string, origin: string): StaticEntry | null {
  for (const candidate of candidates(pathname)) {
    const file = normalize(join(root, candidate));
    if (!file.startsWith(rootWithSep)) return null;
    let size: number;
    try {
      const stat = statSync(file);
      if (!stat.isFile()) continue;
      size = stat.size;
    } catch {
      continue;
    }
    if (size > MAX_CACHED_FILE_BYTES) return null;
    const ext = extname(file);
    const isHtml = ext === '.html';
    const html = isHtml ? readFileSync(file, 'utf8').replaceAll(PRERENDERED_ORIGIN, origin) : undefined;
    const identity = html === undefined ? readFileSync(file) : Buffer.from(html);
    return {
      identity,
      contentSecurityPolicy: html === undefined ? undefined : pageContentSecurityPolicy(html),
      // A page's variants are made once its origin is in (compressPage); an asset's come from the build.
      br: isHtml ? undefined : readOptional(`${file}.br`),
      gzip: isHtml ? undefined : readOptional(`${file}.gz`),
      contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream',
      cacheControl: pathname.startsWith('/dist/') ? IMMUTABLE : REVALIDATE,
      etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
      isHtml,
      compressing: undefined,
    };
  }
  return null;
}

/** The request's path, decoded; undefined when it is malformed or tries to leave the root. */
function requestPath(req: IncomingMessage): string | undefined {
  const rawPath = (req.url ?? '/').split('?', 1)[0] ?? '/';
  let pathname: string;
  try {
    pathname = decodeURIComponent(rawPath);
  } catch {
    return undefined;
  }
  if (pathname.includes('\0') || pathname.includes('..')) return undefined;
  return pathname;
}

function send(
  req: IncomingMessage,
  res: ServerResponse,
  entry: StaticEntry,
  extraHeaders: ((isHtml: boolean) => void) | undefined,
): void {
  res.setHeader('Cache-Control', entry.cacheControl);
  res.setHeader('ETag', entry.etag);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Content-Type', entry.contentType);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (entry.contentSecurityPolicy) res.setHeader('Content-Security-Policy', entry.contentSecurityPolicy);
  if (entry.isHtml) {
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    res.setHeader('X-Frame-Options', 'DENY');
  }
  extraHeaders?.(entry.isHtml);

  if (req.headers['if-none-match'] === entry.etag) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const encoding = preferredEncoding(req.headers['accept-encoding']);
  const body = (encoding === 'br' && entry.br) || (encoding === 'gzip' && entry.gzip) || entry.identity;
  if (body !== entry.identity) res.setHeader('Content-Encoding', encoding as string);
  res.setHeader('Content-Length', body.length);
  res.statusCode = 200;
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * Present in the build folder (beside client/) while its variants are still being written: a first
 * `npm start` serves before it compresses (scripts/start.ts, decision 127).
 */
export const compressionPendingMarker = (buildDir: string) => join(buildDir, 'precompress-pending');

/**
 * Quality 9, not 11: every page of every language is compressed once per process, and 11 cost
 * ~220 ms of CPU a page, which slowed the browser suites past their time-outs.
 */
const PAGE_BROTLI_QUALITY = 9;

/**
 * A page's brotli and gzip variants, made on libuv's thread pool. Requests that come meanwhile wait
 * for them (a few milliseconds, once per page and process) rather than get the page uncompressed.
 */
function compressPage(entry: StaticEntry): void {
  const { identity } = entry;
  const brotli = brotliAsync(identity, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: PAGE_BROTLI_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
    },
  }).then((br) => {
    if (br.length < identity.length) entry.br = br;
  });
  const gzipped = gzipAsync(identity, { level: 9 }).then((gz) => {
    if (gz.length < identity.length) entry.gzip = gz;
  });
  // A variant that fails to be made is left out: the page goes uncompressed, never unanswered.
  entry.compressing = Promise.allSettled([brotli, gzipped]).then(() => {
    entry.compressing = undefined;
  });
}

/** `options.origin` left out keeps the placeholder in pages: for tests that do not look at their links. */
export function createStaticFiles(
  root: string,
  { origin }: StaticFilesOptions = { origin: () => PRERENDERED_ORIGIN },
): StaticFiles {
  const cache = new Map<string, StaticEntry | null>();
  const rootWithSep = root.endsWith(sep) ? root : root + sep;
  const pendingMarker = compressionPendingMarker(join(root, '..'));

  const lookup = (pathname: string): StaticEntry | null => {
    const cached = cache.get(pathname);
    if (cached !== undefined) return cached;
    const entry = load(root, rootWithSep, pathname, origin());
    // Only hits are remembered: caching misses would let a scanner grow the map without bound.
    // Nor is a file read before its variants exist: it would be sent uncompressed until a restart.
    if (entry && !existsSync(pendingMarker)) {
      cache.set(pathname, entry);
      if (entry.isHtml) compressPage(entry);
    }
    return entry;
  };

  return {
    serve(req, res, extraHeaders) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const pathname = requestPath(req);
      if (pathname === undefined) return false;
      const entry = lookup(pathname);
      if (!entry) return false;
      const compressing = entry.compressing;
      if (compressing === undefined) send(req, res, entry, extraHeaders);
      else void compressing.then(() => send(req, res, entry, extraHeaders));
      return true;
    },
  };
}
