import { eq, sql } from 'drizzle-orm';
import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import { userSettings, users } from '../../../db/schema/index.ts';

// The Telegram columns of `user_settings`, on either engine (db/database.ts). Only these columns are
// written here, so a link never overwrites the profile or the avatar.

const p = sql.placeholder;

export function createTelegramRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const { orm } = database;
  // A scan of user_settings (the column has no index): a Start happens once per subscription.
  const ownerOfToken = database.prepare(
    orm
      .select({ userId: users.id, publicId: users.publicId, username: users.username, email: users.email })
      .from(userSettings)
      .innerJoin(users, eq(users.id, userSettings.userId))
      .where(eq(userSettings.telegramLinkToken, p('tokenHash'))),
  );
  return {
    db: database,
    setLinkToken: (userId: number, tokenHash: string, at: number) =>
      database.run(
        orm
          .insert(userSettings)
          .values({ userId, telegramLinkToken: tokenHash, updatedAt: at })
          .onConflictDoUpdate({
            target: userSettings.userId,
            set: {
              telegramLinkToken: sql.raw('excluded.telegram_link_token'),
              updatedAt: sql.raw('excluded.updated_at'),
            },
          }),
      ),
    ownerOfToken: (tokenHash: string) => ownerOfToken.get({ tokenHash }),
    /** False when the token was used or replaced meanwhile (single use: the token goes as the chat is linked). */
    link: async (tokenHash: string, chatId: string, at: number) =>
      (
        await database.run(
          orm
            .update(userSettings)
            .set({ telegramChatId: chatId, telegramLinkToken: null, updatedAt: at })
            .where(eq(userSettings.telegramLinkToken, tokenHash)),
        )
      ).changes === 1,
    clear: (userId: number, at: number) =>
      database.run(
        orm
          .update(userSettings)
          .set({ telegramChatId: null, telegramLinkToken: null, updatedAt: at })
          .where(eq(userSettings.userId, userId)),
      ),
  };
}

export type TelegramRepository = ReturnType<typeof createTelegramRepository>;
