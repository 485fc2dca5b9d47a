import { and, count, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { gated } from '../../../db/access.ts';
import type { Db } from '../../../db/client.ts';
import { passwordResetRequests, passwordResets, users } from '../../../db/schema/index.ts';

// Every statement of password change and reset, prepared once per database; the services see
// them gated (db/access.ts): each method answers a promise.

export type PasswordResetRow = typeof passwordResets.$inferSelect;

const p = sql.placeholder;

/** The users table's password hash. */
function passwordWrites(db: Db) {
  const setPasswordHash = db
    .update(users)
    .set({ passwordHash: sql`${p('hash')}` })
    .where(eq(users.id, p('id')))
    .prepare();
  const replacePasswordHash = db
    .update(users)
    .set({ passwordHash: sql`${p('hash')}` })
    .where(and(eq(users.id, p('id')), eq(users.passwordHash, p('previous'))))
    .prepare();

  return {
    setPasswordHash: (id: number, hash: string) => setPasswordHash.run({ id, hash }),
    /** False when the stored hash is no longer `previous` (another change won). */
    replacePasswordHash: (id: number, previous: string, hash: string) =>
      replacePasswordHash.run({ id, previous, hash }).changes === 1,
  };
}

/** Reset links: one live per account, spent once. */
function resetStatements(db: Db) {
  const liveReset = db
    .select()
    .from(passwordResets)
    .where(and(eq(passwordResets.id, p('id')), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, p('now'))))
    .prepare();
  // Single use: only a live row changes, so two submissions of one link cannot both pass.
  const consumeReset = db
    .update(passwordResets)
    .set({ usedAt: sql`${p('now')}` })
    .where(and(eq(passwordResets.id, p('id')), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, p('now'))))
    .prepare();
  // Expired, not deleted: the rows of the last hour count the account's requests.
  const expireUnused = db
    .update(passwordResets)
    .set({ expiresAt: sql`${p('now')}` })
    .where(
      and(
        eq(passwordResets.userId, p('userId')),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, p('now')),
      ),
    )
    .prepare();
  const resetsSince = db
    .select({ n: count() })
    .from(passwordResets)
    .where(and(eq(passwordResets.userId, p('userId')), gt(passwordResets.createdAt, p('since'))))
    .prepare();
  const pruneResets = db
    .delete(passwordResets)
    .where(lt(passwordResets.createdAt, p('before')))
    .prepare();

  return {
    insertReset: (values: PasswordResetRow) => db.insert(passwordResets).values(values).run(),
    liveReset: (id: string, now: number) => liveReset.get({ id, now }),
    /** False when the link was used or replaced meanwhile. */
    consumeReset: (id: string, now: number) => consumeReset.run({ id, now }).changes === 1,
    expireUnused: (userId: number, now: number) => expireUnused.run({ userId, now }).changes,
    resetsSince: (userId: number, since: number) => resetsSince.get({ userId, since })?.n ?? 0,
    pruneResets: (before: number) => pruneResets.run({ before }).changes,
  };
}

/** Forgot-password requests per client address, for its limit. */
function requestStatements(db: Db) {
  const insertRequest = db
    .insert(passwordResetRequests)
    .values({ ip: sql`${p('ip')}`, createdAt: sql`${p('at')}` })
    .prepare();
  const requestsSince = db
    .select({ n: count(), oldest: sql<number | null>`min(${passwordResetRequests.createdAt})` })
    .from(passwordResetRequests)
    .where(and(eq(passwordResetRequests.ip, p('ip')), gt(passwordResetRequests.createdAt, p('since'))))
    .prepare();
  const pruneRequests = db
    .delete(passwordResetRequests)
    .where(lt(passwordResetRequests.createdAt, p('before')))
    .prepare();

  return {
    recordRequest: (ip: string, at: number) => insertRequest.run({ ip, at }),
    requestsSince: (ip: string, since: number) => {
      const row = requestsSince.get({ ip, since });
      return { count: row?.n ?? 0, oldest: row?.oldest ?? null };
    },
    pruneRequests: (before: number) => pruneRequests.run({ before }).changes,
  };
}

export function createPasswordsRepository(db: Db) {
  return gated(db, {
    db,
    ...passwordWrites(db),
    ...resetStatements(db),
    ...requestStatements(db),
  });
}

export type PasswordsRepository = ReturnType<typeof createPasswordsRepository>;
