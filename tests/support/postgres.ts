import { randomBytes } from 'node:crypto';
import { runPostgresMigrations } from '../../db/migrate-postgres.ts';
import { openPostgres, type Postgres } from '../../db/postgres.ts';

// PostgreSQL for the suites (issue 17): the server this machine runs (CI makes sure it is up),
// or TEST_POSTGRES_URL. Each test file gets its own database, migrated, and drops it at the end.

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/postgres';

/** True when the server answers; suites on PostgreSQL skip (with the reason printed) otherwise. */
export async function postgresReachable(): Promise<boolean> {
  const probe = openPostgres(POSTGRES_ADMIN_URL, { max: 1 });
  try {
    await probe.get('SELECT 1 AS one');
    return true;
  } catch {
    return false;
  } finally {
    await probe.close();
  }
}

/** The URL of `database` on the test server. */
export function postgresUrlFor(database: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * A fresh database with every migration applied (or none, with `migrate: false`, for code that
 * migrates it itself); `drop()` closes and removes it.
 */
export async function createPostgresTestDb({ migrate = true }: { migrate?: boolean } = {}): Promise<{
  db: Postgres;
  url: string;
  drop(): Promise<void>;
}> {
  const name = `coinfair_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = openPostgres(POSTGRES_ADMIN_URL, { max: 1 });
  await admin.exec(`CREATE DATABASE ${name}`);
  const url = postgresUrlFor(name);
  const db = openPostgres(url);
  if (migrate) await runPostgresMigrations(db);
  return {
    db,
    url,
    async drop() {
      await db.close();
      await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}
