// `npm run db:seed`: re-creates the database at DATABASE_URL with reference and demo data.
// Destructive by design: it is the way back to a known demo state, refused in production.
import { rmSync } from 'node:fs';
import { closeDatabase, openDatabase } from '../db/client.ts';
import { prepareDatabase } from '../db/seed/index.ts';
import { readConfig } from '../server/config.ts';

const { DATABASE_URL } = readConfig({ NODE_ENV: 'development', ...process.env });
if (process.env.NODE_ENV === 'production' && !process.argv.includes('--force')) {
  console.error('Refusing to re-create the database with NODE_ENV=production (add --force if you mean it).');
  process.exit(1);
}
for (const suffix of ['', '-wal', '-shm']) rmSync(`${DATABASE_URL}${suffix}`, { force: true });
const db = openDatabase(DATABASE_URL);
await prepareDatabase(db);
closeDatabase(db);
console.log(`Re-created ${DATABASE_URL} with reference and demo data.`);
