import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExportFormat } from '../../../db/schema/index.ts';

// Finished exports under UPLOADS_DIR, outside any web root, where every process of the deployment
// reads them (one machine: the same folder; several: the same mounted storage, docs/deploy.md):
//
//   <UPLOADS_DIR>/exports/<usr_…>/<exp_…>.zip|.json
//
// Folders 0700, files 0600. A file is written under a temporary name and renamed into place, so a
// reader never sees half of one; the route serves it to its owner only, until it expires.

const OWNER = /^usr_[A-Za-z0-9]{1,64}$/;
const EXPORT_ID = /^exp_[A-Za-z0-9]{1,64}$/;

export const extensionOf = (format: ExportFormat) => (format === 'csv' ? 'zip' : 'json');

export function createExportStorage(root: string) {
  const pathOf = (owner: string, exportId: string, format: ExportFormat) => {
    // Every component comes from us; this guards the ones read from the database.
    if (!OWNER.test(owner) || !EXPORT_ID.test(exportId)) throw new Error(`unexpected export ${owner}/${exportId}`);
    return join(root, 'exports', owner, `${exportId}.${extensionOf(format)}`);
  };
  return {
    /** A fresh temporary path beside the final one (its folder made) and the final path. */
    async prepare(owner: string, exportId: string, format: ExportFormat) {
      const path = pathOf(owner, exportId, format);
      await mkdir(join(root, 'exports', owner), { recursive: true, mode: 0o700 });
      return { path, temporary: `${path}.${randomBytes(8).toString('hex')}.part` };
    },
    /**
     * Moves a written temporary file into place. Run again after a retried transaction, the file is
     * in place already: the temporary one is gone and the final one there.
     */
    async publish(temporary: string, path: string): Promise<void> {
      try {
        await rename(temporary, path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        await stat(path);
      }
    },
    /** The file as a stream, or null when it is gone. */
    async open(owner: string, exportId: string, format: ExportFormat) {
      const path = pathOf(owner, exportId, format);
      try {
        const { size } = await stat(path);
        return { size, stream: createReadStream(path) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    remove: (owner: string, exportId: string, format: ExportFormat) =>
      rm(pathOf(owner, exportId, format), { force: true }),
    discard: (temporary: string) => rm(temporary, { force: true }),
  };
}

export type ExportStorage = ReturnType<typeof createExportStorage>;
