import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import type { ExportFormat, ExportStatus } from '../../../db/schema/index.ts';
import type { SqlClient } from '../../../db/sql-client.ts';

// What exports keep: the export rows (the job's state) and each chunk's rendered text until the
// file is written. Portable SQL, both engines. Every move of an export compares the state it read
// (status, section, cursor), so two processes that both think they lead never write a chunk twice.

export interface ExportRow {
  id: number;
  publicId: string;
  userId: number;
  userPublicId: string;
  username: string;
  format: ExportFormat;
  status: ExportStatus;
  fromDate: string;
  toDate: string;
  fromAt: number;
  toAt: number;
  locale: string;
  section: number;
  cursor: number;
  done: number;
  total: number;
  attempts: number;
  sizeBytes: number | null;
  createdAt: number;
  readyAt: number | null;
  expiresAt: number | null;
}

export interface NewExport {
  publicId: string;
  userId: number;
  format: ExportFormat;
  fromDate: string;
  toDate: string;
  fromAt: number;
  toAt: number;
  locale: string;
  at: number;
}

const COLUMNS = `e.id, e.public_id AS publicId, e.user_id AS userId, u.public_id AS userPublicId,
  u.username AS username, e.format, e.status, e.from_date AS fromDate, e.to_date AS toDate, e.from_at AS fromAt,
  e.to_at AS toAt, e.locale, e.section, e.cursor, e.done, e.total, e.attempts, e.size_bytes AS sizeBytes,
  e.created_at AS createdAt, e.ready_at AS readyAt, e.expires_at AS expiresAt
  FROM data_exports e JOIN users u ON u.id = e.user_id`;

/** The integer columns as numbers (PostgreSQL's BIGINT arrives as text through some drivers). */
const numeric = (row: ExportRow): ExportRow => ({
  ...row,
  id: Number(row.id),
  userId: Number(row.userId),
  fromAt: Number(row.fromAt),
  toAt: Number(row.toAt),
  section: Number(row.section),
  cursor: Number(row.cursor),
  done: Number(row.done),
  total: Number(row.total),
  attempts: Number(row.attempts),
  sizeBytes: row.sizeBytes === null ? null : Number(row.sizeBytes),
  createdAt: Number(row.createdAt),
  readyAt: row.readyAt === null ? null : Number(row.readyAt),
  expiresAt: row.expiresAt === null ? null : Number(row.expiresAt),
});

type One = (where: string, args: unknown[]) => Promise<ExportRow | undefined>;

/** What requests read and write: a new export, one, a person's list and how many they have open. */
function requestQueries(sql: SqlClient, one: One) {
  return {
    insert: (e: NewExport) =>
      sql.run(
        `INSERT INTO data_exports (public_id, user_id, format, status, from_date, to_date, from_at, to_at, locale,
          created_at, updated_at) VALUES (?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?)`,
        [e.publicId, e.userId, e.format, e.fromDate, e.toDate, e.fromAt, e.toAt, e.locale, e.at, e.at],
      ),
    /** The person's export by its public id; another person's is not found. */
    mine: (userId: number, publicId: string) => one('e.public_id = ? AND e.user_id = ?', [publicId, userId]),
    byId: (id: number) => one('e.id = ?', [id]),
    /** The person's latest `limit` exports, newest first. */
    listMine: async (userId: number, limit: number) =>
      (
        await sql.all<ExportRow>(`SELECT ${COLUMNS} WHERE e.user_id = ? ORDER BY e.id DESC LIMIT ?`, [userId, limit])
      ).map(numeric),
    unfinishedOf: async (userId: number) =>
      Number(
        (
          await sql.get<{ n: number }>(
            "SELECT count(*) AS n FROM data_exports WHERE user_id = ? AND status IN ('queued', 'building')",
            [userId],
          )
        )?.n ?? 0,
      ),
  };
}

