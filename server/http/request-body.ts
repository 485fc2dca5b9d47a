import type { MiddlewareHandler } from 'hono';
import { AppError } from '../services/errors.ts';
import type { AppEnv } from './app-env.ts';
import { isSecretField, normalizeJsonValue, normalizeUserText, TooDeepError } from './user-text.ts';

// The one place request bodies are read before a route sees them (issue 16): a size limit checked
// before reading (declared length) and while reading (chunked bodies), and every string people
// write normalised (user-text.ts). Routes read the result as usual. Multipart uploads pass through: each upload route sets
// its own larger limit with hono/body-limit and never reads more.

/** JSON and form bodies: no call of the HTTP contract comes near it (the largest, offer terms, < 8 KB). */
export const BODY_LIMIT_BYTES = 64 * 1024;

const METHODS_WITHOUT_BODY = new Set(['GET', 'HEAD', 'OPTIONS']);
const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

export function payloadTooLarge(limit: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${Math.round(limit / 1024)} KB.`, {
    key: 'payload_too_large',
    params: { kb: Math.round(limit / 1024) },
  });
}

function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
}

/** True when the declared length is over the limit: refuse before reading a byte. */
export function declaresTooMuch(contentLength: string | null | undefined, limit: number): boolean {
  if (contentLength == null) return false;
  const declared = Number(contentLength);
  return !Number.isFinite(declared) || declared > limit;
}

/** The body as text, or undefined once it passes `limit` bytes (the rest is never buffered). */
async function readAtMost(body: ReadableStream<Uint8Array>, limit: number): Promise<string | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

function normalizedJson(text: string): string {
  // Printable ASCII without escapes cannot hold anything to normalise: most bodies stop here.
  if (!/[^\x20-\x7E\t\n\r]|\\u/.test(text)) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text; // the route's validator answers malformed JSON
  }
  try {
    const normalized = normalizeJsonValue(parsed);
    return normalized === parsed ? text : JSON.stringify(normalized);
  } catch (error) {
    if (error instanceof TooDeepError) {
      throw new AppError('ERROR_INPUT_VALIDATION', 'The request body is nested too deeply.', {
        details: [{ field: '', message: 'is nested too deeply' }],
      });
    }
    throw error;
  }
}

function normalizedForm(text: string): string {
  if (!/[^\x20-\x7E]|%[89A-Fa-f]|%[01]/.test(text)) return text;
  const form = new URLSearchParams(text);
  const out = new URLSearchParams();
  for (const [name, value] of form) {
    out.append(normalizeUserText(name), isSecretField(name) ? value : normalizeUserText(value));
  }
  return out.toString();
}

/** Normalised text of a body of this media type. */
export function normalizedBody(mediaType: string, text: string): string {
  if (JSON_TYPE.test(mediaType)) return normalizedJson(text);
  if (mediaType === 'application/x-www-form-urlencoded') return normalizedForm(text);
  return normalizeUserText(text);
}

export function requestBody({ limit = BODY_LIMIT_BYTES }: { limit?: number } = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const raw = c.req.raw;
    if (METHODS_WITHOUT_BODY.has(raw.method) || !raw.body) return next();
    const mediaType = mediaTypeOf(raw.headers.get('content-type') ?? undefined);
    if (mediaType === 'multipart/form-data') return next();
    if (declaresTooMuch(raw.headers.get('content-length'), limit)) throw payloadTooLarge(limit);
    const text = await readAtMost(raw.body, limit);
    if (text === undefined) throw payloadTooLarge(limit);
    c.set('rawBody', text);
    // The route reads the checked, normalised body (hono/body-limit replaces the request the same way).
    c.req.raw = new Request(raw, { body: normalizedBody(mediaType, text) });
    return next();
  };
}
