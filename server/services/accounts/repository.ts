import { and, count, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import {
  authAttempts,
  countries,
  emailVerifications,
  fiatCurrencies,
  phones,
  sessions,
  twoFactor,
  userSettings,
  users,
} from '../../../db/schema/index.ts';

// Every statement of the accounts area, prepared once per database.

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/** The facts from other tables the current-user answer reads (see `profileOf`). */
export interface UserProfileRow {
  countryIso: string | null;
  countryName: string | null;
  currencyCode: string | null;
  soundNotifications: boolean | null;
  avatarUrl: string | null;
  twoFactorConfirmedAt: number | null;
  twoFactorLogin: boolean | null;
  twoFactorSendout: boolean | null;
  twoFactorRelease: boolean | null;
  phoneNumber: string | null;
  phoneVerifiedAt: number | null;
}

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

  // Everything the current-user answer needs beyond the user row. Separate primary-key lookups,
  // not one join: measured on this SQLite build, each joined table costs 10-25 µs while a
  // single-row lookup by key costs ~2 µs (tests/bench; a page asks /users/current_user on every load).
  const sessionById = db
    .select()
    .from(sessions)
    .where(eq(sessions.id, p('id')))
    .prepare();
  const placeOf = db
    .select({ countryIso: countries.iso, countryName: countries.name })
    .from(countries)
    .where(eq(countries.id, p('id')))
    .prepare();
  const currencyCodeOf = db
    .select({ code: fiatCurrencies.code })
    .from(fiatCurrencies)
    .where(eq(fiatCurrencies.id, p('id')))
    .prepare();
  const settingsOf = db
    .select({ soundNotifications: userSettings.soundNotifications, avatarUrl: userSettings.avatarUrl })
    .from(userSettings)
    .where(eq(userSettings.userId, p('userId')))
    .prepare();
  const twoFactorOf = db
    .select({
      confirmedAt: twoFactor.confirmedAt,
      forLogin: twoFactor.forLogin,
      forSendout: twoFactor.forSendout,
      forRelease: twoFactor.forRelease,
    })
    .from(twoFactor)
    .where(eq(twoFactor.userId, p('userId')))
    .prepare();
  const phoneOf = db
    .select({ number: phones.number, verifiedAt: phones.verifiedAt })
    .from(phones)
    .where(eq(phones.userId, p('userId')))
    .prepare();

  const profileOf = (user: UserRow): UserProfileRow => {
    const place = user.countryId === null ? undefined : placeOf.get({ id: user.countryId });
    const currency = user.currencyId === null ? undefined : currencyCodeOf.get({ id: user.currencyId });
    const settings = settingsOf.get({ userId: user.id });
    const factor = twoFactorOf.get({ userId: user.id });
    const phone = phoneOf.get({ userId: user.id });
    return {
      countryIso: place?.countryIso ?? null,
      countryName: place?.countryName ?? null,
      currencyCode: currency?.code ?? null,
      soundNotifications: settings?.soundNotifications ?? null,
      avatarUrl: settings?.avatarUrl ?? null,
      twoFactorConfirmedAt: factor?.confirmedAt ?? null,
      twoFactorLogin: factor?.forLogin ?? null,
      twoFactorSendout: factor?.forSendout ?? null,
      twoFactorRelease: factor?.forRelease ?? null,
      phoneNumber: phone?.number ?? null,
      phoneVerifiedAt: phone?.verifiedAt ?? null,
    };
  };
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
    /** False when the user already used their one username change. */
    setUsername: (id: number, username: string) => setUsername.run({ id, username }).changes === 1,
    markEmailVerified: (id: number) => markEmailVerified.run({ id }),
    touchLastSeen: (id: number, at: number) => touchLastSeen.run({ id, at }),

    insertUser: (values: NewUser) => db.insert(users).values(values).returning().get(),
    insertSession: (values: SessionRow) => db.insert(sessions).values(values).run(),
    sessionWithUser: (id: string) => {
      const session = sessionById.get({ id });
      const user = session && userById.get({ id: session.userId });
      if (!session || !user) return undefined;
      return { session, user, profile: profileOf(user) };
    },
    userProfile: (id: number): UserProfileRow | undefined => {
      const user = userById.get({ id });
      return user && profileOf(user);
    },
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
