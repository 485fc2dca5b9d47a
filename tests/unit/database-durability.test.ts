import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase } from '../../db/client.ts';

// Issue 16 item 10: an acknowledged commit is on disk (synchronous=FULL in WAL mode), so money
// movements survive a power loss, not only a process crash.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'coinfair-durability-'));
  dirs.push(dir);
  return join(dir, 'db.sqlite');
}

describe('openDatabase', () => {
  it('commits durably by default: WAL with synchronous=FULL (2)', () => {
    const db = openDatabase(scratch());
    expect(db.$client.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.$client.pragma('synchronous', { simple: true })).toBe(2);
    closeDatabase(db);
  });

  it('relaxes to NORMAL (1) only when asked, for throwaway test databases', () => {
    const db = openDatabase(scratch(), { synchronous: 'NORMAL' });
    expect(db.$client.pragma('synchronous', { simple: true })).toBe(1);
    closeDatabase(db);
  });
});
