import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { access } from './access.ts';
import { closeDatabase, type Db, type OpenOptions, openDatabase } from './client.ts';
import { openPostgres, type Postgres } from './postgres.ts';
import * as schema from './schema/index.ts';
import { postgresClient, type SqlClient, type SqlDialect, sqliteClient } from './sql-client.ts';

// The database a process runs on (issue 17), whichever engine DATABASE_URL names: a SQLite file
// (the embedded default) or PostgreSQL. Repositories get this and use one of two faces:
//
// - `sql`: portable SQL text with SQLite-style parameters (db/sql-client.ts);
// - `orm`: Drizzle's query builder over the tables of db/schema/ (typed as SQLite's, built for
//   this engine by db/schema/dialect.ts), executed with `all`, `get`, `run` or `prepare` below,
//   which run it through SQLite's gate or on PostgreSQL's pool or transaction connection.

/** A Drizzle query as SQLite's builder types it: what the execution helpers accept. */
interface SqliteQuery<T> {
  all(): T[];
  get(): T | undefined;
  run(): { changes: number };
  prepare(): {
    all(values?: Record<string, unknown>): T[];
    get(values?: Record<string, unknown>): T | undefined;
    run(values?: Record<string, unknown>): { changes: number };
  };
}

type RowsOf<Q> = Q extends { all(): (infer T)[] } ? T : never;

export interface PreparedQuery<T> {
  all(values?: Record<string, unknown>): Promise<T[]>;
  get(values?: Record<string, unknown>): Promise<T | undefined>;
  run(values?: Record<string, unknown>): Promise<{ changes: number }>;
}

export interface Database {
  readonly dialect: SqlDialect;
  readonly sql: SqlClient;
  /** Drizzle's builder for this engine. Never execute its queries directly: use the helpers. */
  readonly orm: Db;
  all<Q extends Pick<SqliteQuery<unknown>, 'all'>>(query: Q): Promise<RowsOf<Q>[]>;
  get<Q extends Pick<SqliteQuery<unknown>, 'all'>>(query: Q): Promise<RowsOf<Q> | undefined>;
  run(query: { run(): unknown }): Promise<{ changes: number }>;
  /** Built once, run many times with `sql.placeholder(name)` values. */
  prepare<Q extends { run(): unknown }>(query: Q): PreparedQuery<RowsOf<Q>>;
  close(): Promise<void>;
}

export function sqliteDatabase(db: Db): Database {
  return {
    dialect: 'sqlite',
    sql: sqliteClient(db),
    orm: db,
    all: (query) => access(db, () => query.all() as never),
    get: (query) => access(db, () => (query as unknown as SqliteQuery<never>).get()),
    run: (query) => access(db, () => ({ changes: (query.run() as { changes: number }).changes })),
    prepare(query) {
      const prepared = (query as unknown as SqliteQuery<never>).prepare();
      return {
        all: (values) => access(db, () => prepared.all(values)),
        get: (values) => access(db, () => prepared.get(values)),
        run: (values) => access(db, () => ({ changes: prepared.run(values).changes })),
      };
    },
    close: async () => closeDatabase(db),
  };
}

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
  const run = async (query: unknown) => (await (query as PostgresQuery)) as unknown;
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
        all: async (values) => rowsOf(await prepared.execute(values)) as never,
        get: async (values) => rowsOf(await prepared.execute(values))[0] as never,
        run: async (values) => changesOf(await prepared.execute(values)),
      };
    },
    close: () => postgres.close(),
  };
}

export type DatabaseUrl = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** DATABASE_URL as the engine it names: `postgres://…` (or `postgresql://`), else a SQLite file path. */
export function parseDatabaseUrl(value: string): DatabaseUrl {
  if (/^postgres(ql)?:\/\//i.test(value)) return { kind: 'postgres', url: value };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new Error('must be a SQLite file path or a postgres:// URL');
  }
  return { kind: 'sqlite', path: value.replace(/^sqlite:(\/\/)?/i, '') };
}

export function connectDatabase(value: string, options: OpenOptions & { poolSize?: number } = {}): Database {
  const target = parseDatabaseUrl(value);
  if (target.kind === 'postgres') return postgresDatabase(openPostgres(target.url, { max: options.poolSize ?? 10 }));
  return sqliteDatabase(openDatabase(target.path, options));
}

/** While areas move from the SQLite connection to Database: either, as a Database (one per connection). */
export type DatabaseLike = Db | Database;
const bridged = new WeakMap<Db, Database>();
export function asDatabase(db: DatabaseLike): Database {
  if ('orm' in db && 'sql' in db) return db as Database;
  let database = bridged.get(db as Db);
  if (!database) {
    database = sqliteDatabase(db as Db);
    bridged.set(db as Db, database);
  }
  return database;
}
