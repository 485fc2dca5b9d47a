// `npm run db:migrate`: applies pending migrations to DATABASE_URL (the server also does this at start).
import { readConfig } from '../server/config.ts';
import { displayUrl, openMigrated } from './open-database.ts';

const { DATABASE_URL } = readConfig();
const opened = await openMigrated(DATABASE_URL);
await opened.close();
console.log(`Migrations applied to ${displayUrl(DATABASE_URL)}.`);
