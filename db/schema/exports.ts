import { sql } from 'drizzle-orm';
import { EXPORT_FORMATS, EXPORT_STATUSES } from '../../src/lib/shared/exports.ts';
import { check, index, inList, integer, primaryKey, table, text } from './dialect.ts';
import { users } from './users.ts';

export {
  EXPORT_FORMATS,
  EXPORT_STATUSES,
  type ExportFormat,
  type ExportStatus,
} from '../../src/lib/shared/exports.ts';

// A person's full export (issue 24; docs/decisions/158-data-exports.md): everything that is theirs
// for a date range, as a ZIP of CSV files or one JSON document, built in the background by the
// jobs' leader in chunks. The row is the job's state (where it stopped, how far it got), so a
// restart or a new leader continues where the last one stopped; each chunk's rendered text waits
// in `data_export_parts` until the file is written under UPLOADS_DIR/exports/.

export const dataExports = table(
  'data_exports',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** `exp_…`: the id in the API and the file's name. */
    publicId: text('public_id').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    format: text('format', { enum: EXPORT_FORMATS }).notNull(),
    status: text('status', { enum: EXPORT_STATUSES }).notNull(),
    /** The days asked for, `YYYY-MM-DD` (UTC), as the person chose them. */
    fromDate: text('from_date').notNull(),
    toDate: text('to_date').notNull(),
    /** Unix ms: rows dated from `from_at` (inclusive) to `to_at` (exclusive, never after the request). */
    fromAt: integer('from_at').notNull(),
    toAt: integer('to_at').notNull(),
    /** The README's and the notification's language. */
    locale: text('locale').notNull(),
    /** Where the build stands: the section (sections.ts, by index) and the last row id written in it. */
    section: integer('section').notNull().default(0),
    cursor: integer('cursor').notNull().default(0),
    /** Rows written so far, and the rows counted when the build started. */
    done: integer('done').notNull().default(0),
    total: integer('total').notNull().default(0),
    /** Steps that threw; the third makes the export `failed`. */
    attempts: integer('attempts').notNull().default(0),
    /** Set once ready: the file's size in bytes. */
    sizeBytes: integer('size_bytes'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    readyAt: integer('ready_at'),
    /** Unix ms after which the download answers 410 and the expiry sweep deletes the file. */
    expiresAt: integer('expires_at'),
  },
  (t) => [
    index('data_exports_user_idx').on(t.userId, t.id),
    // The job's work list, oldest first.
    index('data_exports_open_idx').on(t.id).where(sql`${t.status} IN ('queued', 'building')`),
    index('data_exports_expiry_idx').on(t.expiresAt).where(sql`${t.status} = 'ready'`),
    check('data_exports_status_check', inList('status', EXPORT_STATUSES)),
    check('data_exports_format_check', inList('format', EXPORT_FORMATS)),
    check('data_exports_range_check', sql`${t.fromAt} < ${t.toAt}`),
    check('data_exports_progress_check', sql`${t.done} >= 0 AND ${t.total} >= 0 AND ${t.attempts} >= 0`),
    check(
      'data_exports_ready_check',
      sql`${t.status} <> 'ready' OR (${t.sizeBytes} IS NOT NULL AND ${t.expiresAt} IS NOT NULL AND ${t.readyAt} IS NOT NULL)`,
    ),
  ],
);

/**
 * One chunk of an export as rendered text (CSV lines, or JSON values separated by commas),
 * written in the same transaction that moves the export's cursor past its rows; deleted when
 * the file is written.
 */
export const dataExportParts = table(
  'data_export_parts',
  {
    exportId: integer('export_id')
      .notNull()
      .references(() => dataExports.id, { onDelete: 'cascade' }),
    section: integer('section').notNull(),
    /** The first row id of the chunk: parts are read back in (section, first_id) order. */
    firstId: integer('first_id').notNull(),
    rows: integer('rows').notNull(),
    body: text('body').notNull(),
  },
  (t) => [primaryKey({ columns: [t.exportId, t.section, t.firstId] })],
);
