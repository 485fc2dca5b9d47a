import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { displayUrl } from '../../scripts/open-database.ts';
import { dbCopyCommands } from '../../server/admin/db-copy.ts';
import { foreignKeyOrder } from '../../server/admin/db-copy-plan.ts';
import { CommandError } from '../../server/admin/user-commands.ts';
import { createPostgresTestDb, postgresReachable } from '../support/postgres.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { tradeFixtures } from '../support/trade-fixtures.ts';

// `npm run admin -- db:copy-to <postgres-url>` (issue 17): the seeded test database, with a
// deposit and a started trade (money in escrow) on top, copied into a freshly created, empty
// PostgreSQL database that the command migrates itself.

const reachable = await postgresReachable();
if (!reachable) console.warn('PostgreSQL is not reachable: the db:copy-to tests are skipped.');

describe('foreign-key order', () => {
  it('puts every referenced table first, ties by name', () => {
    const keys = [
      { child: 'trades', parent: 'users' },
      { child: 'trades', parent: 'offers' },
      { child: 'offers', parent: 'users' },
    ];
    expect(foreignKeyOrder(['trades', 'offers', 'users', 'countries'], keys)).toEqual([
      'countries',
      'users',
      'offers',
      'trades',
    ]);
  });

  it('refuses a cycle, naming its tables', () => {
    const keys = [
      { child: 'a', parent: 'b' },
      { child: 'b', parent: 'a' },
    ];
    expect(() => foreignKeyOrder(['a', 'b', 'c'], keys)).toThrow(/among a, b form a cycle/);
  });
});

