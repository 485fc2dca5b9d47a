import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DocumentContentType } from '../../../db/schema/index.ts';

// Verification documents under UPLOADS_DIR, outside any web root; only the owner and moderators
// read them, through routes/verification.ts, by the names this module generated:
//
//   <UPLOADS_DIR>/verification/<usr_…>/<32 hex>.jpg|.pdf
//
// Folders 0700 and files 0600: nothing else on the machine needs to read identity papers.

const STORED_NAME = /^[0-9a-f]{32}\.(?:jpg|pdf)$/;
const OWNER = /^[A-Za-z0-9_]{1,64}$/;

export function createDocumentStorage(root: string) {
  const dirOf = (owner: string) => {
    // Every component comes from us; this guards the one read from the database.
    if (!OWNER.test(owner)) throw new Error(`unexpected document owner ${JSON.stringify(owner)}`);
    return join(root, 'verification', owner);
  };
  return {
    /** Stores the processed bytes under a new random name and answers the name. */
    async save(owner: string, contentType: DocumentContentType, bytes: Uint8Array): Promise<string> {
      const dir = dirOf(owner);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const name = `${randomBytes(16).toString('hex')}.${contentType === 'application/pdf' ? 'pdf' : 'jpg'}`;
      await writeFile(join(dir, name), bytes, { flag: 'wx', mode: 0o600 });
      return name;
    },
    /** Null for a name we could not have generated or a file that is gone. */
    async read(owner: string, name: string): Promise<Buffer | null> {
      if (!STORED_NAME.test(name)) return null;
      try {
        return await readFile(join(dirOf(owner), name));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async remove(owner: string, name: string): Promise<void> {
      if (STORED_NAME.test(name)) await rm(join(dirOf(owner), name), { force: true });
    },
  };
}

export type DocumentStorage = ReturnType<typeof createDocumentStorage>;
