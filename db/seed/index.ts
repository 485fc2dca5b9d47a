import type { Db } from '../client.ts';
import { runMigrations } from '../migrate.ts';
import { hasDemoData, hashDemoPassword, readyDemoVendors, seedDemoData } from './demo.ts';
import { DEMO_HISTORY_DAYS, seedDemoHistory } from './demo-history.ts';
import { hasPriceHistory, seedPriceHistory } from './price-history.ts';
import { hasReferenceData, seedReferenceData } from './reference.ts';

export interface PrepareResult {
  seededReference: boolean;
  seededDemo: boolean;
  seededPriceHistory: boolean;
}

/**
 * What the first start of a fresh install needs: migrations, reference data, demo data and a year
 * of price history on an empty database. Safe to run on every start: each step only acts when its
 * tables are empty.
 */
export async function prepareDatabase(
  db: Db,
  options: {
    migrationsFolder?: string;
    demo?: boolean;
    /**
     * Demo vendors verified and funded, and the demo market's past traded through the services
     * (the default). The test suite's template leaves both out: its tests count ledger rows,
     * trades and phones from zero; tests/api/demo-vendors.test.ts covers them.
     */
    readyDemoVendors?: boolean;
  } = {},
): Promise<PrepareResult> {
  await runMigrations(db, options.migrationsFolder);
  const seededReference = !(await hasReferenceData(db));
  if (seededReference) await seedReferenceData(db);
  const now = Date.now();
  // Charts need a past on the first page view; the simulated market supplies a plausible one.
  // Before the demo: the demo history's trades are priced from it.
  const seededPriceHistory = !(await hasPriceHistory(db));
  if (seededPriceHistory) await seedPriceHistory(db, now);
  const seededDemo = (options.demo ?? true) && !(await hasDemoData(db));
  if (seededDemo) {
    // Hashed before the transaction: argon2 is slow, and nothing may wait on it.
    await seedDemoData(db, await hashDemoPassword(), { now });
    if (options.readyDemoVendors ?? true) {
      // Funded a day before the history starts, so their wallets show the deposit before the trades.
      await readyDemoVendors(db, now - (DEMO_HISTORY_DAYS + 1) * 86_400_000);
      await seedDemoHistory(db, { now });
    }
  }
  return { seededReference, seededDemo, seededPriceHistory };
}
