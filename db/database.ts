import { access } from './access.ts';
import { closeDatabase, type Db, type OpenOptions, openDatabase } from './client.ts';
import { runMigrations } from './migrate.ts';
import { type SqlClient, type SqlDialect, sqliteClient } from './sql-client.ts';

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
  /**
   * Applies the committed migrations this database lacks: `folder` is SQLite's (db/migrations or
   * the build's copy); PostgreSQL's sit beside it with `-pg` appended.
   */
  migrate(folder?: string): Promise<void>;
  /**
   * `body` while holding a lock named `name` across every process of the deployment (a PostgreSQL
   * advisory lock on a connection of its own, so the pool needs two); on SQLite, one process, as is.
   */
  exclusively<T>(name: string, body: () => Promise<T>): Promise<T>;
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
    migrate: (folder) => runMigrations(db, folder),
    exclusively: (_name, body) => body(),
    close: async () => closeDatabase(db),
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

/**
 * The database DATABASE_URL names. PostgreSQL's driver is loaded only when asked for, so a SQLite
 * process (and each of the tests' worker threads) never pays for it.
 */
export async function connectDatabase(
  value: string,
  options: OpenOptions & { poolSize?: number } = {},
): Promise<Database> {
  const target = parseDatabaseUrl(value);
  if (target.kind === 'sqlite') return sqliteDatabase(openDatabase(target.path, options));
  const { openPostgresDatabase } = await import('./database-postgres.ts');
  return openPostgresDatabase(target.url, options.poolSize ?? 10);
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
