import type { SqlDialect } from '../../db/sql-client.ts';

/**
 * The engine this test project runs on: vitest.config.ts sets COINFAIR_DIALECT=postgres for the
 * PostgreSQL projects (which also makes db/schema build PostgreSQL's tables), SQLite otherwise.
 */
export function testDialect(): SqlDialect {
  return process.env.COINFAIR_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
}
