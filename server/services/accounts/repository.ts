import { and, count, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import { gated } from '../../../db/access.ts';
import type { Db } from '../../../db/client.ts';
import { lookup } from '../../../db/lookup.ts';
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
import type { NewUser, SessionRow, UserProfileRow, UserRow } from '../shared/account-types.ts';

// Every statement of the accounts area, prepared once per database. The statements run
// synchronously; the repository the services see is gated (db/access.ts): every method answers a
// promise and waits while another context's transaction holds the connection.

// The row types live below the areas that read them (server/services/shared/account-types.ts).
export type { NewUser, SessionRow, UserProfileRow, UserRow } from '../shared/account-types.ts';

const p = sql.placeholder;

/** The users table: lookups by address, name and code, and the few column writes. */
function userStatements(db: Db) {
  const userByEmail = db
    .select()
    .from(users)
    .where(eq(users.email, p('email')))
    .prepare();
  const userById = lookup(db, users, users.id);
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

  return {
    userByEmail: (email: string) => userByEmail.get({ email }),
    userById: (id: number) => userById(id),
    usernameTaken: (username: string) => userByUsername.get({ username }) !== undefined,
    userIdByReferralCode: (code: string) => userByReferralCode.get({ code })?.id,
    /** False when the user already used their one username change. */
    setUsername: (id: number, username: string) => setUsername.run({ id, username }).changes === 1,
    markEmailVerified: (id: number) => markEmailVerified.run({ id }),
    touchLastSeen: (id: number, at: number) => touchLastSeen.run({ id, at }),
    insertUser: (values: NewUser) => db.insert(users).values(values).returning().get(),
  };
}

/** A user's profile row: everything the current-user answer needs beyond the user row. */
function profileReader(db: Db) {
  // Separate primary-key lookups, not one join: measured on this SQLite build, each joined table
  // costs 10-25 µs while a single-row lookup by key costs ~2 µs (tests/bench; a page asks
  // /users/current_user on every load).
  // `lookup` skips Drizzle's generic row mapping, which cost as much again (db/lookup.ts).
  const placeOf = lookup(db, countries, countries.id, { countryIso: countries.iso, countryName: countries.name });
  const currencyCodeOf = lookup(db, fiatCurrencies, fiatCurrencies.id, { code: fiatCurrencies.code });
  const settingsOf = lookup(db, userSettings, userSettings.userId, {
    soundNotifications: userSettings.soundNotifications,
    avatarUrl: userSettings.avatarUrl,
  });
  const twoFactorOf = lookup(db, twoFactor, twoFactor.userId, {
    confirmedAt: twoFactor.confirmedAt,
    forLogin: twoFactor.forLogin,
    forSendout: twoFactor.forSendout,
    forRelease: twoFactor.forRelease,
  });
  const phoneOf = lookup(db, phones, phones.userId, { number: phones.number, verifiedAt: phones.verifiedAt });

  // The wallet's BTC facts, each one indexed read (the wallet's partial unique index; the chain
  // transactions' (user, status) index). Read here, not through the wallet service, to stay in
  // the one read transaction of sessionWithUser.
  const btcBalanceOf = db.$client
    .prepare<[number], number>(
      "SELECT balance FROM ledger_accounts WHERE kind = 'user_wallet' AND owner_id = ? AND currency = 'BTC'",
    )
    .pluck();
  const btcIncomingOf = db.$client
    .prepare<[number], number>(
      "SELECT coalesce(sum(amount), 0) FROM chain_transactions WHERE user_id = ? AND status = 'incoming' AND currency = 'BTC'",
    )
    .pluck();

  return (user: UserRow): UserProfileRow => {
    const place = user.countryId === null ? undefined : placeOf(user.countryId);
    const currency = user.currencyId === null ? undefined : currencyCodeOf(user.currencyId);
    const settings = settingsOf(user.id);
    const factor = twoFactorOf(user.id);
    const phone = phoneOf(user.id);
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
      btcBalance: btcBalanceOf.get(user.id) ?? 0,
      btcIncoming: btcIncomingOf.get(user.id) ?? 0,
    };
  };
}

/** The session lookup every signed-in request makes, and the profile reads around it. */
function sessionReads(db: Db) {
  const sessionById = lookup(db, sessions, sessions.id);
  const userById = lookup(db, users, users.id);
  const profileOf = profileReader(db);
  const btcTradedOf = db.$client.prepare<[number, number], number>(BTC_TRADED_SQL).pluck();

  return {
    // One read transaction: a consistent snapshot, and SQLite takes its file locks once instead of
    // for every statement (two fcntl calls and a stat each, ~0.5 µs; docs/decisions/037-users-me-performance.md).
    sessionWithUser: db.$client.transaction((id: string) => {
      const session = sessionById(id);
      const user = session && userById(session.userId);
      if (!session || !user) return undefined;
      return { session, user, profile: profileOf(user) };
    }),
    /** Satoshi of the person's completed BTC trades (current user's totalTradedBtc). */
    btcTraded: (id: number): number => btcTradedOf.get(id, id) ?? 0,
    userProfile: (id: number): UserProfileRow | undefined => {
      const user = userById(id);
      return user && profileOf(user);
    },
  };
}

