import { and, count, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import {
  authAttempts,
  countries,
  emailVerifications,
  fiatCurrencies,
  sessions,
  users,
} from '../../../db/schema/index.ts';

// Every statement of the accounts area, prepared once per database.

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type NewUser = typeof users.$inferInsert;

const p = sql.placeholder;

export function createAccountsRepository(db: Db) {
  const userByEmail = db
    .select()
    .from(users)
    .where(eq(users.email, p('email')))
    .prepare();
  const userById = db
    .select()
    .from(users)
    .where(eq(users.id, p('id')))
    .prepare();
  const userByUsername = db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${p('username')})`)
    .prepare();
  const userByReferralCode = db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.referralCode, p('code')))
    .prepare();
  const userPlace = db
    .select({ countryIso: countries.iso, countryName: countries.name, currencyCode: fiatCurrencies.code })
    .from(users)
    .leftJoin(countries, eq(countries.id, users.countryId))
    .leftJoin(fiatCurrencies, eq(fiatCurrencies.id, users.currencyId))
    .where(eq(users.id, p('id')))
    .prepare();
  const setUsername = db
    .update(users)
    .set({ username: sql`${p('username')}`, isUsernameChanged: true })
    .where(and(eq(users.id, p('id')), eq(users.isUsernameChanged, false)))
    .prepare();
  const markEmailVerified = db
    .update(users)
    .set({ isEmailVerified: true })
    .where(eq(users.id, p('id')))
    .prepare();
  const touchLastSeen = db
    .update(users)
    .set({ lastSeenAt: sql`${p('at')}` })
    .where(eq(users.id, p('id')))
    .prepare();

  // One query answers a signed-in request: the session, its user, and where the user is.
  const sessionWithUser = db
    .select({
      session: sessions,
      user: users,
      place: { countryIso: countries.iso, countryName: countries.name, currencyCode: fiatCurrencies.code },
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(countries, eq(countries.id, users.countryId))
    .leftJoin(fiatCurrencies, eq(fiatCurrencies.id, users.currencyId))
    .where(eq(sessions.id, p('id')))
    .prepare();
  const extendSession = db
    .update(sessions)
    .set({ expiresAt: sql`${p('expiresAt')}` })
    .where(eq(sessions.id, p('id')))
    .prepare();
  const deleteSession = db
    .delete(sessions)
    .where(eq(sessions.id, p('id')))
    .prepare();
  const deleteUserSessions = db
    .delete(sessions)
    .where(eq(sessions.userId, p('userId')))
    .prepare();
  const deleteExpiredSessions = db
    .delete(sessions)
    .where(lt(sessions.expiresAt, p('now')))
    .prepare();

  const insertAttempt = db
    .insert(authAttempts)
    .values({ key: sql`${p('key')}`, at: sql`${p('at')}` })
    .prepare();
  const countAttempts = db
    .select({ n: count() })
    .from(authAttempts)
    .where(and(eq(authAttempts.key, p('key')), gt(authAttempts.at, p('since'))))
    .prepare();
  const oldestAttempt = db
    .select({ at: sql<number>`min(${authAttempts.at})` })
    .from(authAttempts)
    .where(and(eq(authAttempts.key, p('key')), gt(authAttempts.at, p('since'))))
    .prepare();
  const pruneAttempts = db
    .delete(authAttempts)
    .where(lt(authAttempts.at, p('before')))
    .prepare();

  const findVerification = db
    .select()
    .from(emailVerifications)
    .where(
      and(
        eq(emailVerifications.id, p('id')),
        isNull(emailVerifications.usedAt),
        gt(emailVerifications.expiresAt, p('now')),
      ),
    )
    .prepare();
  const consumeVerification = db
    .update(emailVerifications)
    .set({ usedAt: sql`${p('now')}` })
    .where(and(eq(emailVerifications.id, p('id')), isNull(emailVerifications.usedAt)))
    .prepare();

  return {
    db,
    userByEmail: (email: string) => userByEmail.get({ email }),
    userById: (id: number) => userById.get({ id }),
    usernameTaken: (username: string) => userByUsername.get({ username }) !== undefined,
    userIdByReferralCode: (code: string) => userByReferralCode.get({ code })?.id,
    userPlace: (id: number) => userPlace.get({ id }),
    /** False when the user already used their one username change. */
    setUsername: (id: number, username: string) => setUsername.run({ id, username }).changes === 1,
    markEmailVerified: (id: number) => markEmailVerified.run({ id }),
    touchLastSeen: (id: number, at: number) => touchLastSeen.run({ id, at }),

    insertUser: (values: NewUser) => db.insert(users).values(values).returning().get(),
    insertSession: (values: SessionRow) => db.insert(sessions).values(values).run(),
    sessionWithUser: (id: string) => sessionWithUser.get({ id }),
    extendSession: (id: string, expiresAt: number) => extendSession.run({ id, expiresAt }),
    deleteSession: (id: string) => deleteSession.run({ id }),
    deleteUserSessions: (userId: number) => deleteUserSessions.run({ userId }).changes,
    deleteExpiredSessions: (now: number) => deleteExpiredSessions.run({ now }).changes,

    recordAttempt: (key: string, at: number) => insertAttempt.run({ key, at }),
    countAttempts: (key: string, since: number) => countAttempts.get({ key, since })?.n ?? 0,
    oldestAttempt: (key: string, since: number) => oldestAttempt.get({ key, since })?.at ?? null,
    pruneAttempts: (before: number) => pruneAttempts.run({ before }),

    insertVerification: (values: typeof emailVerifications.$inferInsert) =>
      db.insert(emailVerifications).values(values).run(),
    findVerification: (id: string, now: number) => findVerification.get({ id, now }),
    /** False when another request used the link first. */
    consumeVerification: (id: string, now: number) => consumeVerification.run({ id, now }).changes === 1,
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
