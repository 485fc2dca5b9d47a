import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresClient, type SqlClient, sqliteClient } from '../../db/sql-client.ts';
import { createPostgresTestDb, postgresReachable } from '../support/postgres.ts';
import { createSqliteTestDb } from '../support/test-db.ts';

// The same statements, written once, on both engines (issue 17): parameters in both styles,
// aliases read back as written, transactions that commit, roll back and announce only after
// commit, and on SQLite the gate that keeps another request out of an open transaction.

const reachable = await postgresReachable();
if (!reachable) console.warn('PostgreSQL is not reachable: the SQL client runs on SQLite only.');

const engines: { name: string; open: () => Promise<{ sql: SqlClient; close: () => Promise<void> }> }[] = [
  {
    name: 'sqlite',
    open: async () => {
      const testDb = createSqliteTestDb();
      return { sql: sqliteClient(testDb.db), close: async () => testDb.close() };
    },
  },
  ...(reachable
    ? [
        {
          name: 'postgres',
          open: async () => {
            const testDb = await createPostgresTestDb();
            return { sql: postgresClient(testDb.db), close: () => testDb.drop() };
          },
        },
      ]
    : []),
];

describe.each(engines)('SqlClient on $name', ({ open }) => {
  let sql: SqlClient;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ sql, close } = await open());
  }, 30_000);
  afterAll(async () => close());

  let n = 0;
  const insertUser = (name = `u${++n}x${Date.now()}`) =>
    sql.get<{ id: number; publicId: string; isVendor: number }>(
      `INSERT INTO users (public_id, username, email, password_hash, last_seen_at, created_at)
       VALUES (@publicId, @name, @email, 'x', @at, @at) RETURNING id, public_id AS publicId, is_vendor AS isVendor`,
      [{ publicId: `usr_${name}`, name, email: `${name}@example.com`, at: 1_700_000_000_000 }],
    );

  it('reads rows back under the aliases the statement gave them, numbers as numbers', async () => {
    const user = await insertUser();
    expect(user).toEqual({ id: expect.any(Number), publicId: expect.stringMatching(/^usr_/), isVendor: 0 });
    const again = await sql.get<{ createdAt: number }>('SELECT created_at AS createdAt FROM users WHERE id = ?', [
      user?.id,
    ]);
    expect(again).toEqual({ createdAt: 1_700_000_000_000 });
    expect(await sql.get('SELECT id FROM users WHERE id = ?', [-1])).toBeUndefined();
  });

  it('binds booleans as 1 and 0 and counts changed rows', async () => {
    const user = await insertUser();
    const changed = await sql.run('UPDATE users SET is_vendor = ? WHERE id = ?', [true, user?.id]);
    expect(changed).toEqual({ changes: 1 });
    expect(await sql.get('SELECT is_vendor AS v FROM users WHERE id = ?', [user?.id])).toEqual({ v: 1 });
  });

  it('commits a transaction whole, announces after the commit, and rolls back whole', async () => {
    const announced: string[] = [];
    const id = await sql.transaction(async (afterCommit) => {
      const user = await insertUser();
      afterCommit(() => announced.push('committed'));
      expect(announced).toEqual([]);
      return user?.id;
    });
    expect(announced).toEqual(['committed']);
    expect(await sql.get('SELECT id FROM users WHERE id = ?', [id])).toEqual({ id });

    const before = await sql.get<{ n: number }>('SELECT count(*) AS n FROM users');
    await expect(
      sql.transaction(async (afterCommit) => {
        await insertUser();
        afterCommit(() => announced.push('never'));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await sql.get('SELECT count(*) AS n FROM users')).toEqual(before);
    expect(announced).toEqual(['committed']);
  });

  it('rolls back only a nested transaction that failed, and waits for the outer commit to announce', async () => {
    const announced: string[] = [];
    const before = (await sql.get<{ n: number }>('SELECT count(*) AS n FROM users'))?.n ?? 0;
    await sql.transaction(async () => {
      await insertUser();
      await sql
        .transaction(async () => {
          await insertUser();
          throw new Error('inner');
        })
        .catch(() => {});
      await sql.transaction(async (afterCommit) => {
        await insertUser();
        afterCommit(() => announced.push('inner'));
      });
      expect(announced).toEqual([]);
    });
    expect(announced).toEqual(['inner']);
    expect(await sql.get('SELECT count(*) AS n FROM users')).toEqual({ n: before + 2 });
  });

  it('keeps what another request reads or writes out of an open transaction', async () => {
    const user = await insertUser();
    let release: () => void = () => {};
    const holding = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inside: Promise<void> = Promise.resolve();
    const open = sql.transaction(async () => {
      await sql.run('UPDATE users SET last_seen_at = 1 WHERE id = ?', [user?.id]);
      inside = holding;
      await holding;
      throw new Error('rolled back');
    });
    // Another request, while the transaction is open, neither sees its write nor joins it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const outsider = sql.get<{ at: number }>('SELECT last_seen_at AS at FROM users WHERE id = ?', [user?.id]);
    const outsiderWrite = sql.run('UPDATE users SET username = ? WHERE id = ?', [`renamed${user?.id}`, user?.id]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await inside;
    await expect(open).rejects.toThrow('rolled back');
    expect(await outsider).toEqual({ at: 1_700_000_000_000 });
    expect(await outsiderWrite).toEqual({ changes: 1 });
    expect(await sql.get('SELECT username AS name FROM users WHERE id = ?', [user?.id])).toEqual({
      name: `renamed${user?.id}`,
    });
  });
});
