import { and, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import { gated } from '../../../db/access.ts';
import type { Db } from '../../../db/client.ts';
import { authChallenges } from '../../../db/schema/index.ts';

// Every statement is prepared once per database here, never in a request path. The service sees
// them gated (db/access.ts): each method answers a promise.

export type ChallengeRow = typeof authChallenges.$inferSelect;

export function createChallengeRepository(db: Db) {
  const insert = db
    .insert(authChallenges)
    .values({
      id: sql.placeholder('id'),
      difficulty: sql.placeholder('difficulty'),
      expiresAt: sql.placeholder('expiresAt'),
    })
    .prepare();
  const byId = db
    .select()
    .from(authChallenges)
    .where(eq(authChallenges.id, sql.placeholder('id')))
    .prepare();
  // The guard in the WHERE clause is the single-use rule: of two submissions racing with the same
  // solution (even from two processes), SQLite lets exactly one UPDATE change the row.
  const markUsed = db
    .update(authChallenges)
    .set({ usedAt: sql`${sql.placeholder('now')}` })
    .where(
      and(
        eq(authChallenges.id, sql.placeholder('id')),
        isNull(authChallenges.usedAt),
        gt(authChallenges.expiresAt, sql.placeholder('now')),
      ),
    )
    .prepare();
  // Bounded so a sweep after a long quiet spell is still one short write; the expiry index
  // finds the rows.
  const deleteExpired = db
    .delete(authChallenges)
    .where(
      inArray(
        authChallenges.id,
        db
          .select({ id: authChallenges.id })
          .from(authChallenges)
          .where(lte(authChallenges.expiresAt, sql.placeholder('now')))
          .limit(sql.placeholder('limit')),
      ),
    )
    .prepare();

  return gated(db, {
    insert: (row: { id: string; difficulty: number; expiresAt: number }) => {
      insert.run(row);
    },
    find: (id: string): ChallengeRow | undefined => byId.get({ id }),
    /** True when this call used the challenge; false when it was used, expired or unknown. */
    markUsed: (id: string, now: number) => markUsed.run({ id, now }).changes === 1,
    deleteExpired: (now: number, limit: number) => deleteExpired.run({ now, limit }).changes,
  });
}

export type ChallengeRepository = ReturnType<typeof createChallengeRepository>;
