import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import * as v from 'valibot';
import { DOCUMENT_MAX_BYTES, REJECTION_REASON_MAX_LENGTH } from '../../src/lib/shared/verification-rules.ts';
import { type AppEnv, personContextOf, signedIn } from '../http/auth.ts';
import { privateFileHeaders } from '../http/private-file.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';
import { AppError } from '../services/errors.ts';
import { tooLarge } from '../services/verification/document-file.ts';
import { DOCUMENT_KINDS, type DocumentKind } from '../services/verification/verification.ts';

// Identity and address verification (docs/verification.md). The spec shows no calls for it; these
// follow its conventions:
//   GET  /rest/v1/verification                              the person's level, limit and documents
//   POST /rest/v1/verification/documents                    multipart: kind, file → the new document
//   POST /rest/v1/verification/submit {check, full_name?}   uploaded documents of a check → pending
//                                                           (identity: the name on the document)
//   GET  /rest/v1/verification/documents/{id}/file          the file: its owner and moderators only
//   GET  /rest/v1/verification/queue                        moderators: pending documents
//   POST /rest/v1/verification/documents/{id}/review        moderators: {decision, reason}

/** Room for the multipart boundary and part headers around a file of the maximum size. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

const DocumentParam = v.object({ id: v.pipe(v.string(), v.regex(/^doc_[0-9A-Za-z]{16}$/, 'must be a document id')) });
const SubmitBody = v.object({
  check: v.picklist(['identity', 'address'], 'must be identity or address'),
  /** The name as on the identity document (identity only; the service checks it). */
  full_name: v.optional(v.string('must be text')),
});
const ReviewBody = v.object({
  decision: v.picklist(['approve', 'reject'], 'must be approve or reject'),
  reason: v.optional(
    v.pipe(
      v.string('must be text'),
      v.maxLength(REJECTION_REASON_MAX_LENGTH, `must be at most ${REJECTION_REASON_MAX_LENGTH} characters`),
    ),
  ),
});

function fieldError(field: string, message: string, key: string): AppError {
  return new AppError('ERROR_INPUT_VALIDATION', message, { field, key, details: [{ field, message, key }] });
}

export function verificationRoutes(services: Services) {
  const { verification } = services;
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json({ data: await verification.status(personContextOf(c)) }))
    .post(
      '/documents',
      signedIn,
      // Refuses by Content-Length before reading, and counts the bytes of a body without one.
      bodyLimit({
        maxSize: DOCUMENT_MAX_BYTES + MULTIPART_OVERHEAD_BYTES,
        onError: () => {
          throw tooLarge();
        },
      }),
      async (c) => {
        const ctx = personContextOf(c);
        const { user } = ctx.auth;
        if (!/^multipart\/form-data\s*;/i.test(c.req.header('content-type') ?? '')) {
          throw new AppError(
            'UNSUPPORTED_MEDIA_TYPE',
            'Send the document as multipart/form-data with the fields "kind" and "file".',
          );
        }
        let form: FormData;
        try {
          form = await c.req.formData();
        } catch {
          throw fieldError('file', 'The upload could not be read. Try again.', 'verification_file_unreadable');
        }
        // A document is always the signed-in person's own: a form naming anyone else is refused.
        const owner = form.get('user');
        if (owner !== null && owner !== user.publicId) {
          throw new AppError('FORBIDDEN', 'You can only upload your own documents.', { key: 'verification_not_yours' });
        }
        const kind = form.get('kind');
        if (typeof kind !== 'string' || !(DOCUMENT_KINDS as readonly string[]).includes(kind)) {
          throw fieldError('kind', `Must be one of ${DOCUMENT_KINDS.join(', ')}.`, 'verification_kind');
        }
        const file = form.get('file');
        if (file === null || typeof file === 'string' || file.size === 0) {
          throw fieldError('file', 'Choose a file to upload.', 'verification_file_missing');
        }
        if (file.size > DOCUMENT_MAX_BYTES) throw tooLarge();
        // The declared name and type are ignored: the service looks at the bytes.
        const bytes = new Uint8Array(await file.arrayBuffer());
        const document = await verification.upload(ctx, { kind: kind as DocumentKind, bytes });
        return c.json({ data: document }, 201);
      },
    )
    .post('/submit', validate('json', SubmitBody), async (c) => {
      const { check, full_name } = c.req.valid('json');
      return c.json({ data: await verification.submit(personContextOf(c), { check, fullName: full_name }) });
    })
    .get('/documents/:id/file', validate('param', DocumentParam), async (c) => {
      const file = await verification.file(personContextOf(c), { documentId: c.req.valid('param').id });
      return c.body(new Uint8Array(file.bytes), 200, privateFileHeaders(file.contentType, file.kind, 'no-store'));
    })
    .get('/queue', async (c) => c.json({ data: await verification.queue(personContextOf(c)) }))
    .post('/documents/:id/review', validate('param', DocumentParam), validate('json', ReviewBody), async (c) => {
      const ctx = personContextOf(c);
      const { decision, reason } = c.req.valid('json');
      const document = await verification.review(ctx, {
        documentId: c.req.valid('param').id,
        decision,
        reason: reason ?? null,
      });
      return c.json({ data: document });
    });
}
