import { Readable } from 'node:stream';
import { Hono } from 'hono';
import * as v from 'valibot';
import { DAY_PATTERN, EXPORT_FORMATS } from '../../src/lib/shared/exports.ts';
import { type AppEnv, personContextOf, signedIn } from '../http/auth.ts';
import { requestLocale } from '../http/locale.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';

// A person's full export (issue 24; docs/decisions/158-data-exports.md):
//   POST /rest/v1/exports                 format (csv | json), from, to (YYYY-MM-DD, UTC days, both
//                                         included): queued for the background build (202)
//   GET  /rest/v1/exports                 mine, newest first (the latest 20)
//   GET  /rest/v1/exports/{id}            one: status, progress { done, total }, size, expiry
//   GET  /rest/v1/exports/{id}/file       the file while it is valid: 409 not ready, 410 expired
// Only the owner reads or downloads one; anyone else's id is a 404.

const DAY = v.pipe(
  v.string('must be a day as YYYY-MM-DD'),
  v.trim(),
  v.regex(DAY_PATTERN, 'must be a day as YYYY-MM-DD'),
);

const RequestBody = v.object({
  format: v.picklist(EXPORT_FORMATS, 'must be csv or json'),
  from: DAY,
  to: DAY,
});
const IdParam = v.object({ id: v.pipe(v.string(), v.maxLength(64, 'must be an export id (exp_…)')) });

/** The file as a download, served as we stored it: never rendered, never kept by a shared cache. */
function downloadHeaders(contentType: string, fileName: string, size: number) {
  return {
    'Content-Type': contentType,
    'Content-Length': String(size),
    'Content-Disposition': `attachment; filename="${fileName}"`,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cache-Control': 'private, no-store',
  };
}

export function exportRoutes(services: Services) {
  const { exports } = services;
  return new Hono<AppEnv>()
    .use('/rest/v1/exports', signedIn)
    .use('/rest/v1/exports/*', signedIn)
    .get('/rest/v1/exports', async (c) => c.json({ data: await exports.list(personContextOf(c)) }))
    .post('/rest/v1/exports', validate('json', RequestBody), async (c) =>
      c.json(
        { data: await exports.request(personContextOf(c), { ...c.req.valid('json'), locale: requestLocale(c) }) },
        202,
      ),
    )
    .get('/rest/v1/exports/:id', validate('param', IdParam), async (c) =>
      c.json({ data: await exports.read(personContextOf(c), c.req.valid('param')) }),
    )
    .get('/rest/v1/exports/:id/file', validate('param', IdParam), async (c) => {
      const file = await exports.file(personContextOf(c), c.req.valid('param'));
      const body = Readable.toWeb(file.stream) as ReadableStream<Uint8Array>;
      return c.body(body, 200, downloadHeaders(file.contentType, file.fileName, file.size));
    });
}
