import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// Files under UPLOADS_DIR, which is outside any web root: only the avatar route serves from it,
// and only names this module generated.
//
//   <UPLOADS_DIR>/pending/<user public id>/<32 hex>   raw uploads, as received, never served
//   <UPLOADS_DIR>/avatars/<32 hex>.jpg                 re-encoded avatars, served read-only
//
// Names are random and never reused, so a served avatar can be cached forever and one person
// cannot guess another's pending upload.

export const AVATAR_URL_PREFIX = '/uploads/avatars/';
/** Uploads waiting for process-avatar per person; older ones make room for a new one. */
export const MAX_PENDING_PER_USER = 5;

const RANDOM_NAME = /^[0-9a-f]{32}$/;
const AVATAR_NAME = /^[0-9a-f]{32}\.jpg$/;
const OWNER = /^[A-Za-z0-9_]{1,64}$/;

export const isUploadId = (id: string) => RANDOM_NAME.test(id);
export const isAvatarName = (name: string) => AVATAR_NAME.test(name);

/** The file name behind one of our avatar URLs, or null for anything else. */
export function avatarNameOf(url: string | null | undefined): string | null {
  if (!url?.startsWith(AVATAR_URL_PREFIX)) return null;
  const name = url.slice(AVATAR_URL_PREFIX.length);
  return isAvatarName(name) ? name : null;
}

const randomName = () => randomBytes(16).toString('hex');

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

async function readIfExists(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

export function createAvatarStorage(root: string) {
  const avatarsDir = join(root, 'avatars');
  const pendingDir = (owner: string) => {
    // Every path component comes from us; this guards the one that comes from the database.
    if (!OWNER.test(owner)) throw new Error(`unexpected upload owner ${JSON.stringify(owner)}`);
    return join(root, 'pending', owner);
  };

  /** Deletes the owner's oldest pending uploads until `keep` are left. */
  const prunePending = async (dir: string, keep: number) => {
    let names: string[];
    try {
      names = (await readdir(dir)).filter(isUploadId);
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    if (names.length <= keep) return;
    const dated = await Promise.all(
      names.map(async (name) => ({ name, at: (await stat(join(dir, name)).catch(() => null))?.mtimeMs ?? 0 })),
    );
    dated.sort((a, b) => a.at - b.at);
    await Promise.all(dated.slice(0, dated.length - keep).map(({ name }) => rm(join(dir, name), { force: true })));
  };

  return {
    /** Stores an upload as received and answers its id. */
    async savePending(owner: string, bytes: Uint8Array): Promise<string> {
      const dir = pendingDir(owner);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await prunePending(dir, MAX_PENDING_PER_USER - 1);
      const id = randomName();
      await writeFile(join(dir, id), bytes, { flag: 'wx', mode: 0o600 });
      return id;
    },
    /** Null when the id is not one of this owner's pending uploads. */
    readPending(owner: string, id: string): Promise<Buffer | null> {
      return isUploadId(id) ? readIfExists(join(pendingDir(owner), id)) : Promise.resolve(null);
    },
    async deletePending(owner: string, id: string): Promise<void> {
      if (isUploadId(id)) await rm(join(pendingDir(owner), id), { force: true });
    },

    /** Stores a processed avatar under a new random name and answers the name. */
    async saveAvatar(jpeg: Uint8Array): Promise<string> {
      await mkdir(avatarsDir, { recursive: true });
      const name = `${randomName()}.jpg`;
      await writeFile(join(avatarsDir, name), jpeg, { flag: 'wx' });
      return name;
    },
    /** Null for a name we could not have generated or a file that is gone. */
    readAvatar(name: string): Promise<Buffer | null> {
      return isAvatarName(name) ? readIfExists(join(avatarsDir, name)) : Promise.resolve(null);
    },
    async deleteAvatar(name: string): Promise<void> {
      if (isAvatarName(name)) await rm(join(avatarsDir, name), { force: true });
    },
  };
}

export type AvatarStorage = ReturnType<typeof createAvatarStorage>;