/** Sessions' writes and the settings page's device list. */
function sessionStatements(db: Db) {
  const extendSession = db
    .update(sessions)
    .set({ expiresAt: sql`${p('expiresAt')}` })
    .where(eq(sessions.id, p('id')))
    .prepare();
  const touchSession = db
    .update(sessions)
    .set({ lastUsedAt: sql`${p('lastUsedAt')}`, expiresAt: sql`${p('expiresAt')}` })
    .where(eq(sessions.id, p('id')))
    .prepare();
  const deleteSession = db
    .delete(sessions)
    .where(eq(sessions.id, p('id')))
    .prepare();
  // The device list of the settings page: live sessions only, most recently used first.
  const liveSessionsOfUser = db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, p('userId')), gt(sessions.expiresAt, p('now'))))
    .orderBy(desc(sessions.lastUsedAt))
    .prepare();
  const deleteSessionByPublicId = db
    .delete(sessions)
    .where(and(eq(sessions.userId, p('userId')), eq(sessions.publicId, p('publicId'))))
    .prepare();
  const deleteOtherSessions = db
    .delete(sessions)
    .where(and(eq(sessions.userId, p('userId')), ne(sessions.id, p('keepId'))))
    .prepare();
  const deleteUserSessions = db
    .delete(sessions)
    .where(eq(sessions.userId, p('userId')))
    .prepare();
  const deleteExpiredSessions = db
    .delete(sessions)
    .where(lt(sessions.expiresAt, p('now')))
    .prepare();

  return {
    insertSession: (values: SessionRow) => db.insert(sessions).values(values).run(),
    extendSession: (id: string, expiresAt: number) => extendSession.run({ id, expiresAt }),
    /** Records a use (and, when renewed, the new expiry) in one write. */
    touchSession: (id: string, lastUsedAt: number, expiresAt: number) =>
      touchSession.run({ id, lastUsedAt, expiresAt }),
    deleteSession: (id: string) => deleteSession.run({ id }),
    liveSessionsOfUser: (userId: number, now: number) => liveSessionsOfUser.all({ userId, now }),
    /** Only among the user's own sessions: another person's id deletes nothing. */
    deleteSessionByPublicId: (userId: number, publicId: string) =>
      deleteSessionByPublicId.run({ userId, publicId }).changes,
    deleteOtherSessions: (userId: number, keepId: string) => deleteOtherSessions.run({ userId, keepId }).changes,
    deleteUserSessions: (userId: number) => deleteUserSessions.run({ userId }).changes,
    deleteExpiredSessions: (now: number) => deleteExpiredSessions.run({ now }).changes,
  };
}

/** The sign-in limits' attempts and the "someone is guessing" mail's claim. */
function attemptStatements(db: Db) {
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
  const deleteAttempts = db
    .delete(authAttempts)
    .where(eq(authAttempts.key, p('key')))
    .prepare();
  const deleteAttemptById = db
    .delete(authAttempts)
    .where(eq(authAttempts.id, p('id')))
    .prepare();
  // One mail per window: the upsert changes a row only when there is none or it is older than
  // `since`, so of many failures at once exactly one claims the mail.
  const claimSignInAlert = db
    .insert(signInAlerts)
    .values({ userId: sql`${p('userId')}`, sentAt: sql`${p('at')}` })
    .onConflictDoUpdate({
      target: signInAlerts.userId,
      set: { sentAt: sql`excluded.sent_at` },
      setWhere: lt(signInAlerts.sentAt, p('since')),
    })
    .prepare();

  return {
    /** Answers the new row's id. */
    recordAttempt: (key: string, at: number) => Number(insertAttempt.run({ key, at }).lastInsertRowid),
    deleteAttemptsById: (ids: readonly number[]) => {
      for (const id of ids) deleteAttemptById.run({ id });
    },
    /** True when this call may send the "someone is guessing" mail (none since `since`). */
    claimSignInAlert: (userId: number, at: number, since: number) =>
      claimSignInAlert.run({ userId, at, since }).changes === 1,
    countAttempts: (key: string, since: number) => countAttempts.get({ key, since })?.n ?? 0,
    oldestAttempt: (key: string, since: number) => oldestAttempt.get({ key, since })?.at ?? null,
    pruneAttempts: (before: number) => pruneAttempts.run({ before }),
    deleteAttempts: (key: string) => deleteAttempts.run({ key }).changes,
  };
}

/** E-mail confirmation links. */
function verificationStatements(db: Db) {
  // Checked and spent in one statement: of two clicks on one link, exactly one gets the row back.
  const consumeVerification = db
    .update(emailVerifications)
    .set({ usedAt: sql`${p('now')}` })
    .where(
      and(
        eq(emailVerifications.id, p('id')),
        isNull(emailVerifications.usedAt),
        gt(emailVerifications.expiresAt, p('now')),
      ),
    )
    .returning({ userId: emailVerifications.userId })
    .prepare();

  return {
    insertVerification: (values: typeof emailVerifications.$inferInsert) =>
      db.insert(emailVerifications).values(values).run(),
    /** The link's user when this call spent it; undefined when used, expired or unknown. */
    consumeVerification: (id: string, now: number) => consumeVerification.get({ id, now })?.userId,
  };
}

export function createAccountsRepository(db: Db) {
  return gated(db, {
    db,
    ...userStatements(db),
    ...sessionReads(db),
    ...sessionStatements(db),
    ...attemptStatements(db),
    ...verificationStatements(db),
  });
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
