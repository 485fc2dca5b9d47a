// `node build/app/prepare-database.js <migrations folder>`: migrations, reference and demo data,
// then exit. A first `npm start` runs it from the freshly made server bundle while Astro builds the
// site (scripts/build.ts, decision 127): the bundle loads in a fraction of the sources' time, and
// the server then finds the database ready. A failure is left to the server, which prepares again
// at start and says what is wrong.
import { consoleLogger, openPreparedDatabase } from './backend.ts';
import { readConfig } from './config.ts';

const config = readConfig();
const db = await openPreparedDatabase(config, config.DEMO_DATA === 'on', process.argv[2], consoleLogger);
await db.close();
