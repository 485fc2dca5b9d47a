import { eq, sql } from 'drizzle-orm';
import { asDatabase, type Database, type DatabaseLike } from '../../../db/database.ts';
import { userSettings, users } from '../../../db/schema/index.ts';
import type { ProfileValues } from '../../../src/lib/shared/views/settings.ts';

// Statements of the settings area, prepared once per database. A user's `user_settings` row is
// created on the first write; each upsert touches only its own columns, so the profile, cookie,
// avatar and Telegram writers never overwrite each other. Every method answers a promise, on
// either engine (db/database.ts).

export type UserSettingsRow = typeof userSettings.$inferSelect;

export type { ProfileValues };

const p = sql.placeholder;
const excluded = (column: { name: string }) => sql.raw(`excluded.${column.name}`);

export function createSettingsRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const byUserId = database.prepare(
    database.orm
      .select()
      .from(userSettings)
      .where(eq(userSettings.userId, p('userId'))),
  );
  const upsertProfile = database.prepare(
    database.orm
      .insert(userSettings)
      .values({
        userId: sql`${p('userId')}`,
        bio: sql`${p('bio')}`,
        notifyTradeMessagesInterval: sql`${p('interval')}`,
        soundNotifications: sql`${p('sound')}`,
        notifySmsBitcoinsConfirmed: sql`${p('smsConfirmed')}`,
        notifySmsIncomingTrade: sql`${p('smsIncoming')}`,
        emailSubscribed: sql`${p('emailSubscribed')}`,
        updatedAt: sql`${p('at')}`,
      })
      .onConflictDoUpdate({
        target: userSettings.userId,
        set: {
          bio: excluded(userSettings.bio),
          notifyTradeMessagesInterval: excluded(userSettings.notifyTradeMessagesInterval),
          soundNotifications: excluded(userSettings.soundNotifications),
          notifySmsBitcoinsConfirmed: excluded(userSettings.notifySmsBitcoinsConfirmed),
          notifySmsIncomingTrade: excluded(userSettings.notifySmsIncomingTrade),
          emailSubscribed: excluded(userSettings.emailSubscribed),
          updatedAt: excluded(userSettings.updatedAt),
        },
      }),
  );
  const upsertCookieSettings = database.prepare(
    database.orm
      .insert(userSettings)
      .values({ userId: sql`${p('userId')}`, cookieSettings: sql`${p('value')}`, updatedAt: sql`${p('at')}` })
      .onConflictDoUpdate({
        target: userSettings.userId,
        set: { cookieSettings: excluded(userSettings.cookieSettings), updatedAt: excluded(userSettings.updatedAt) },
      }),
  );
  const setVendor = database.prepare(
    database.orm
      .update(users)
      .set({ isVendor: sql`${p('isVendor')}` })
      .where(eq(users.id, p('userId'))),
  );

  return {
    db: database,
    byUserId: (userId: number): Promise<UserSettingsRow | undefined> => byUserId.get({ userId }),
    ...countryStatements(database),
    upsertProfile: (userId: number, values: ProfileValues, at: number) =>
      upsertProfile.run({
        userId,
        bio: values.bio,
        interval: values.notifyTradeMessagesInterval,
        // Both engines store booleans as 0/1; bound parameters are not mapped by the column's mode.
        sound: Number(values.soundNotifications),
        smsConfirmed: Number(values.notifySmsBitcoinsConfirmed),
        smsIncoming: Number(values.notifySmsIncomingTrade),
        emailSubscribed: Number(values.emailSubscribed),
        at,
      }),
    /** `value` is the serialized form of src/lib/shared/cookie-settings.ts (`10111110`). */
    upsertCookieSettings: (userId: number, value: string, at: number) =>
      upsertCookieSettings.run({ userId, value, at }),
    setVendor: (userId: number, isVendor: boolean) => setVendor.run({ userId, isVendor: Number(isVendor) }),
  };
}

/** The person's country on their user row (issue 19). */
function countryStatements(database: Database) {
  const setCountry = database.prepare(
    database.orm
      .update(users)
      // The person's currency follows their country (issue 19: one source for both).
      .set({
        countryId: sql`${p('countryId')}`,
        currencyId: sql`(SELECT currency_id FROM countries WHERE id = ${p('countryId')})`,
      })
      .where(eq(users.id, p('userId'))),
  );
  return {
    setCountry: (userId: number, countryId: number) => setCountry.run({ userId, countryId }),
  };
}

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
