import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { SqlDialect } from './sql-client.ts';

// SQLite, as better-sqlite3 builds it (SQLITE_ENABLE_STAT4), compiles a prepared statement again on
// its first step after a new value is bound to a parameter compared with an indexed column: the
// value might change the plan. For a statement of many joins that recompilation costs far more
// than its reads: the session read every signed-in request makes took ~130 µs, ~16 µs with the
// parameter wrapped (decision 145). `(SELECT ?)` gives the planner an expression in place of the
// parameter, so the plan is made once and the index is still used. PostgreSQL plans its own way
// and gets the parameter as it is.

/** `placeholder` for a hot prepared statement, planned once on SQLite. */
export function planOnce(dialect: SqlDialect, placeholder: Placeholder): SQL | Placeholder {
  return dialect === 'sqlite' ? sql`(SELECT ${placeholder})` : placeholder;
}
