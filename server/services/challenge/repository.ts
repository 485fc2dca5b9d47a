import { and, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import { authChallenges } from '../../../db/schema/index.ts';

// Every statement is prepared once per database here, never in a request path, on either engine
// (db/database.ts): each method answers a promise.

export type ChallengeRow = typeof authChallenges.$inferSelect;

export function createChallengeRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const insert = database.prepare(
    database.orm.insert(authChallenges).values({
      id: sql.placeholder('id'),
      difficulty: sql.placeholder('difficulty'),
      expiresAt: sql.placeholder('expiresAt'),
    }),
  );
  const byId = database.prepare(
    database.orm
      .select()
      .from(authChallenges)
      .where(eq(authChallenges.id, sql.placeholder('id'))),
  );
  // The guard in the WHERE clause is the single-use rule: of two submissions racing with the same
  // solution (even from two processes), the database lets exactly one UPDATE change the row.
  const markUsed = database.prepare(
    database.orm
      .update(authChallenges)
      .set({ usedAt: sql`${sql.placeholder('now')}` })
      .where(
        and(
          eq(authChallenges.id, sql.placeholder('id')),
          isNull(authChallenges.usedAt),
          gt(authChallenges.expiresAt, sql.placeholder('now')),
        ),
      ),
  );
  // Bounded so a sweep after a long quiet spell is still one short write; the expiry index
  // finds the rows.
  const deleteExpired = database.prepare(
    database.orm.delete(authChallenges).where(
      inArray(
        authChallenges.id,
        database.orm
          .select({ id: authChallenges.id })
          .from(authChallenges)
          .where(lte(authChallenges.expiresAt, sql.placeholder('now')))
          .limit(sql.placeholder('limit')),
      ),
    ),
  );

  return {
    insert: async (row: { id: string; difficulty: number; expiresAt: number }): Promise<void> => {
      await insert.run(row);
    },
    find: (id: string): Promise<ChallengeRow | undefined> => byId.get({ id }),
    /** True when this call used the challenge; false when it was used, expired or unknown. */
    markUsed: async (id: string, now: number) => (await markUsed.run({ id, now })).changes === 1,
    deleteExpired: async (now: number, limit: number) => (await deleteExpired.run({ now, limit })).changes,
  };
}

export type ChallengeRepository = ReturnType<typeof createChallengeRepository>;
