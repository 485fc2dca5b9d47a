import { asDatabase, type DatabaseLike } from '../database.ts';
import { hasDemoData, hashDemoPassword, readyDemoVendors, seedDemoData } from './demo.ts';
import { DEMO_HISTORY_DAYS, seedDemoHistory } from './demo-history.ts';
import { readyDemoKiosk } from './demo-kiosk.ts';
import { hasPriceHistory, seedPriceHistory } from './price-history.ts';
import { hasReferenceData, seedReferenceData } from './reference.ts';

export interface PrepareResult {
  seededReference: boolean;
  seededDemo: boolean;
  seededPriceHistory: boolean;
}

export interface SeedOptions {
  demo?: boolean;
  /**
   * Demo vendors verified and funded, and the demo market's past traded through the services
   * (the default). The test suite's template leaves both out: its tests count ledger rows,
   * trades and phones from zero; tests/api/demo-vendors.test.ts covers them.
   */
  readyDemoVendors?: boolean;
  /** GIFT_CODE_KEY: the demo history seals its gift codes with the server's key. */
  giftCodeKey?: string | undefined;
}

/**
 * What the first start of a fresh install needs: migrations, reference data, demo data and a year
 * of price history on an empty database. Safe to run on every start: each step only acts when its
 * tables are empty.
 */
export async function prepareDatabase(
  db: DatabaseLike,
  options: SeedOptions & { migrationsFolder?: string } = {},
): Promise<PrepareResult> {
  const database = asDatabase(db);
  // Processes starting together on one PostgreSQL database would each find it empty and seed it:
  // one prepares, the others wait and then find everything in place.
  return database.exclusively('coinfair:prepare', async () => {
    // Migrations are the engine's own (db/migrate.ts, db/migrate-postgres.ts); the seed is not.
    await database.migrate(options.migrationsFolder);
    return seedDatabase(database, options);
  });
}

/** The seeding half of prepareDatabase, on a migrated database of either engine. */
export async function seedDatabase(db: DatabaseLike, options: SeedOptions = {}): Promise<PrepareResult> {
  const database = asDatabase(db);
  const seededReference = !(await hasReferenceData(database));
  if (seededReference) await seedReferenceData(database);
  const now = Date.now();
  // Charts need a past on the first page view; the simulated market supplies a plausible one.
  // Before the demo: the demo history's trades are priced from it.
  const seededPriceHistory = !(await hasPriceHistory(database));
  if (seededPriceHistory) await seedPriceHistory(database, now);
  const seededDemo = (options.demo ?? true) && !(await hasDemoData(database));
  if (seededDemo) {
    // Hashed before the transaction: argon2 is slow, and nothing may wait on it.
    await seedDemoData(database, await hashDemoPassword(), { now });
    if (options.readyDemoVendors ?? true) {
      // Funded a day before the history starts, so their wallets show the deposit before the trades.
      await readyDemoVendors(database, now - (DEMO_HISTORY_DAYS + 1) * 86_400_000);
      await seedDemoHistory(database, { now, giftCodeKey: options.giftCodeKey });
      await readyDemoKiosk(database, now - 86_400_000);
    }
  }
  return { seededReference, seededDemo, seededPriceHistory };
}
