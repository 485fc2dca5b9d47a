import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TRADE_ATTACHMENT_MAX_BYTES } from '../../../src/lib/shared/trade-attachments.ts';
import { AppError, invalidInput, notFound } from '../errors.ts';
import { processDocument } from '../verification/document-file.ts';

// The bytes of a trade's files: what passes the checks, and where they are kept. Files live under
// UPLOADS_DIR/trades/ (gift cards' pictures under UPLOADS_DIR/gift-cards/) by names we generate.

const STORED_NAME = /^[0-9a-f]{32}\.(?:jpg|pdf)$/;

/** The form field a refusal names: `files` for a trade's attachments, `file` for a gift card's picture. */
type FileField = 'files' | 'file';

export const attachmentTooLarge = (field: FileField = 'files') =>
  new AppError(
    'PAYLOAD_TOO_LARGE',
    `A file is too large: at most ${TRADE_ATTACHMENT_MAX_BYTES / 1024 / 1024} MB each.`,
    {
      field,
      key: 'trade_file_size',
      params: { megabytes: TRADE_ATTACHMENT_MAX_BYTES / 1024 / 1024 },
    },
  );

export const filesIssue = (message: string, key: string, params?: Record<string, string | number>) =>
  invalidInput([{ field: 'files', message, key, ...(params ? { params } : {}) }]);

/**
 * The document checks, their refusals named under `field` (the document checks say `file`). A
 * file that is no JPEG, PNG or PDF at all is 415; one that claims to be but is not readable as one
 * stays 400.
 */
export async function checked(bytes: Uint8Array, field: FileField = 'files') {
  try {
    return await processDocument(bytes);
  } catch (error) {
    if (!(error instanceof AppError) || error.field !== 'file') throw error;
    const details = error.details?.map((issue) => ({ ...issue, field }));
    if (details?.[0]?.key === 'verification_file_type') {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send a JPEG, PNG or PDF file.', {
        field,
        key: 'trade_file_type',
      });
    }
    throw new AppError(error.code, error.message, {
      field,
      ...(details ? { details } : {}),
      ...(error.key ? { key: error.key } : {}),
      ...(error.params ? { params: error.params } : {}),
    });
  }
}

export type CheckedFile = Awaited<ReturnType<typeof checked>>;

/** The folder of trade files under `root` (UPLOADS_DIR); gift cards keep their pictures in `gift-cards`. */
export function createFileStore(root: string, folder: 'trades' | 'gift-cards' = 'trades') {
  const dir = join(root, folder);
  return {
    /** Writes the bytes under a new random name; returns the name. */
    async store(contentType: string, bytes: Uint8Array): Promise<string> {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const name = `${randomBytes(16).toString('hex')}.${contentType === 'application/pdf' ? 'pdf' : 'jpg'}`;
      await writeFile(join(dir, name), bytes, { flag: 'wx', mode: 0o600 });
      return name;
    },
    remove: (name: string) => rm(join(dir, name), { force: true }),
    /** A stored file's bytes; 404 for a name we never generate or a file that is gone. */
    async read(name: string): Promise<Buffer> {
      if (!STORED_NAME.test(name)) throw notFound('File');
      try {
        return await readFile(join(dir, name));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound('File');
        throw error;
      }
    },
  };
}

export type FileStore = ReturnType<typeof createFileStore>;
