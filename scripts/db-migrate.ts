// `npm run db:migrate`: applies pending migrations to DATABASE_URL (the server also does this at start).
import { closeDatabase, openDatabase } from '../db/client.ts';
import { runMigrations } from '../db/migrate.ts';
import { readConfig } from '../server/config.ts';

const { DATABASE_URL } = readConfig();
const db = openDatabase(DATABASE_URL);
await runMigrations(db);
closeDatabase(db);
console.log(`Migrations applied to ${DATABASE_URL}.`);
