import type { ExportView } from '../../../src/lib/shared/exports.ts';
import type { ExportRow } from './repository.ts';
import { extensionOf } from './storage.ts';

// An export as the API shows it to its owner (GET /rest/v1/exports, …/{id}): where its build
// stands, and once ready its size, when it expires and where to download it.

export const EXPORTS_PATH = '/rest/v1/exports';

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function exportView(row: ExportRow, now: number): ExportView {
  // A ready file past its time is expired even before the sweep has deleted it.
  const status = row.status === 'ready' && row.expiresAt !== null && row.expiresAt <= now ? 'expired' : row.status;
  return {
    id: row.publicId,
    format: row.format,
    from: row.fromDate,
    to: row.toDate,
    status,
    progress: { done: Math.min(row.done, row.total), total: row.total },
    size: status === 'ready' ? row.sizeBytes : null,
    fileName: fileNameOf(row),
    createdAt: new Date(row.createdAt).toISOString(),
    readyAt: isoOrNull(row.readyAt),
    expiresAt: isoOrNull(row.expiresAt),
    downloadUrl: status === 'ready' ? `${EXPORTS_PATH}/${row.publicId}/file` : null,
  };
}

export type { ExportView };

/** `coinfair-export-2026-01-01-to-2026-11-29.zip`: what the download is saved as. */
export const fileNameOf = (row: Pick<ExportRow, 'fromDate' | 'toDate' | 'format'>) =>
  `coinfair-export-${row.fromDate}-to-${row.toDate}.${extensionOf(row.format)}`;
