// `npm run db:seed`: re-creates the database at DATABASE_URL with reference and demo data.
// Destructive by design: it is the way back to a known demo state, refused in production.
import { rmSync } from 'node:fs';
import { parseDatabaseUrl } from '../db/database.ts';
import { openPostgres } from '../db/postgres.ts';
import { seedDatabase } from '../db/seed/index.ts';
import { readConfig } from '../server/config.ts';
import { displayUrl, openMigrated } from './open-database.ts';

const { DATABASE_URL, GIFT_CODE_KEY } = readConfig({ NODE_ENV: 'development', ...process.env });
if (process.env.NODE_ENV === 'production' && !process.argv.includes('--force')) {
  console.error('Refusing to re-create the database with NODE_ENV=production (add --force if you mean it).');
  process.exit(1);
}
const target = parseDatabaseUrl(DATABASE_URL);
if (target.kind === 'postgres') {
  // Every table, and the record of applied migrations, goes; the migrations then build them anew.
  const postgres = openPostgres(target.url, { max: 1 });
  try {
    await postgres.exec('DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA public CASCADE; CREATE SCHEMA public');
  } finally {
    await postgres.close();
  }
} else {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${target.path}${suffix}`, { force: true });
}
const opened = await openMigrated(DATABASE_URL);
try {
  await seedDatabase(opened.database, { giftCodeKey: GIFT_CODE_KEY });
} finally {
  await opened.close();
}
console.log(`Re-created ${displayUrl(DATABASE_URL)} with reference and demo data.`);
