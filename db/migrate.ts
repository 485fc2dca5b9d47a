import { fileURLToPath } from 'node:url';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { access } from './access.ts';
import type { Db } from './client.ts';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Applies the committed drizzle-kit migrations not yet applied to this SQLite database
 * (PostgreSQL's: db/migrate-postgres.ts). Drizzle's SQLite migrator runs synchronously and opens
 * its own transaction, so it waits for the connection's gate like any statement (db/access.ts).
 */
export async function runMigrations(db: Db, migrationsFolder = MIGRATIONS_FOLDER): Promise<void> {
  await access(db, () => migrate(db, { migrationsFolder }));
}
