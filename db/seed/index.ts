import type { Db } from '../client.ts';
import { runMigrations } from '../migrate.ts';
import { hasDemoData, hashDemoPassword, readyDemoVendors, seedDemoData } from './demo.ts';
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
     * Demo vendors verified and funded (the default). The test suite's template leaves them out:
     * its tests count ledger rows and phones from zero; tests/api/demo-vendors.test.ts covers it.
     */
    readyDemoVendors?: boolean;
  } = {},
): Promise<PrepareResult> {
  runMigrations(db, options.migrationsFolder);
  const seededReference = !hasReferenceData(db);
  if (seededReference) seedReferenceData(db);
  const seededDemo = (options.demo ?? true) && !hasDemoData(db);
  if (seededDemo) {
    seedDemoData(db, await hashDemoPassword());
    if (options.readyDemoVendors ?? true) readyDemoVendors(db);
  }
  // Charts need a past on the first page view; the simulated market supplies a plausible one.
  const seededPriceHistory = !hasPriceHistory(db);
  if (seededPriceHistory) seedPriceHistory(db);
  return { seededReference, seededDemo, seededPriceHistory };
}
