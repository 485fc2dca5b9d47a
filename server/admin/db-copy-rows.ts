import type { Database } from '../../db/database.ts';
import { rowsPerStatement } from '../../db/seed/bulk.ts';
import type { TablePlan } from './db-copy-plan.ts';
import { CommandError } from './user-parts.ts';

// The rows of one table from the SQLite source into the PostgreSQL target, a batch at a time:
// read in rowid order (keyset, so a large table costs no OFFSET scans), written as multi-row
// INSERTs as large as the parameter limit allows. Values go over unchanged, because the schema
// gives them the same representation on both engines (db/schema/dialect.ts): booleans are 0/1
// (SMALLINT), JSON is TEXT, integers are BIGINT, BLOBs arrive as Buffers, which pg sends as bytea.

const ROWID = 'coinfair_copy_rowid';
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * better-sqlite3 answers an integer as a JavaScript number: past 2^53 it would arrive rounded and
 * PostgreSQL would store the rounded value without complaint. Refused instead, naming the row.
 */
function checkIntegers(plan: TablePlan, row: Record<string, unknown>): void {
  for (const column of plan.integerColumns) {
    const value = row[column];
    if (value === null || value === undefined || typeof value === 'bigint') continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
      throw new CommandError(
        `${plan.name} (rowid ${String(row[ROWID])}): ${column} holds ${String(value)}, which is not an integer PostgreSQL would store exactly.`,
      );
    }
  }
}

function insertStatement(plan: TablePlan, rowCount: number): string {
  const row = `(${plan.columns.map(() => '?').join(', ')})`;
  return `INSERT INTO ${quote(plan.name)} (${plan.columns.map(quote).join(', ')}) VALUES ${Array(rowCount).fill(row).join(', ')}`;
}

/** Copies every row of `plan.name`; answers how many. Runs inside the caller's target transaction. */
export async function copyTable(source: Database, target: Database, plan: TablePlan): Promise<number> {
  const batch = rowsPerStatement(plan.columns.length);
  const select = `SELECT rowid AS ${ROWID}, ${plan.columns.map(quote).join(', ')} FROM ${quote(plan.name)}`;
  let copied = 0;
  let last: unknown;
  for (;;) {
    const rows =
      last === undefined
        ? await source.sql.all<Record<string, unknown>>(`${select} ORDER BY rowid LIMIT ?`, [batch])
        : await source.sql.all<Record<string, unknown>>(`${select} WHERE rowid > ? ORDER BY rowid LIMIT ?`, [
            last,
            batch,
          ]);
    if (rows.length === 0) return copied;
    const values: unknown[] = [];
    for (const row of rows) {
      checkIntegers(plan, row);
      for (const column of plan.columns) values.push(row[column]);
    }
    await target.sql.run(insertStatement(plan, rows.length), values);
    copied += rows.length;
    last = rows[rows.length - 1]?.[ROWID];
    if (rows.length < batch) return copied;
  }
}

/** `SELECT count(*)` of one table, as a number on either engine. */
export async function countRows(database: Database, table: string): Promise<number> {
  const row = await database.sql.get<{ n: number | string }>(`SELECT count(*) AS n FROM ${quote(table)}`);
  return Number(row?.n ?? 0);
}
