import type { IncomingHttpHeaders } from 'node:http';
import { DOCUMENT_MAX_BYTES } from '../../src/lib/shared/verification-rules.ts';
import { BODY_LIMIT_BYTES, declaresTooMuch } from './request-body.ts';

// Forms posted to pages rendered per request (sign-in, settings, verification without
// JavaScript) are read by Astro, not by the API's body middleware: the same limits, checked on
// the declared length before Astro reads a byte. Browsers always declare the length of a form.

/** The verification page takes one document per form; nothing else a page takes is larger. */
export const PAGE_UPLOAD_LIMIT_BYTES = DOCUMENT_MAX_BYTES + 64 * 1024;

export function pageBodyRefusal(
  method: string | undefined,
  headers: IncomingHttpHeaders,
): { status: number; message: string } | undefined {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return undefined;
  const length = headers['content-length'];
  if (length === undefined) {
    if (headers['transfer-encoding'] === undefined) return undefined; // no body at all
    return { status: 411, message: 'Send the form with its Content-Length.' };
  }
  const multipart = /^multipart\/form-data\b/i.test(headers['content-type'] ?? '');
  const limit = multipart ? PAGE_UPLOAD_LIMIT_BYTES : BODY_LIMIT_BYTES;
  if (!declaresTooMuch(length, limit)) return undefined;
  return { status: 413, message: `The form is larger than ${Math.round(limit / 1024)} KB.` };
}
