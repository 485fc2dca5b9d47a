import { and, count, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { asDatabase, type Database, type DatabaseLike } from '../../../db/database.ts';
import { passwordResetRequests, passwordResets, users } from '../../../db/schema/index.ts';

// Every statement of password change and reset, prepared once per database, on either engine
// (db/database.ts): each method answers a promise.

export type PasswordResetRow = typeof passwordResets.$inferSelect;

const p = sql.placeholder;

/** The users table's password hash. */
function passwordWrites(database: Database) {
  const setPasswordHash = database.prepare(
    database.orm
      .update(users)
      .set({ passwordHash: sql`${p('hash')}` })
      .where(eq(users.id, p('id'))),
  );
  const replacePasswordHash = database.prepare(
    database.orm
      .update(users)
      .set({ passwordHash: sql`${p('hash')}` })
      .where(and(eq(users.id, p('id')), eq(users.passwordHash, p('previous')))),
  );

  return {
    setPasswordHash: (id: number, hash: string) => setPasswordHash.run({ id, hash }),
    /** False when the stored hash is no longer `previous` (another change won). */
    replacePasswordHash: async (id: number, previous: string, hash: string) =>
      (await replacePasswordHash.run({ id, previous, hash })).changes === 1,
  };
}

/** Reset links: one live per account, spent once. */
function resetStatements(database: Database) {
  const liveReset = database.prepare(
    database.orm
      .select()
      .from(passwordResets)
      .where(
        and(eq(passwordResets.id, p('id')), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, p('now'))),
      ),
  );
  // Single use: only a live row changes, so two submissions of one link cannot both pass.
  const consumeReset = database.prepare(
    database.orm
      .update(passwordResets)
      .set({ usedAt: sql`${p('now')}` })
      .where(
        and(eq(passwordResets.id, p('id')), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, p('now'))),
      ),
  );
  // Expired, not deleted: the rows of the last hour count the account's requests.
  const expireUnused = database.prepare(
    database.orm
      .update(passwordResets)
      .set({ expiresAt: sql`${p('now')}` })
      .where(
        and(
          eq(passwordResets.userId, p('userId')),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, p('now')),
        ),
      ),
  );
  const resetsSince = database.prepare(
    database.orm
      .select({ n: count() })
      .from(passwordResets)
      .where(and(eq(passwordResets.userId, p('userId')), gt(passwordResets.createdAt, p('since')))),
  );
  const pruneResets = database.prepare(
    database.orm.delete(passwordResets).where(lt(passwordResets.createdAt, p('before'))),
  );

  return {
    insertReset: (values: PasswordResetRow) => database.run(database.orm.insert(passwordResets).values(values)),
    liveReset: (id: string, now: number) => liveReset.get({ id, now }),
    /** False when the link was used or replaced meanwhile. */
    consumeReset: async (id: string, now: number) => (await consumeReset.run({ id, now })).changes === 1,
    expireUnused: async (userId: number, now: number) => (await expireUnused.run({ userId, now })).changes,
    resetsSince: async (userId: number, since: number) => (await resetsSince.get({ userId, since }))?.n ?? 0,
    pruneResets: async (before: number) => (await pruneResets.run({ before })).changes,
  };
}

/** Forgot-password requests per client address, for its limit. */
function requestStatements(database: Database) {
  const insertRequest = database.prepare(
    database.orm.insert(passwordResetRequests).values({ ip: sql`${p('ip')}`, createdAt: sql`${p('at')}` }),
  );
  const requestsSince = database.prepare(
    database.orm
      .select({ n: count(), oldest: sql<number | null>`min(${passwordResetRequests.createdAt})` })
      .from(passwordResetRequests)
      .where(and(eq(passwordResetRequests.ip, p('ip')), gt(passwordResetRequests.createdAt, p('since')))),
  );
  const pruneRequests = database.prepare(
    database.orm.delete(passwordResetRequests).where(lt(passwordResetRequests.createdAt, p('before'))),
  );

  return {
    recordRequest: (ip: string, at: number) => insertRequest.run({ ip, at }),
    requestsSince: async (ip: string, since: number) => {
      const row = await requestsSince.get({ ip, since });
      return { count: row?.n ?? 0, oldest: row?.oldest ?? null };
    },
    pruneRequests: async (before: number) => (await pruneRequests.run({ before })).changes,
  };
}

export function createPasswordsRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  return {
    db: database,
    ...passwordWrites(database),
    ...resetStatements(database),
    ...requestStatements(database),
  };
}

export type PasswordsRepository = ReturnType<typeof createPasswordsRepository>;
