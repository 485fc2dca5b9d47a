import { DrizzleQueryError } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Db } from './client.ts';
import type { Database } from './database.ts';
import { runPostgresMigrations } from './migrate-postgres.ts';
import { openPostgres, type Postgres } from './postgres.ts';
import * as schema from './schema/index.ts';
import { postgresClient } from './sql-client.ts';

// The Database of db/database.ts on PostgreSQL: loaded only by a process whose DATABASE_URL is
// postgres://…, whose tables db/schema/dialect.ts builds with pg-core.

interface PostgresQuery {
  then: PromiseLike<unknown>['then'];
  prepare(name: string): { execute(values?: Record<string, unknown>): Promise<unknown> };
}

/** What a Drizzle query answered on node-postgres: rows for a select or `returning`, a result otherwise. */
const rowsOf = (answer: unknown): unknown[] =>
  Array.isArray(answer) ? answer : ((answer as { rows?: unknown[] }).rows ?? []);
const changesOf = (answer: unknown): { changes: number } => ({
  changes: Array.isArray(answer) ? answer.length : ((answer as pg.QueryResult).rowCount ?? 0),
});

/**
 * Drizzle wraps a failed statement in its DrizzleQueryError; the driver's error (with its SQLSTATE
 * `code`) is the cause. Rethrown as the driver threw it, as SQLite's path and `database.sql` do, so
 * the transaction retry sees a serialization failure (40001) and callers see constraint codes.
 */
async function driverErrors<T>(execute: () => Promise<T>): Promise<T> {
  try {
    return await execute();
  } catch (error) {
    const cause = error instanceof DrizzleQueryError ? error.cause : undefined;
    throw typeof (cause as { code?: unknown } | undefined)?.code === 'string' ? cause : error;
  }
}

export function postgresDatabase(postgres: Postgres): Database {
  // Drizzle's statements go to the connection of this context's transaction, else to the pool.
  const client = {
    query: (...args: unknown[]) => {
      const connection = postgres.connection();
      return (connection.query as (...a: unknown[]) => unknown).apply(connection, args);
    },
  };
  const orm = drizzlePostgres({ client: client as unknown as pg.Pool, schema }) as unknown as Db;
  let statements = 0;
  const run = (query: unknown) => driverErrors(async () => (await (query as PostgresQuery)) as unknown);
  return {
    dialect: 'postgres',
    sql: postgresClient(postgres),
    orm,
    all: async (query) => rowsOf(await run(query)) as never,
    get: async (query) => rowsOf(await run(query))[0] as never,
    run: async (query) => changesOf(await run(query)),
    prepare(query) {
      const prepared = (query as unknown as PostgresQuery).prepare(`q${++statements}`);
      return {
        all: async (values) => rowsOf(await driverErrors(() => prepared.execute(values))) as never,
        get: async (values) => rowsOf(await driverErrors(() => prepared.execute(values)))[0] as never,
        run: async (values) => changesOf(await driverErrors(() => prepared.execute(values))),
      };
    },
    migrate: (folder) => runPostgresMigrations(postgres, folder ? `${folder}-pg` : undefined),
    async exclusively(name, body) {
      const holder = await postgres.pool.connect();
      try {
        await holder.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
        return await body();
      } finally {
        await holder.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).catch(() => {});
        holder.release();
      }
    },
    close: () => postgres.close(),
  };
}

export function openPostgresDatabase(url: string, poolSize = 10): Database {
  return postgresDatabase(openPostgres(url, { max: poolSize }));
}
