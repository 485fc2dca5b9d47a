// Migrates and seeds the test run's PostgreSQL template (tests/support/global-setup-postgres.ts) in
// a process of its own: the tables are built for the engine at import time (db/schema/dialect.ts),
// and the test runner's main process has built SQLite's.
import { connectDatabase } from '../../db/database.ts';
import { prepareDatabase } from '../../db/seed/index.ts';

const url = process.argv[2];
if (!url || process.env.COINFAIR_DIALECT !== 'postgres') {
  console.error('usage: COINFAIR_DIALECT=postgres node tests/support/seed-template.ts postgres://…/database');
  process.exit(2);
}
const database = await connectDatabase(url, { poolSize: 2 });
try {
  await prepareDatabase(database, { readyDemoVendors: false });
} finally {
  await database.close();
}
