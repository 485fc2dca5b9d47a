import { AVATAR_MAX_BYTES } from '../../../src/lib/shared/avatar-rules.ts';
import type { PersonContext, ServiceContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { sniffImageType } from './image-type.ts';
import { reencodeAvatar } from './reencode.ts';
import type { AvatarRepository } from './repository.ts';
import { AVATAR_URL_PREFIX, type AvatarStorage, avatarNameOf } from './storage.ts';

// Avatars in two steps (spec section 7 names the second): upload stores the raw bytes in the
// person's pending area and answers an opaque `upload:<id>`; process-avatar re-encodes one of
// the caller's own uploads and makes it the avatar. A fileUrl is never fetched: it names a file
// we hold, so the step cannot be turned into requests to other servers.

/** 5 MiB (src/lib/shared/avatar-rules.ts, which the settings form checks before sending). */
export const MAX_UPLOAD_BYTES = AVATAR_MAX_BYTES;

const FILE_URL = /^upload:([0-9a-f]{32})$/;

export interface AvatarDeps {
  repo: AvatarRepository;
  storage: AvatarStorage;
  now: () => number;
  log: (message: string, error?: unknown) => void;
}

function fieldError(field: string, message: string): AppError {
  return new AppError('ERROR_INPUT_VALIDATION', message, { field, details: [{ field, message }] });
}

export function tooLarge(): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `The image is too large: at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.`, {
    field: 'file',
  });
}

export function createAvatarService({ repo, storage, now, log }: AvatarDeps) {
  /** Old files are clean-up, not part of the answer: a failure is logged, never shown. */
  const bestEffort = (what: string, task: Promise<void>) =>
    task.catch((error: unknown) => log(`avatar: could not delete ${what}`, error));

  return {
    async upload(ctx: PersonContext, { bytes }: { bytes: Uint8Array }): Promise<{ fileUrl: string }> {
      const { user } = ctx.auth;
      if (bytes.length > MAX_UPLOAD_BYTES) throw tooLarge();
      if (!sniffImageType(bytes)) throw fieldError('file', 'Choose a JPEG or PNG image.');
      const id = await storage.savePending(user.publicId, bytes);
      return { fileUrl: `upload:${id}` };
    },

    async process(ctx: PersonContext, { fileUrl }: { fileUrl: string }): Promise<{ url: string }> {
      const { user } = ctx.auth;
      const id = FILE_URL.exec(fileUrl)?.[1];
      if (!id) throw fieldError('fileUrl', 'This is not a reference to an uploaded image.');
      // Looked up in the caller's own area only: another person's id is simply not there.
      const raw = await storage.readPending(user.publicId, id);
      if (!raw) throw notFound('This upload', 'fileUrl');
      if (!sniffImageType(raw)) throw fieldError('fileUrl', 'Choose a JPEG or PNG image.');

      const jpeg = await reencodeAvatar(raw);
      const name = await storage.saveAvatar(jpeg);
      const url = `${AVATAR_URL_PREFIX}${name}`;
      let previous: string | null;
      try {
        previous = await repo.replaceAvatarUrl(user.id, url, now());
      } catch (error) {
        await bestEffort('an unused avatar', storage.deleteAvatar(name));
        throw error;
      }
      await bestEffort('a processed upload', storage.deletePending(user.publicId, id));
      const previousName = avatarNameOf(previous);
      if (previousName && previousName !== name)
        await bestEffort('the previous avatar', storage.deleteAvatar(previousName));
      return { url };
    },

    /** The bytes of a served avatar; 404 for any name we could not have generated. */
    async read(_ctx: ServiceContext, { name }: { name: string }): Promise<Buffer> {
      const bytes = await storage.readAvatar(name);
      if (!bytes) throw notFound('This avatar');
      return bytes;
    },
  };
}

export type AvatarService = ReturnType<typeof createAvatarService>;
