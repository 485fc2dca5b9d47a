import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { closeDatabase, openDatabase } from '../../db/client.ts';
import { prepareDatabase } from '../../db/seed/index.ts';

// One migrated and seeded database per run; every test file copies it (microseconds) instead of
// migrating and seeding its own, and no test can see another's writes.

export const TMP_DIR = join(import.meta.dirname, '..', '.tmp');

declare module 'vitest' {
  export interface ProvidedContext {
    templateDbPath: string;
  }
}

export default async function setup(project: TestProject) {
  rmSync(TMP_DIR, { recursive: true, force: true });
  mkdirSync(TMP_DIR, { recursive: true });
  const templateDbPath = join(TMP_DIR, 'template.db');
  const db = openDatabase(templateDbPath);
  await prepareDatabase(db, { readyDemoVendors: false });
  // Fold the WAL into the main file so a plain file copy carries everything.
  db.$client.pragma('wal_checkpoint(TRUNCATE)');
  closeDatabase(db);
  project.provide('templateDbPath', templateDbPath);
}
