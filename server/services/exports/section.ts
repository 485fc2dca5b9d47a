import type { SqlClient } from '../../../db/sql-client.ts';
import type { Cell } from './csv.ts';

// What one section of an export is: a query over one kind of the person's rows, read in chunks
// by row id, and how each row is written. Several sections may fill one file (fees: trade fees
// and network fees; feedback: given and received). Amounts are decimal text with their
// currency's fixed decimals, computed from integer minor units (never a float); times are ISO
// 8601 in UTC.

export const EXPORT_FILES = ['trades', 'ledger', 'fees', 'chat', 'feedback', 'deposits', 'sendouts'] as const;
export type ExportFile = (typeof EXPORT_FILES)[number];

/** Whose rows and which: dated from `fromAt` (inclusive) to `toAt` (exclusive), unix ms. */
export interface ExportRange {
  userId: number;
  fromAt: number;
  toAt: number;
}

export interface SectionRow {
  id: number;
}

export interface Section<R extends SectionRow = SectionRow> {
  file: ExportFile;
  count(sql: SqlClient, range: ExportRange): Promise<number>;
  /** Up to `limit` rows after row id `afterId`, by id. */
  page(sql: SqlClient, range: ExportRange, afterId: number, limit: number): Promise<R[]>;
  /** The row's cells in the order of its file's columns. */
  cells(row: R, range: ExportRange): Cell[];
}

/** ISO 8601 in UTC, or null for a moment that has not happened. */
export const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
export const iso = (ms: number) => new Date(Number(ms)).toISOString();

/** A section from its SQL: `where` takes the range's parameters, then the query adds id and limit. */
export function sqlSection<R extends SectionRow>(spec: {
  file: ExportFile;
  /** SELECT … FROM … WHERE (without the id bound): the first column is the row id as `id`. */
  select: string;
  /** The same FROM … WHERE for counting. */
  from: string;
  /** The row id column, for the cursor (`t.id`). */
  idColumn: string;
  params: (range: ExportRange) => unknown[];
  cells: (row: R, range: ExportRange) => Cell[];
}): Section<R> {
  const countText = `SELECT count(*) AS n ${spec.from}`;
  const pageText = `${spec.select} ${spec.from} AND ${spec.idColumn} > ? ORDER BY ${spec.idColumn} LIMIT ?`;
  return {
    file: spec.file,
    count: async (sql, range) => Number((await sql.get<{ n: number }>(countText, spec.params(range)))?.n ?? 0),
    page: (sql, range, afterId, limit) => sql.all<R>(pageText, [...spec.params(range), afterId, limit]),
    cells: spec.cells,
  };
}
