import { and, count, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import { asDatabase, type Database, type DatabaseLike } from '../../../db/database.ts';
import { planOnce } from '../../../db/plan-once.ts';
import {
  authAttempts,
  countries,
  emailVerifications,
  fiatCurrencies,
  phones,
  sessions,
  signInAlerts,
  twoFactor,
  userSettings,
  users,
} from '../../../db/schema/index.ts';
import { BTC_TRADED_SQL } from '../profiles/repository.ts';

// Each an indexed read: the accounts' partial unique indexes, the offers' owner index.
const CURRENT_USER_COUNTS = `SELECT
  (SELECT balance FROM ledger_accounts WHERE kind = 'kiosk_balance' AND owner_id = ? AND currency = 'BTC') AS kioskBtc,
  (SELECT balance FROM ledger_accounts WHERE kind = 'merchant_balance' AND owner_id = ? AND currency = 'BTC') AS merchantBtc,
  (SELECT count(*) FROM offers WHERE owner_id = ? AND status = 'active') AS activeOffers`;

import type { NewUser, SessionRow, UserProfileRow, UserRow } from '../shared/account-types.ts';

// Every statement of the accounts area, prepared once per database, on either engine
// (db/database.ts): every method answers a promise.

// The row types live below the areas that read them (server/services/shared/account-types.ts).
export type { NewUser, SessionRow, UserProfileRow, UserRow } from '../shared/account-types.ts';

const p = sql.placeholder;

/** The users table: lookups by address, name and code, and the few column writes. */
function userStatements(database: Database) {
  const userByEmail = database.prepare(
    database.orm
      .select()
      .from(users)
      .where(eq(users.email, p('email'))),
  );
  const userById = database.prepare(
    database.orm
      .select()
      .from(users)
      .where(eq(users.id, p('id')))
      .limit(1),
  );
  const userByUsername = database.prepare(
    database.orm
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.username}) = lower(${p('username')})`),
  );
  const userByReferralCode = database.prepare(
    database.orm
      .select({ id: users.id })
      .from(users)
      .where(eq(users.referralCode, p('code'))),
  );
  const setUsername = database.prepare(
    database.orm
      .update(users)
      .set({ username: sql`${p('username')}`, isUsernameChanged: true })
      .where(and(eq(users.id, p('id')), eq(users.isUsernameChanged, false))),
  );
  const markEmailVerified = database.prepare(
    database.orm
      .update(users)
      .set({ isEmailVerified: true })
      .where(eq(users.id, p('id'))),
  );
  const touchLastSeen = database.prepare(
    database.orm
      .update(users)
      .set({ lastSeenAt: sql`${p('at')}` })
      .where(eq(users.id, p('id'))),
  );

  return {
    userByEmail: (email: string) => userByEmail.get({ email }),
    userById: (id: number) => userById.get({ id }),
    usernameTaken: async (username: string) => (await userByUsername.get({ username })) !== undefined,
    userIdByReferralCode: async (code: string) => (await userByReferralCode.get({ code }))?.id,
    /** False when the user already used their one username change. */
    setUsername: async (id: number, username: string) => (await setUsername.run({ id, username })).changes === 1,
    markEmailVerified: (id: number) => markEmailVerified.run({ id }),
    touchLastSeen: (id: number, at: number) => touchLastSeen.run({ id, at }),
    insertUser: async (values: NewUser) =>
      (await database.get(database.orm.insert(users).values(values).returning())) as UserRow,
  };
}

/** The current-user answer's facts beyond the user row, joined to it (left joins: each may be missing). */
const profileFields = {
  countryIso: countries.iso,
  countryName: countries.name,
  currencyCode: fiatCurrencies.code,
  soundNotifications: userSettings.soundNotifications,
  avatarUrl: userSettings.avatarUrl,
  twoFactorConfirmedAt: twoFactor.confirmedAt,
  twoFactorLogin: twoFactor.forLogin,
  twoFactorSendout: twoFactor.forSendout,
  twoFactorRelease: twoFactor.forRelease,
  phoneNumber: phones.number,
  phoneVerifiedAt: phones.verifiedAt,
  // The wallet's BTC facts, each one indexed read (the wallet's partial unique index; the chain
  // transactions' (user, status) index). Read here, not through the wallet service, to stay in
  // the one statement of sessionWithUser.
  btcBalance: sql<number | null>`(SELECT balance FROM ledger_accounts
    WHERE kind = 'user_wallet' AND owner_id = ${users.id} AND currency = 'BTC')`.mapWith(Number),
  affiliateBtc: sql<number | null>`(SELECT balance FROM ledger_accounts
    WHERE kind = 'affiliate_earnings' AND owner_id = ${users.id} AND currency = 'BTC')`.mapWith(Number),
  btcIncoming: sql<number | null>`(SELECT COALESCE(sum(amount), 0) FROM chain_transactions
    WHERE user_id = ${users.id} AND status = 'incoming' AND currency = 'BTC')`.mapWith(Number),
};

/** A joined row's profile fields: null where the left join found nothing. */
type ProfileColumns = { [K in keyof UserProfileRow]: UserProfileRow[K] | null };

const profileOf = (row: ProfileColumns): UserProfileRow => ({
  countryIso: row.countryIso ?? null,
  countryName: row.countryName ?? null,
  currencyCode: row.currencyCode ?? null,
  soundNotifications: row.soundNotifications ?? null,
  avatarUrl: row.avatarUrl ?? null,
  twoFactorConfirmedAt: row.twoFactorConfirmedAt ?? null,
  twoFactorLogin: row.twoFactorLogin ?? null,
  twoFactorSendout: row.twoFactorSendout ?? null,
  twoFactorRelease: row.twoFactorRelease ?? null,
  phoneNumber: row.phoneNumber ?? null,
  phoneVerifiedAt: row.phoneVerifiedAt ?? null,
  btcBalance: row.btcBalance ?? 0,
  btcIncoming: row.btcIncoming ?? 0,
  affiliateBtc: row.affiliateBtc ?? 0,
});

/** The session lookup every signed-in request makes, and the profile reads around it. */
function sessionReads(database: Database) {
  // One joined statement: one round trip on PostgreSQL and one consistent snapshot on either
  // engine (the session, its user and every fact the current-user answer needs).
  const { orm } = database;
  const sessionWithUser = database.prepare(
    orm
      .select({ session: sessions, user: users, ...profileFields })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(countries, eq(countries.id, users.countryId))
      .leftJoin(fiatCurrencies, eq(fiatCurrencies.id, users.currencyId))
      .leftJoin(userSettings, eq(userSettings.userId, users.id))
      .leftJoin(twoFactor, eq(twoFactor.userId, users.id))
      .leftJoin(phones, eq(phones.userId, users.id))
      // Planned once (db/plan-once.ts): re-planned for every session id, this read cost eight times
      // its work. No LIMIT: the id is the key, and Drizzle's LIMIT is a parameter too.
      .where(eq(sessions.id, planOnce(database.dialect, p('id')))),
  );
  const profileOfUser = database.prepare(
    orm
      .select(profileFields)
      .from(users)
      .leftJoin(countries, eq(countries.id, users.countryId))
      .leftJoin(fiatCurrencies, eq(fiatCurrencies.id, users.currencyId))
      .leftJoin(userSettings, eq(userSettings.userId, users.id))
      .leftJoin(twoFactor, eq(twoFactor.userId, users.id))
      .leftJoin(phones, eq(phones.userId, users.id))
      .where(eq(users.id, p('id')))
      .limit(1),
  );

  return {
    sessionWithUser: async (
      id: string,
    ): Promise<{ session: SessionRow; user: UserRow; profile: UserProfileRow } | undefined> => {
      const row = await sessionWithUser.get({ id });
      return row && { session: row.session, user: row.user, profile: profileOf(row) };
    },
    /** The profile facts of a user (undefined for an unknown one). */
    userProfile: async (id: number): Promise<UserProfileRow | undefined> => {
      const row = await profileOfUser.get({ id });
      return row && profileOf(row);
    },
    /** What only current_user shows: the kiosk and merchant BTC balances and the active offers. */
    currentUserCounts: async (id: number): Promise<{ kioskBtc: number; merchantBtc: number; activeOffers: number }> => {
      const row = await database.sql.get<{ kioskBtc: number | null; merchantBtc: number | null; activeOffers: number }>(
        CURRENT_USER_COUNTS,
        [id, id, id],
      );
      return {
        kioskBtc: Number(row?.kioskBtc ?? 0),
        merchantBtc: Number(row?.merchantBtc ?? 0),
        activeOffers: Number(row?.activeOffers ?? 0),
      };
    },
    /** Satoshi of the person's completed BTC trades (current user's totalTradedBtc). */
    btcTraded: async (id: number): Promise<number> =>
      (await database.sql.get<{ traded: number | null }>(BTC_TRADED_SQL, [id, id]))?.traded ?? 0,
  };
}

/** Sessions' writes and the settings page's device list. */
function sessionStatements(database: Database) {
  const extendSession = database.prepare(
    database.orm
      .update(sessions)
      .set({ expiresAt: sql`${p('expiresAt')}` })
      .where(eq(sessions.id, p('id'))),
  );
  const touchSession = database.prepare(
    database.orm
      .update(sessions)
      .set({ lastUsedAt: sql`${p('lastUsedAt')}`, expiresAt: sql`${p('expiresAt')}` })
      .where(eq(sessions.id, p('id'))),
  );
  const deleteSession = database.prepare(database.orm.delete(sessions).where(eq(sessions.id, p('id'))));
  // The device list of the settings page: live sessions only, most recently used first.
  const liveSessionsOfUser = database.prepare(
    database.orm
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, p('userId')), gt(sessions.expiresAt, p('now'))))
      .orderBy(desc(sessions.lastUsedAt)),
  );
  const deleteSessionByPublicId = database.prepare(
    database.orm.delete(sessions).where(and(eq(sessions.userId, p('userId')), eq(sessions.publicId, p('publicId')))),
  );
  const deleteOtherSessions = database.prepare(
    database.orm.delete(sessions).where(and(eq(sessions.userId, p('userId')), ne(sessions.id, p('keepId')))),
  );
  const deleteUserSessions = database.prepare(database.orm.delete(sessions).where(eq(sessions.userId, p('userId'))));
  const deleteExpiredSessions = database.prepare(database.orm.delete(sessions).where(lt(sessions.expiresAt, p('now'))));

  return {
    insertSession: (values: SessionRow) => database.run(database.orm.insert(sessions).values(values)),
    extendSession: (id: string, expiresAt: number) => extendSession.run({ id, expiresAt }),
    /** Records a use (and, when renewed, the new expiry) in one write. */
    touchSession: (id: string, lastUsedAt: number, expiresAt: number) =>
      touchSession.run({ id, lastUsedAt, expiresAt }),
    deleteSession: (id: string) => deleteSession.run({ id }),
    liveSessionsOfUser: (userId: number, now: number) => liveSessionsOfUser.all({ userId, now }),
    /** Only among the user's own sessions: another person's id deletes nothing. */
    deleteSessionByPublicId: async (userId: number, publicId: string) =>
      (await deleteSessionByPublicId.run({ userId, publicId })).changes,
    deleteOtherSessions: async (userId: number, keepId: string) =>
      (await deleteOtherSessions.run({ userId, keepId })).changes,
    deleteUserSessions: async (userId: number) => (await deleteUserSessions.run({ userId })).changes,
    deleteExpiredSessions: async (now: number) => (await deleteExpiredSessions.run({ now })).changes,
  };
}

/** The sign-in limits' attempts and the "someone is guessing" mail's claim. */
function attemptStatements(database: Database) {
  const insertAttempt = database.prepare(
    database.orm
      .insert(authAttempts)
      .values({ key: sql`${p('key')}`, at: sql`${p('at')}` })
      .returning({ id: authAttempts.id }),
  );
  const countAttempts = database.prepare(
    database.orm
      .select({ n: count() })
      .from(authAttempts)
      .where(and(eq(authAttempts.key, p('key')), gt(authAttempts.at, p('since')))),
  );
  const oldestAttempt = database.prepare(
    database.orm
      .select({ at: sql<number>`min(${authAttempts.at})` })
      .from(authAttempts)
      .where(and(eq(authAttempts.key, p('key')), gt(authAttempts.at, p('since')))),
  );
  const pruneAttempts = database.prepare(database.orm.delete(authAttempts).where(lt(authAttempts.at, p('before'))));
  const deleteAttempts = database.prepare(database.orm.delete(authAttempts).where(eq(authAttempts.key, p('key'))));
  const deleteAttemptById = database.prepare(database.orm.delete(authAttempts).where(eq(authAttempts.id, p('id'))));
  // One mail per window: the upsert changes a row only when there is none or it is older than
  // `since`, so of many failures at once exactly one claims the mail.
  const claimSignInAlert = database.prepare(
    database.orm
      .insert(signInAlerts)
      .values({ userId: sql`${p('userId')}`, sentAt: sql`${p('at')}` })
      .onConflictDoUpdate({
        target: signInAlerts.userId,
        set: { sentAt: sql`excluded.sent_at` },
        setWhere: lt(signInAlerts.sentAt, p('since')),
      }),
  );

  return {
    /** Answers the new row's id. */
    recordAttempt: async (key: string, at: number) => Number((await insertAttempt.get({ key, at }))?.id),
    deleteAttemptsById: async (ids: readonly number[]) => {
      for (const id of ids) await deleteAttemptById.run({ id });
    },
    /** True when this call may send the "someone is guessing" mail (none since `since`). */
    claimSignInAlert: async (userId: number, at: number, since: number) =>
      (await claimSignInAlert.run({ userId, at, since })).changes === 1,
    countAttempts: async (key: string, since: number) => (await countAttempts.get({ key, since }))?.n ?? 0,
    oldestAttempt: async (key: string, since: number) => (await oldestAttempt.get({ key, since }))?.at ?? null,
    pruneAttempts: (before: number) => pruneAttempts.run({ before }),
    deleteAttempts: async (key: string) => (await deleteAttempts.run({ key })).changes,
  };
}

/** E-mail confirmation links. */
function verificationStatements(database: Database) {
  // Checked and spent in one statement: of two clicks on one link, exactly one gets the row back.
  const consumeVerification = database.prepare(
    database.orm
      .update(emailVerifications)
      .set({ usedAt: sql`${p('now')}` })
      .where(
        and(
          eq(emailVerifications.id, p('id')),
          isNull(emailVerifications.usedAt),
          gt(emailVerifications.expiresAt, p('now')),
        ),
      )
      .returning({ userId: emailVerifications.userId }),
  );

  return {
    insertVerification: (values: typeof emailVerifications.$inferInsert) =>
      database.run(database.orm.insert(emailVerifications).values(values)),
    /** The link's user when this call spent it; undefined when used, expired or unknown. */
    consumeVerification: async (id: string, now: number) => (await consumeVerification.get({ id, now }))?.userId,
  };
}

export function createAccountsRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  return {
    db: database,
    ...userStatements(database),
    ...sessionReads(database),
    ...sessionStatements(database),
    ...attemptStatements(database),
    ...verificationStatements(database),
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
