import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import * as v from 'valibot';
import { TRADE_ATTACHMENT_MAX_BYTES, TRADE_ATTACHMENT_MAX_FILES } from '../../src/lib/shared/trade-attachments.ts';
import { type AppEnv, personContextOf, signedIn } from '../http/auth.ts';
import { privateFileHeaders } from '../http/private-file.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';
import { AppError, invalidInput } from '../services/errors.ts';
import { attachmentTooLarge } from '../services/trades/uploads.ts';

// Files of a trade (spec section 7 "Trade"; docs/decisions/075-trade-uploads-and-trade-page.md 2026-11-24 "Trade uploads"):
//   POST /rest/v1/trade/{id}/attachments   multipart files (1–3), is_for_moderator → { success, data: [messages] }
//   POST /rest/v1/trade/{id}/upload        {url, requirement}: a sent file becomes a requirement's proof
//   GET  /rest/v1/trade/{id}/uploads       the proofs: [{ id, requirementId, status, resource: { url } }]
//   POST /rest/v1/trade/{id}/requirement   {action: approve|reject, id}: the owner (or a moderator) reviews
//   GET  /uploads/trades/{att_…}           the file, to the trade's readers only

/** Room for the multipart boundaries and part headers around the largest allowed files. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

const IdParam = v.object({ id: v.pipe(v.string(), v.regex(/^[0-9A-Za-z]{6,32}$/, 'must be a trade id')) });
const requirementId = v.pipe(
  v.union([v.number(), v.pipe(v.string(), v.regex(/^\d{1,12}$/))], 'must be a requirement id'),
  v.transform(Number),
  v.integer('must be a requirement id'),
  v.minValue(1, 'must be a requirement id'),
);
const UploadBody = v.object({
  url: v.pipe(v.string('must be text'), v.maxLength(200, 'is too long')),
  requirement: requirementId,
});
const RequirementBody = v.object({
  action: v.picklist(['approve', 'reject'], 'must be approve or reject'),
  id: requirementId,
});

export function tradeUploadRoutes(services: Services) {
  const { tradeUploads } = services;
  return new Hono<AppEnv>()
    .post(
      '/rest/v1/trade/:id/attachments',
      signedIn,
      // Refuses by Content-Length before reading, and counts the bytes of a body without one.
      bodyLimit({
        maxSize: TRADE_ATTACHMENT_MAX_FILES * TRADE_ATTACHMENT_MAX_BYTES + MULTIPART_OVERHEAD_BYTES,
        onError: () => {
          throw attachmentTooLarge();
        },
      }),
      validate('param', IdParam),
      async (c) => {
        const ctx = personContextOf(c);
        if (!/^multipart\/form-data\s*;/i.test(c.req.header('content-type') ?? '')) {
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the files as multipart/form-data in the field "files".');
        }
        let form: FormData;
        try {
          form = await c.req.formData();
        } catch {
          throw invalidInput([{ field: 'files', message: 'The upload could not be read. Try again.' }]);
        }
        const files = form.getAll('files').filter((entry): entry is File => typeof entry !== 'string');
        if (files.some((file) => file.size > TRADE_ATTACHMENT_MAX_BYTES)) throw attachmentTooLarge();
        const flag = String(form.get('is_for_moderator') ?? '0');
        // The declared names and types are ignored: the service looks at the bytes.
        const messages = await tradeUploads.attach(ctx, {
          hash: c.req.valid('param').id,
          files: await Promise.all(files.map(async (file) => new Uint8Array(await file.arrayBuffer()))),
          isForModerator: flag === '1' || flag === 'true',
        });
        return c.json({ success: true, data: messages }, 201);
      },
    )
    .post('/rest/v1/trade/:id/upload', validate('param', IdParam), validate('json', UploadBody), async (c) => {
      const body = c.req.valid('json');
      return c.json({
        data: await tradeUploads.prove(personContextOf(c), {
          hash: c.req.valid('param').id,
          url: body.url,
          requirementId: body.requirement,
        }),
      });
    })
    .get('/rest/v1/trade/:id/uploads', validate('param', IdParam), async (c) =>
      c.json({ data: await tradeUploads.list(personContextOf(c), { hash: c.req.valid('param').id }) }),
    )
    .post(
      '/rest/v1/trade/:id/requirement',
      validate('param', IdParam),
      validate('json', RequirementBody),
      async (c) => {
        const body = c.req.valid('json');
        return c.json({
          data: await tradeUploads.review(personContextOf(c), {
            hash: c.req.valid('param').id,
            action: body.action,
            requirementId: body.id,
          }),
        });
      },
    )
    .get('/uploads/trades/:publicId', async (c) => {
      const publicId = c.req.param('publicId');
      const file = await tradeUploads.read(personContextOf(c), { publicId });
      return c.body(new Uint8Array(file.bytes), 200, privateFileHeaders(file.contentType, publicId));
    });
}
