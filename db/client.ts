import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import * as schema from './schema/index.ts';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export interface OpenOptions {
  /**
   * FULL (the default): every commit is on disk before it is acknowledged, so a conversion or a
   * release answered "done" survives the machine losing power, not only the process dying (issue
   * 16; docs/decisions/084-sqlite-synchronous-full.md has what it costs). NORMAL: only for throwaway test databases.
   */
  synchronous?: 'FULL' | 'NORMAL';
}

/**
 * Opens the SQLite file with the settings every connection needs: WAL so readers never wait for
 * the writer, durable commits, foreign keys enforced, a busy timeout instead of instant
 * SQLITE_BUSY under load.
 */
export function openDatabase(path: string, { synchronous = 'FULL' }: OpenOptions = {}): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${synchronous}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return drizzle({ client: sqlite, schema }) as Db;
}

export function closeDatabase(db: Db): void {
  if (db.$client.open) db.$client.close();
}
