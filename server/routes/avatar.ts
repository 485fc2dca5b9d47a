import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import * as v from 'valibot';
import { type AppEnv, personContextOf, requestContext, signedIn } from '../http/auth.ts';
import { validate } from '../http/validate.ts';
import { MAX_UPLOAD_BYTES, tooLarge } from '../services/avatar/avatar.ts';
import type { Services } from '../services/container.ts';
import { AppError } from '../services/errors.ts';

// Avatars: POST /rest/v1/users/avatar-upload (multipart, field `file`) → data.fileUrl;
// POST /rest/v1/users/process-avatar {fileUrl} → data.url (spec section 7); and serving
// GET /uploads/avatars/<name>.jpg.

/** Room for the multipart boundary and part headers around a file of the maximum size. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

const ProcessBody = v.object({
  fileUrl: v.pipe(v.string('must be text'), v.maxLength(100, 'must be at most 100 characters')),
});

function fieldError(field: string, message: string): AppError {
  return new AppError('ERROR_INPUT_VALIDATION', message, { field, details: [{ field, message }] });
}

/**
 * Served as an image and nothing else: the type is fixed (never sniffed), a browser that opens
 * it directly gets no script or styles, and the name never changes its content.
 */
const AVATAR_HEADERS = {
  'Content-Type': 'image/jpeg',
  'X-Content-Type-Options': 'nosniff',
  'Content-Disposition': 'inline',
  'Content-Security-Policy': "default-src 'none'; sandbox",
  // Private: a session or CSRF cookie may ride on the answer, which a shared cache must not keep.
  'Cache-Control': 'private, max-age=31536000, immutable',
} as const;

export function avatarRoutes(services: Services) {
  const { avatar } = services;
  return new Hono<AppEnv>()
    .post(
      '/rest/v1/users/avatar-upload',
      signedIn,
      // Refuses by Content-Length before reading, and counts the bytes of a body without one.
      bodyLimit({
        maxSize: MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES,
        onError: () => {
          throw tooLarge();
        },
      }),
      async (c) => {
        const ctx = personContextOf(c);
        if (!/^multipart\/form-data\s*;/i.test(c.req.header('content-type') ?? '')) {
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the image as multipart/form-data in the field "file".');
        }
        let form: FormData;
        try {
          form = await c.req.formData();
        } catch {
          throw fieldError('file', 'The upload could not be read. Try again.');
        }
        const file = form.get('file');
        if (file === null || typeof file === 'string') throw fieldError('file', 'Choose an image to upload.');
        if (file.size > MAX_UPLOAD_BYTES) throw tooLarge();
        // The declared name and type are ignored: the service looks at the bytes.
        const bytes = new Uint8Array(await file.arrayBuffer());
        return c.json({ data: await avatar.upload(ctx, { bytes }) });
      },
    )
    .post('/rest/v1/users/process-avatar', signedIn, validate('json', ProcessBody), async (c) => {
      return c.json({ data: await avatar.process(personContextOf(c), { fileUrl: c.req.valid('json').fileUrl }) });
    })
    .get('/uploads/avatars/:name', async (c) => {
      const bytes = await avatar.read(requestContext(c), { name: c.req.param('name') });
      // A copy typed as Uint8Array<ArrayBuffer>, which Response bodies require; avatars are ~10 KB.
      return c.body(new Uint8Array(bytes), 200, AVATAR_HEADERS);
    });
}
