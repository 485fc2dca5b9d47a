import { type SQL, sql } from 'drizzle-orm';
import * as pgCore from 'drizzle-orm/pg-core';
import * as sqliteCore from 'drizzle-orm/sqlite-core';

// One schema, two engines (issue 17). The table files are written once with these builders,
// which are SQLite's (their TypeScript types are SQLite's, so every query is typed once) and, in a
// process whose database is PostgreSQL, build the same tables with pg-core: drizzle-kit generates
// each dialect's migrations from the same files (drizzle.config.ts reads COINFAIR_DIALECT), and
// the server's statements run unchanged on either.
//
// Types chosen so the repositories' SQL means the same on both (docs/decisions, "One schema, two
// engines"): integers are BIGINT (amounts in satoshi reach past 2^31), booleans are SMALLINT 0/1
// (SQLite's own representation, so `flag = 1` in SQL works on both), JSON is TEXT (parsed here
// as on SQLite), REAL is DOUBLE PRECISION, and an autoincrement key is an identity column.

export type SchemaDialect = 'sqlite' | 'postgres';

/** The engine this process builds its tables for: PostgreSQL when DATABASE_URL (or COINFAIR_DIALECT) says so. */
export function schemaDialect(env: NodeJS.ProcessEnv = process.env): SchemaDialect {
  if (env.COINFAIR_DIALECT === 'postgres' || env.COINFAIR_DIALECT === 'sqlite') return env.COINFAIR_DIALECT;
  return /^postgres(ql)?:\/\//.test(env.DATABASE_URL ?? '') ? 'postgres' : 'sqlite';
}

const onPostgres = schemaDialect() === 'postgres';

type Builder = Record<string, (...args: unknown[]) => unknown>;

const smallintBoolean = pgCore.customType<{ data: boolean; driverData: number }>({
  dataType: () => 'smallint',
  toDriver: (value) => (value ? 1 : 0),
  fromDriver: (value) => Number(value) === 1,
});

const textJson = pgCore.customType<{ data: unknown; driverData: string }>({
  dataType: () => 'text',
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => JSON.parse(value),
});

/** SQLite's `integer(name, { mode })` as the PostgreSQL column of the same meaning. */
function pgInteger(name: string, config?: { mode?: string }): unknown {
  if (config?.mode === 'boolean') {
    const column = smallintBoolean(name) as unknown as Builder;
    const setDefault = column.default?.bind(column) as (value: unknown) => unknown;
    // drizzle-kit writes a boolean default as `false`, which a SMALLINT column refuses.
    column.default = (value: unknown) => setDefault(typeof value === 'boolean' ? Number(value) : value);
    return column;
  }
  const column = pgCore.bigint(name, { mode: 'number' }) as unknown as Builder;
  const primaryKey = column.primaryKey?.bind(column) as () => unknown;
  column.primaryKey = (options?: unknown) => {
    primaryKey();
    if ((options as { autoIncrement?: boolean } | undefined)?.autoIncrement) {
      (column.generatedByDefaultAsIdentity as () => unknown)();
    }
    return column;
  };
  return column;
}

function pgText(name: string, config?: { mode?: string; enum?: readonly string[] }): unknown {
  if (config?.mode === 'json') return textJson(name);
  return config?.enum ? pgCore.text(name, { enum: config.enum as [string, ...string[]] }) : pgCore.text(name);
}

const pick = <T>(sqlite: T, postgres: unknown): T => (onPostgres ? (postgres as T) : sqlite);

export const table = pick(sqliteCore.sqliteTable, pgCore.pgTable);
export const integer = pick(sqliteCore.integer, pgInteger);
export const text = pick(sqliteCore.text, pgText);
export const real = pick(sqliteCore.real, (name: string) => pgCore.doublePrecision(name));
export const index = pick(sqliteCore.index, pgCore.index);
export const uniqueIndex = pick(sqliteCore.uniqueIndex, pgCore.uniqueIndex);
/**
 * A unique key another table's foreign key points at: an index on SQLite; on PostgreSQL a table
 * constraint, because drizzle-kit adds foreign keys before indexes and PostgreSQL needs the key first.
 */
export const uniqueKey = pick(sqliteCore.uniqueIndex, pgCore.unique);
export const check = pick(sqliteCore.check, pgCore.check);
export const primaryKey = pick(sqliteCore.primaryKey, pgCore.primaryKey);
export const foreignKey = pick(sqliteCore.foreignKey, pgCore.foreignKey);
export type Column = sqliteCore.SQLiteColumn;

/**
 * A whole number in an integer column: SQLite's INTEGER affinity would store 1.5 as REAL, so it
 * checks the stored type; a PostgreSQL BIGINT cannot hold anything else.
 */
export const isInteger = (column: Column): SQL => (onPostgres ? sql`true` : sql`typeof(${column}) = 'integer'`);

/** `column IN ('a', 'b')` for a CHECK over a closed list of values (the schema's own constants). */
export const inList = (column: string, values: readonly string[]): SQL =>
  sql.raw(`${column} IN (${values.map((value) => `'${value}'`).join(', ')})`);
