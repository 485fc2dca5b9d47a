import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { AnySQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from './client.ts';

// One row by key, for the lookups every signed-in request makes. Drizzle writes the SQL; the
// statement runs on better-sqlite3 directly and each column is decoded by its own
// mapFromDriverValue, as Drizzle does. Drizzle's generic row mapping and placeholder filling cost
// about as much as SQLite's own work on such a lookup (docs/decisions/037-users-me-performance.md, 2026-11-22).

type Columns = Record<string, AnySQLiteColumn>;

/** `columns` defaults to all of the table's, like `select()`. Undefined when no row matches. */
export function lookup<TTable extends SQLiteTable, TColumns extends Columns = TTable['_']['columns']>(
  db: Db,
  table: TTable,
  key: AnySQLiteColumn,
  columns?: TColumns,
): (value: string | number) => SelectResultFields<TColumns> | undefined {
  const fields: Columns = columns ?? getTableColumns(table);
  const names = Object.keys(fields);
  const decoders = Object.values(fields);
  const query = db
    .select(fields)
    .from(table as SQLiteTable)
    .where(eq(key, sql.placeholder('key')))
    .toSQL();
  const statement = db.$client.prepare(query.sql).raw(true);
  return (value) => {
    const row = statement.get(value) as unknown[] | undefined;
    if (!row) return undefined;
    const result: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      const raw = row[i];
      result[names[i] as string] = raw === null ? null : (decoders[i] as AnySQLiteColumn).mapFromDriverValue(raw);
    }
    return result as SelectResultFields<TColumns>;
  };
}
