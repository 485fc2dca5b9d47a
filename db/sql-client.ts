import type Database from 'better-sqlite3';
import { access, inTransaction, transaction } from './access.ts';
import type { Db } from './client.ts';
import type { Postgres } from './postgres.ts';

// The one way a repository runs SQL on either engine (issue 17): the statement's text (portable
// SQL, SQLite's parameter style) and its arguments, answered asynchronously. On SQLite each text
// is prepared once and cached, and runs through the connection's gate (db/access.ts); on
// PostgreSQL it is rewritten once (db/sql-text.ts) and runs on the pool, or on the connection of
// the transaction this async context is in.

export type SqlDialect = 'sqlite' | 'postgres';

export interface SqlClient {
  readonly dialect: SqlDialect;
  /** Every row. `args`: the `?` values in order, or one object for `@name` parameters. */
  all<R>(sql: string, args?: readonly unknown[]): Promise<R[]>;
  /** The first row, or undefined. */
  get<R>(sql: string, args?: readonly unknown[]): Promise<R | undefined>;
  /** How many rows an INSERT, UPDATE or DELETE changed. */
  run(sql: string, args?: readonly unknown[]): Promise<{ changes: number }>;
  /** Statements without parameters, separated by semicolons. */
  exec(sql: string): Promise<void>;
  /** `body` as one transaction (immediate on SQLite, serializable and retried on PostgreSQL). */
  transaction<T>(body: (afterCommit: (run: () => void) => void) => Promise<T>): Promise<T>;
  inTransaction(): boolean;
}

/** better-sqlite3 binds no booleans; both engines store them as 1 and 0. */
const bindable = (args: readonly unknown[]) =>
  args.map((value) =>
    typeof value === 'boolean'
      ? Number(value)
      : value && typeof value === 'object' && !Buffer.isBuffer(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeof v === 'boolean' ? Number(v) : v]))
        : value,
  );

export function sqliteClient(db: Db): SqlClient {
  const statements = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.$client.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    dialect: 'sqlite',
    all: (sql, args = []) => access(db, () => prepared(sql).all(...bindable(args)) as never),
    get: (sql, args = []) => access(db, () => prepared(sql).get(...bindable(args)) as never),
    run: (sql, args = []) => access(db, () => ({ changes: prepared(sql).run(...bindable(args)).changes })),
    exec: (sql) => access(db, () => void db.$client.exec(sql)),
    transaction: (body) => transaction(db, body),
    inTransaction: () => inTransaction(db),
  };
}

export function postgresClient(postgres: Postgres): SqlClient {
  return {
    dialect: 'postgres',
    all: (sql, args) => postgres.all(sql, args),
    get: (sql, args) => postgres.get(sql, args),
    run: (sql, args) => postgres.run(sql, args),
    exec: (sql) => postgres.exec(sql),
    transaction: (body) => postgres.transaction(body),
    inTransaction: () => postgres.inTransaction(),
  };
}

/** A unique index refused the row, on either engine (SQLite's extended code, PostgreSQL's 23505). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}
