import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { countries } from '../../db/schema/index.ts';
import { createTestDb, type TestDb } from '../support/test-db.ts';
import { testDialect } from '../support/test-dialect.ts';

// A failed Drizzle statement throws the driver's own error on both engines (db/database.ts,
// db/database-postgres.ts), with the engine's code: what the constraint translations and
// PostgreSQL's retry of serialization failures look at.

let t: TestDb;
afterEach(() => t?.close());

describe('errors of Drizzle statements', () => {
  it("carry the driver's code for a unique violation", async () => {
    t = await createTestDb();
    const germany = await t.db.get(t.db.orm.select().from(countries).where(eq(countries.iso, 'DE')));
    if (!germany) throw new Error('the seed has no DE');
    const duplicate = t.db.run(t.db.orm.insert(countries).values({ ...germany, id: undefined, iso3: 'XXX' }));
    await expect(duplicate).rejects.toMatchObject({
      code: testDialect() === 'postgres' ? '23505' : 'SQLITE_CONSTRAINT_UNIQUE',
    });
  });

  it.runIf(testDialect() === 'postgres')(
    'are retried as a transaction when PostgreSQL reports a serialization failure',
    async () => {
      t = await createTestDb();
      // Fails the first call with SQLSTATE 40001, as a conflicting concurrent transaction would;
      // the sequence is not transactional, so the retry sees the second value.
      await t.db.sql.exec(`CREATE SEQUENCE calls;
        CREATE FUNCTION fails_once() RETURNS integer LANGUAGE plpgsql AS $$
        BEGIN
          IF nextval('calls') = 1 THEN RAISE EXCEPTION 'first call' USING ERRCODE = 'serialization_failure'; END IF;
          RETURN 1;
        END $$`);
      let attempts = 0;
      const answer = await t.db.sql.transaction(async () => {
        attempts += 1;
        return t.db.get(t.db.orm.select({ one: sql<number>`fails_once()` }).from(countries).limit(1));
      });
      expect(answer).toEqual({ one: 1 });
      expect(attempts).toBe(2);
    },
  );
});
