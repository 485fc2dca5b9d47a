import { fileURLToPath } from 'node:url';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { access } from './access.ts';
import type { Db } from './client.ts';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Applies the committed drizzle-kit migrations not yet applied to this SQLite database
 * (PostgreSQL's: db/migrate-postgres.ts). Drizzle's SQLite migrator runs synchronously and opens
 * its own transaction, so it waits for the connection's gate like any statement (db/access.ts).
 *
 * Foreign keys are off while it runs and checked once it is done: SQLite changes a CHECK only by
 * rebuilding the table (0021 rebuilds ledger_accounts), and dropping a parent table with foreign
 * keys on would delete through to its children. The PRAGMA cannot change inside a transaction,
 * which is why it is here and not in the migration. Any orphan left behind stops the start.
 */
export async function runMigrations(db: Db, migrationsFolder = MIGRATIONS_FOLDER): Promise<void> {
  await access(db, () => {
    const client = db.$client;
    client.pragma('foreign_keys = OFF');
    try {
      migrate(db, { migrationsFolder });
      const orphans = client.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
      if (orphans.length > 0) {
        const first = orphans[0] as { table: string; rowid: number; parent: string };
        throw new Error(
          `migrations left ${orphans.length} row(s) without their parent (first: ${first.table} row ${first.rowid} → ${first.parent})`,
        );
      }
    } finally {
      client.pragma('foreign_keys = ON');
    }
  });
}