describe.skipIf(!reachable)('db:copy-to into PostgreSQL', () => {
  let t: TestApp;
  let source: Database;
  let target: Awaited<ReturnType<typeof createPostgresTestDb>>;
  let offerHash: string;
  const printed: string[] = [];
  let result: string;
  /** The target's URL with a password in it (trust authentication ignores it): it must never be printed. */
  let urlWithPassword: string;

  const copy = (url: string, log: (line: string) => void = (line) => printed.push(line)) =>
    dbCopyCommands(source, { log, displayUrl }).copyTo(url, t.dbUrl);

  beforeAll(async () => {
    // The source is SQLite: this suite runs in the SQLite project only (vitest.config.ts, ENGINE_AWARE).
    t = await createTestApp();
    source = t.db;
    const f = tradeFixtures(t);
    const { vendor, buyer } = await f.openMarket(5_000_000);
    const offer = await f.createOffer(vendor);
    offerHash = offer.hash;
    await f.startTrade(buyer, offer, '100');
    target = await createPostgresTestDb({ migrate: false });
    const url = new URL(target.url);
    url.password = 'not-to-be-printed';
    urlWithPassword = url.toString();
    result = await copy(urlWithPassword);
  }, 120_000);

  afterAll(async () => {
    await target?.drop();
    await t?.close();
  });

  const copiedTables = async () =>
    (
      await source.sql.all<{ name: string }>(
        `SELECT name FROM sqlite_master WHERE type = 'table'
         AND name NOT LIKE 'sqlite_%' AND name <> '__drizzle_migrations' ORDER BY name`,
      )
    ).map((row) => row.name);

  it('copies every table with as many rows as the source, printing each and never the password', async () => {
    const tables = await copiedTables();
    expect(tables.length).toBeGreaterThan(40);
    for (const table of tables) {
      const from = await source.sql.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`);
      const to = await target.db.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`);
      expect(to?.n, table).toBe(from?.n);
      expect(printed).toContain(`${table}: ${from?.n} rows`);
    }
    expect(result).toMatch(new RegExp(`^Copied \\d+ rows in ${tables.length} tables in [\\d.]+ s\\.$`));
    expect(printed.join('\n')).not.toContain('not-to-be-printed');
    expect(printed[0]).toContain(':***@');
  });

  it('copies the money: ledger postings, a user and an offer equal column by column', async () => {
    const postings = 'SELECT * FROM ledger_postings ORDER BY id';
    const sourcePostings = await source.sql.all(postings);
    expect(sourcePostings.length).toBeGreaterThan(3);
    expect(await target.db.all(postings)).toEqual(sourcePostings);

    const accounts = 'SELECT * FROM ledger_accounts ORDER BY id';
    expect(await target.db.all(accounts)).toEqual(await source.sql.all(accounts));

    const user = 'SELECT * FROM users WHERE email = ?';
    const vendor = await source.sql.get(user, ['vendor@example.com']);
    expect(vendor).toBeDefined();
    expect(await target.db.get(user, ['vendor@example.com'])).toEqual(vendor);

    const offer = 'SELECT * FROM offers WHERE hash = ?';
    const copiedOffer = await target.db.get<Record<string, unknown>>(offer, [offerHash]);
    expect(copiedOffer).toEqual(await source.sql.get(offer, [offerHash]));

    const trade = 'SELECT * FROM trades ORDER BY id DESC LIMIT 1';
    expect(await target.db.get(trade)).toEqual(await source.sql.get(trade));
  });

  it('runs the ledger check on the target and it passes', async () => {
    expect(printed.some((line) => /^Ledger OK: [1-9]\d* transaction\(s\)/.test(line))).toBe(true);
  });

  it('continues the identities past the copied keys', async () => {
    const maxUser = await source.sql.get<{ id: number }>('SELECT max(id) AS id FROM users');
    const inserted = await target.db.get<{ id: number }>(
      `INSERT INTO users (public_id, username, email, password_hash, last_seen_at, created_at)
       VALUES ('usr_after_copy', 'after_copy', 'after-copy@example.com', 'x', 0, 0) RETURNING id`,
    );
    expect(inserted?.id).toBe((maxUser?.id as number) + 1);

    const maxTransaction = await source.sql.get<{ id: number }>('SELECT max(id) AS id FROM ledger_transactions');
    const transaction = await target.db.get<{ id: number }>(
      `INSERT INTO ledger_transactions (public_id, kind, idempotency_key, fingerprint, created_at)
       VALUES ('ltx_after_copy', 'deposit', 'after-copy', 'f', 0) RETURNING id`,
    );
    expect(transaction?.id).toBe((maxTransaction?.id as number) + 1);
  });

  it('refuses a second copy into the filled target, naming a table with rows, and changes nothing', async () => {
    const before = await target.db.get<{ n: number }>('SELECT count(*) AS n FROM ledger_postings');
    const attempt = copy(target.url, () => {});
    await expect(attempt).rejects.toBeInstanceOf(CommandError);
    await expect(attempt).rejects.toThrow(/already holds data in \w+ \(\d+ rows\)/);
    await expect(attempt).rejects.toThrow(/ledger_postings \(\d+ rows\)/);
    expect(await target.db.get<{ n: number }>('SELECT count(*) AS n FROM ledger_postings')).toEqual(before);
  });

  it('refuses a target that is no PostgreSQL URL', async () => {
    await expect(copy('tests/.tmp/elsewhere.db', () => {})).rejects.toThrow(/copies into PostgreSQL/);
  });
});

describe.skipIf(!reachable)('db:copy-to that fails half-way', () => {
  it('names the table, and leaves the target without a row', async () => {
    const t = await createTestApp();
    const target = await createPostgresTestDb({ migrate: false });
    try {
      // SQLite holds 2^53 + 1 exactly; as a JavaScript number it would arrive as 2^53, so it must not pass.
      await t.db.sql.run(`UPDATE users SET last_seen_at = 9007199254740993 WHERE email = 'vendor@example.com'`);
      const attempt = dbCopyCommands(t.db, { log: () => {}, displayUrl }).copyTo(target.url, t.dbUrl);
      await expect(attempt).rejects.toBeInstanceOf(CommandError);
      await expect(attempt).rejects.toThrow(/users .*last_seen_at/);
      // Tables before users in foreign-key order were copied inside the same transaction: rolled back.
      for (const table of ['countries', 'fiat_currencies', 'users']) {
        expect(await target.db.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`), table).toEqual({ n: 0 });
      }
    } finally {
      await target.drop();
      await t.close();
    }
  }, 60_000);
});
