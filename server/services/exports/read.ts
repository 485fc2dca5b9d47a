import type { Readable } from 'node:stream';
import type { PersonContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import type { ExportsDeps } from './deps.ts';
import { type ExportView, exportView, fileNameOf } from './view.ts';

// What a person reads of their exports: the list, one, and the file while it is valid. Another
// person's export is not found, as one that never existed.

/** How many of the latest exports the list shows. */
export const LISTED = 20;

export async function listExports(deps: ExportsDeps, ctx: PersonContext): Promise<ExportView[]> {
  const now = deps.now();
  return (await deps.repo.listMine(ctx.auth.user.id, LISTED)).map((row) => exportView(row, now));
}

async function mine(deps: ExportsDeps, ctx: PersonContext, id: string) {
  const row = await deps.repo.mine(ctx.auth.user.id, id);
  if (!row) throw notFound('The export', 'id');
  return row;
}

export async function readExport(deps: ExportsDeps, ctx: PersonContext, { id }: { id: string }): Promise<ExportView> {
  return exportView(await mine(deps, ctx, id), deps.now());
}

export interface ExportFile {
  stream: Readable;
  size: number;
  contentType: string;
  fileName: string;
}

/** The finished file; 409 while it is built (or failed), 410 once it expired. */
export async function exportFile(deps: ExportsDeps, ctx: PersonContext, { id }: { id: string }): Promise<ExportFile> {
  const row = await mine(deps, ctx, id);
  const view = exportView(row, deps.now());
  if (view.status === 'expired') {
    throw new AppError('EXPORT_EXPIRED', 'This export’s download link has expired; request a new export.', {
      key: 'export_expired',
    });
  }
  if (view.status !== 'ready') {
    throw new AppError('EXPORT_NOT_READY', 'This export is not ready to download.', { key: 'export_not_ready' });
  }
  const file = await deps.storage.open(row.userPublicId, row.publicId, row.format);
  // Ready but gone: the sweep of another process removed it a moment after it expired.
  if (!file)
    throw new AppError('EXPORT_EXPIRED', 'This export’s file is gone; request a new export.', {
      key: 'export_expired',
    });
  return {
    ...file,
    contentType: row.format === 'csv' ? 'application/zip' : 'application/json',
    fileName: fileNameOf(row),
  };
}
