import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { Postgres } from './postgres.ts';

// The PostgreSQL twin of db/migrate.ts: the committed migrations of db/migrations-pg/ (generated
// by drizzle-kit from the same schema, plus the hand-written rules) not yet applied. Drizzle's
// migrator runs them in one transaction and records them in drizzle.__drizzle_migrations, so two
// processes starting at once cannot both apply one (the second waits on the first's lock).

export const POSTGRES_MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations-pg', import.meta.url));

export async function runPostgresMigrations(
  db: Postgres,
  migrationsFolder = POSTGRES_MIGRATIONS_FOLDER,
): Promise<void> {
  const client = await db.pool.connect();
  try {
    // One migrator at a time across the deployment: the rest wait here, then find nothing to do.
    await client.query('SELECT pg_advisory_lock(hashtext($1))', ['coinfair:migrations']);
    await migrate(drizzle({ client }), { migrationsFolder });
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', ['coinfair:migrations']).catch(() => {});
    client.release();
  }
}
