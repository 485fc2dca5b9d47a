import { randomUUID } from 'node:crypto';
import { copyFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inject } from 'vitest';
import { closeDatabase, type Db, openDatabase } from '../../db/client.ts';

/** A private copy of the migrated, seeded template database. */
export function createTestDb(): { db: Db; path: string; close(): void } {
  const template = inject('templateDbPath');
  const path = join(dirname(template), `${randomUUID()}.db`);
  copyFileSync(template, path);
  // Thrown away after the test: nothing to keep across a power loss, and ~1 ms less per commit.
  // The browser tests' server opens its own connection with the production setting.
  const db = openDatabase(path, { synchronous: 'NORMAL' });
  return {
    db,
    path,
    close() {
      closeDatabase(db);
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    },
  };
}
