import type { Db } from '../client.ts';
import { runMigrations } from '../migrate.ts';
import { hasDemoData, hashDemoPassword, seedDemoData } from './demo.ts';
import { hasReferenceData, seedReferenceData } from './reference.ts';

export interface PrepareResult {
  seededReference: boolean;
  seededDemo: boolean;
}

/**
 * What the first start of a fresh install needs: migrations, reference data, and demo data on an
 * empty database. Safe to run on every start: each step only acts when its tables are empty.
 */
export async function prepareDatabase(
  db: Db,
  options: { migrationsFolder?: string; demo?: boolean } = {},
): Promise<PrepareResult> {
  runMigrations(db, options.migrationsFolder);
  const seededReference = !hasReferenceData(db);
  if (seededReference) seedReferenceData(db);
  const seededDemo = (options.demo ?? true) && !hasDemoData(db);
  if (seededDemo) seedDemoData(db, await hashDemoPassword());
  return { seededReference, seededDemo };
}