/** What the job reads and writes as it builds, finishes, fails and expires exports. */
function buildQueries(sql: SqlClient, one: One) {
  return {
    /** The oldest export waiting for work. */
    nextOpen: () => one("e.status IN ('queued', 'building') ORDER BY e.id LIMIT 1", []),

    /** queued → building with the rows counted; false when another run started it first. */
    start: async (id: number, total: number, at: number) =>
      (
        await sql.run(
          "UPDATE data_exports SET status = 'building', total = ?, updated_at = ? WHERE id = ? AND status = 'queued'",
          [total, at, id],
        )
      ).changes === 1,
    /** Moves the build from where it was read to where a chunk leaves it; false when it moved already. */
    advance: async (
      e: { id: number; section: number; cursor: number },
      next: { section: number; cursor: number; rows: number },
      at: number,
    ) =>
      (
        await sql.run(
          `UPDATE data_exports SET section = ?, cursor = ?, done = done + ?, updated_at = ?
            WHERE id = ? AND status = 'building' AND section = ? AND cursor = ?`,
          [next.section, next.cursor, next.rows, at, e.id, e.section, e.cursor],
        )
      ).changes === 1,
    addPart: (exportId: number, section: number, firstId: number, rows: number, body: string) =>
      sql.run('INSERT INTO data_export_parts (export_id, section, first_id, rows, body) VALUES (?, ?, ?, ?, ?)', [
        exportId,
        section,
        firstId,
        rows,
        body,
      ]),
    /** Up to `limit` parts of one section after `afterFirstId`, in order. */
    parts: (exportId: number, section: number, afterFirstId: number, limit: number) =>
      sql.all<{ firstId: number; body: string }>(
        `SELECT first_id AS firstId, body FROM data_export_parts WHERE export_id = ? AND section = ? AND first_id > ?
          ORDER BY first_id LIMIT ?`,
        [exportId, section, afterFirstId, limit],
      ),
    dropParts: (exportId: number) => sql.run('DELETE FROM data_export_parts WHERE export_id = ?', [exportId]),
    /** building → ready (done is then the total: the rows the file holds); false when it moved already. */
    finish: async (id: number, section: number, size: number, at: number, expiresAt: number) =>
      (
        await sql.run(
          `UPDATE data_exports SET status = 'ready', total = done, size_bytes = ?, ready_at = ?, expires_at = ?,
            updated_at = ? WHERE id = ? AND status = 'building' AND section = ?`,
          [size, at, expiresAt, at, id, section],
        )
      ).changes === 1,
    /** One more failed attempt; the `maxAttempts`th makes the export failed. */
    failed: (id: number, maxAttempts: number, at: number) =>
      sql.run(
        `UPDATE data_exports SET attempts = attempts + 1, updated_at = ?,
          status = CASE WHEN attempts + 1 >= ? THEN 'failed' ELSE status END
          WHERE id = ? AND status IN ('queued', 'building')`,
        [at, maxAttempts, id],
      ),
    /** Ready exports past their expiry, oldest first. */
    expiredReady: (now: number, limit: number) =>
      sql
        .all<ExportRow>(
          `SELECT ${COLUMNS} WHERE e.status = 'ready' AND e.expires_at <= ? ORDER BY e.expires_at LIMIT ?`,
          [now, limit],
        )
        .then((rows) => rows.map(numeric)),
    markExpired: (id: number, at: number) =>
      sql.run("UPDATE data_exports SET status = 'expired', updated_at = ? WHERE id = ? AND status = 'ready'", [at, id]),
  };
}

export function createExportsRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const { sql } = database;
  const one: One = async (where, args) => {
    const row = await sql.get<ExportRow>(`SELECT ${COLUMNS} WHERE ${where}`, args);
    return row ? numeric(row) : undefined;
  };
  return { db: database, sql, ...requestQueries(sql, one), ...buildQueries(sql, one) };
}

export type ExportsRepository = ReturnType<typeof createExportsRepository>;
