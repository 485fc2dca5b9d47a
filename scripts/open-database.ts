import { closeDatabase, openDatabase } from '../db/client.ts';
import { asDatabase, type Database, parseDatabaseUrl } from '../db/database.ts';
import { postgresDatabase } from '../db/database-postgres.ts';
import { runMigrations } from '../db/migrate.ts';
import { runPostgresMigrations } from '../db/migrate-postgres.ts';
import { openPostgres } from '../db/postgres.ts';

// What the command-line scripts (db-migrate, db-seed, admin) run on: the database DATABASE_URL
// names, either engine, with its pending migrations applied. The schema's tables are built for
// the engine DATABASE_URL in the environment names (db/schema/dialect.ts).

export interface OpenedDatabase {
  database: Database;
  close(): Promise<void>;
}

export async function openMigrated(url: string): Promise<OpenedDatabase> {
  const target = parseDatabaseUrl(url);
  if (target.kind === 'postgres') {
    const postgres = openPostgres(target.url, { max: 2 });
    try {
      await runPostgresMigrations(postgres);
    } catch (error) {
      await postgres.close();
      throw error;
    }
    return { database: postgresDatabase(postgres), close: () => postgres.close() };
  }
  const db = openDatabase(target.path);
  await runMigrations(db);
  return { database: asDatabase(db), close: async () => closeDatabase(db) };
}

export { displayUrl } from '../db/display-url.ts';
