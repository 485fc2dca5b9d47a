import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { closeDatabase, openDatabase } from '../../db/client.ts';
import { prepareDatabase } from '../../db/seed/index.ts';

// One migrated and seeded database per run; every test file copies it (microseconds) instead of
// migrating and seeding its own, and no test can see another's writes.

const TMP_ROOT = join(import.meta.dirname, '..', '.tmp');
/** This run's own folder: two runs at once (two terminals, CI and an editor) never share one. */
export const TMP_DIR = join(TMP_ROOT, `run-${process.pid}-${Date.now().toString(36)}`);
/** Earlier runs' folders are swept once they are this old (a run still going is never that old). */
const STALE_MS = 6 * 60 * 60 * 1000;

declare module 'vitest' {
  export interface ProvidedContext {
    templateDbPath: string;
  }
}

function sweepStaleRuns(): void {
  mkdirSync(TMP_ROOT, { recursive: true });
  for (const name of readdirSync(TMP_ROOT)) {
    const path = join(TMP_ROOT, name);
    if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
  }
}

export default async function setup(project: TestProject) {
  sweepStaleRuns();
  mkdirSync(TMP_DIR, { recursive: true });
  const templateDbPath = join(TMP_DIR, 'template.db');
  const db = openDatabase(templateDbPath);
  await prepareDatabase(db, { readyDemoVendors: false });
  // Fold the WAL into the main file so a plain file copy carries everything.
  db.$client.pragma('wal_checkpoint(TRUNCATE)');
  closeDatabase(db);
  project.provide('templateDbPath', templateDbPath);
}
