import { randomBytes, randomUUID } from 'node:crypto';
import { copyFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inject } from 'vitest';
import { closeDatabase, type Db, openDatabase } from '../../db/client.ts';
import { type Database, sqliteDatabase } from '../../db/database.ts';
import { openPostgresDatabase } from '../../db/database-postgres.ts';
import { postgresUrlFor } from './postgres.ts';
import { testDialect } from './test-dialect.ts';

// Each test gets its own database, copied from the run's migrated and seeded template
// (tests/support/global-setup*.ts), so no test sees another's writes. The engine is the test
// project's (vitest.config.ts): SQLite's projects copy a file, PostgreSQL's clone a template
// database.

export interface TestDb {
  db: Database;
  /** How the server processes of a test reach this database: a SQLite path or a postgres:// URL. */
  url: string;
  close(): Promise<void>;
}

/** A private copy of the migrated, seeded template, on the engine of this test project. */
export async function createTestDb(): Promise<TestDb> {
  if (testDialect() === 'postgres') return createPostgresCopy();
  const sqlite = createSqliteTestDb();
  return { db: sqliteDatabase(sqlite.db), url: sqlite.path, close: async () => sqlite.close() };
}

/**
 * A private SQLite copy whatever the project's engine, for what only SQLite has (the browser tests'
 * server reads the file beside it; durability and schema checks of SQLite itself).
 */
export function createSqliteTestDb(): { db: Db; path: string; close(): void } {
  const template = inject('templateDbPath');
  const path = join(dirname(template), `${randomUUID()}.db`);
  copyFileSync(template, path);
  // Thrown away after the test: nothing to keep across a power loss, and ~1 ms less per commit.
  // The browser tests' server opens its own connection with the production setting.
  const db = openDatabase(path, { synchronous: 'NORMAL' });
  return {
    db,
    path,
    close() {
      closeDatabase(db);
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    },
  };
}

// Cloning a template takes ~0.2 s and dropping a database as long; each worker keeps the next
// clone ready while a test runs and drops used ones without making the next test wait. The run's
// global teardown drops whatever is left (a killed worker's clones too: they share the run's prefix).
let spare: Promise<string> | undefined;
let cloned = 0;

async function cloneTemplate(): Promise<string> {
  const template = inject('templatePostgresDb');
  const name = `${template}_${process.pid}_${++cloned}_${randomBytes(2).toString('hex')}`;
  const admin = openPostgresDatabase(postgresUrlFor('postgres'), 1);
  try {
    await admin.sql.exec(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.close();
  }
  return name;
}

async function dropDatabase(name: string): Promise<void> {
  const admin = openPostgresDatabase(postgresUrlFor('postgres'), 1);
  try {
    await admin.sql.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.close();
  }
}

async function createPostgresCopy(): Promise<TestDb> {
  const name = await (spare ?? cloneTemplate());
  spare = cloneTemplate();
  // A failed spare is retried by the next test's own clone, not reported twice.
  spare.catch(() => {
    spare = undefined;
  });
  // Thrown away after the test, like SQLite's copies (synchronous=NORMAL): a commit need not wait
  // for the disk. Worker threads and servers that open the URL get the same setting.
  const url = `${postgresUrlFor(name)}?options=${encodeURIComponent('-c synchronous_commit=off')}`;
  // Small pools: two workers with several test databases each share one server.
  const db = openPostgresDatabase(url, 4);
  let closed = false;
  return {
    db,
    url,
    // Twice is harmless, as on SQLite (a test's afterEach may close what the test closed).
    async close() {
      if (closed) return;
      closed = true;
      await db.close();
      void dropDatabase(name).catch(() => {});
    },
  };
}
