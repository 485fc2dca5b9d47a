import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { pageContentSecurityPolicy } from './content-security-policy.ts';

// Serves the prerendered pages and built assets from memory with the brotli/gzip variants the
// build wrote beside each file. Astro's own static handler streams from disk on every request,
// uncompressed; this keeps a static page as fast as a bare server sending the same bytes.

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
}

export interface StaticFiles {
  /** Answers the request when a built file matches; false leaves it to the next handler. */
  serve(req: IncomingMessage, res: ServerResponse, extraHeaders?: (isHtml: boolean) => void): boolean;
}

function readOptional(path: string): Buffer | undefined {
  return existsSync(path) ? readFileSync(path) : undefined;
}

/** `br` when the client takes it, else `gzip`, else none; `q=0` refuses an encoding. */
export function preferredEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  if (!header) return undefined;
  const quality = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    quality.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const accepts = (name: string) => (quality.get(name) ?? quality.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return undefined;
}

function candidates(pathname: string): string[] {
  if (pathname.endsWith('/')) return [`${pathname}index.html`];
  if (extname(pathname)) return [pathname];
  return [`${pathname}/index.html`, `${pathname}.html`];
}

/** The built file answering `pathname` under `root`, read with its variants; null when none or too large. */
function load(root: string, rootWithSep: string, pathname: string): StaticEntry | null {
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
    const identity = readFileSync(file);
    const ext = extname(file);
    return {
      identity,
      contentSecurityPolicy: ext === '.html' ? pageContentSecurityPolicy(identity.toString('utf8')) : undefined,
      br: readOptional(`${file}.br`),
      gzip: readOptional(`${file}.gz`),
      contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream',
      cacheControl: pathname.startsWith('/dist/') ? IMMUTABLE : REVALIDATE,
      etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
      isHtml: ext === '.html',
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

export function createStaticFiles(root: string): StaticFiles {
  const cache = new Map<string, StaticEntry | null>();
  const rootWithSep = root.endsWith(sep) ? root : root + sep;

  const lookup = (pathname: string): StaticEntry | null => {
    const cached = cache.get(pathname);
    if (cached !== undefined) return cached;
    const entry = load(root, rootWithSep, pathname);
    // Only hits are remembered: caching misses would let a scanner grow the map without bound.
    if (entry) cache.set(pathname, entry);
    return entry;
  };

  return {
    serve(req, res, extraHeaders) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const pathname = requestPath(req);
      if (pathname === undefined) return false;
      const entry = lookup(pathname);
      if (!entry) return false;
      send(req, res, entry, extraHeaders);
      return true;
    },
  };
}
