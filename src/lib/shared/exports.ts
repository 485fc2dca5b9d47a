// A person's data exports (issue 24; docs/decisions/158-data-exports.md): the formats and states
// the table's CHECKs, the API and the settings panel share, and the API's answer shape.

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** queued → building → ready → expired; building → failed after its last attempt. */
export const EXPORT_STATUSES = ['queued', 'building', 'ready', 'failed', 'expired'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** An export as GET /rest/v1/exports answers it. */
export interface ExportView {
  id: string;
  format: ExportFormat;
  /** The days asked for, YYYY-MM-DD (UTC), both included. */
  from: string;
  to: string;
  status: ExportStatus;
  progress: { done: number; total: number };
  /** Bytes, while ready. */
  size: number | null;
  fileName: string;
  createdAt: string;
  readyAt: string | null;
  expiresAt: string | null;
  /** While ready. */
  downloadUrl: string | null;
}

/** A day as YYYY-MM-DD. */
export const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
