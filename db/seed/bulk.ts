import { getTableColumns } from 'drizzle-orm';
import type { AnySQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from '../database.ts';

// The seed writes thousands of rows on a fresh start (reference data, cities, price history): many
// rows per INSERT, so neither engine pays a round trip per row.

/** Parameters per statement: below SQLite's limit (32,766); PostgreSQL allows 65,535. */
const MAX_PARAMETERS = 30_000;

/** How many rows of `columns` columns one multi-row INSERT may carry (one parameter per column and row). */
export function rowsPerStatement(columns: number): number {
  return Math.max(1, Math.floor(MAX_PARAMETERS / columns));
}

/** `rows` in slices small enough for one multi-row INSERT into `table`. */
export function chunked<T>(table: SQLiteTable, rows: readonly T[]): T[][] {
  const size = rowsPerStatement(Object.keys(getTableColumns(table)).length);
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** Inserts `rows` into `table`, many to a statement. */
export async function insertMany<T extends SQLiteTable>(
  database: Database,
  table: T,
  rows: readonly T['$inferInsert'][],
): Promise<void> {
  for (const chunk of chunked(table, rows)) await database.run(database.orm.insert(table).values(chunk as never));
}

/**
 * Inserts `rows` into `table`, many to a statement, and answers each new row's id by its `key`
 * column (the rows' natural key: a code, a slug), not by row order.
 */
export async function insertKeyed<T extends SQLiteTable, K extends keyof T['_']['columns'] & string>(
  database: Database,
  table: T,
  key: K,
  rows: readonly T['$inferInsert'][],
): Promise<Map<string, number>> {
  const columns = getTableColumns(table) as Record<string, AnySQLiteColumn>;
  const ids = new Map<string, number>();
  for (const chunk of chunked(table, rows)) {
    const inserted = (await database.all(
      database.orm
        .insert(table)
        .values(chunk as never)
        .returning({ id: columns.id as AnySQLiteColumn, key: columns[key] as AnySQLiteColumn }),
    )) as { id: number; key: string }[];
    for (const row of inserted) ids.set(row.key, row.id);
  }
  return ids;
}

/**
 * On PostgreSQL, moves the identity sequence of each table past the ids the seed wrote into it
 * explicitly, so the next row the product inserts gets a free id (SQLite needs nothing: its next
 * id follows the largest). A table whose key is no identity column has no sequence, and an empty
 * table has no largest id: nothing happens. The key is `id` unless named (`{ table, column }`).
 */
export async function moveIdentitiesPastSeededIds(
  database: Database,
  tables: readonly (string | { table: string; column: string })[],
): Promise<void> {
  if (database.dialect !== 'postgres') return;
  for (const entry of tables) {
    const [name, column] = typeof entry === 'string' ? [entry, 'id'] : [entry.table, entry.column];
    await database.sql.get(
      `SELECT setval(pg_get_serial_sequence('${name}', '${column}'), (SELECT max(${column}) FROM ${name})) AS value`,
    );
  }
}
