import { eq, sql } from 'drizzle-orm';
import { gated } from '../../../db/access.ts';
import type { Db } from '../../../db/client.ts';
import { userSettings, users } from '../../../db/schema/index.ts';

// The Telegram columns of `user_settings`, prepared once per database. Only these columns are
// written here, so a link never overwrites the profile or the avatar.

const p = sql.placeholder;

export function createTelegramRepository(db: Db) {
  const upsertToken = db
    .insert(userSettings)
    .values({ userId: sql`${p('userId')}`, telegramLinkToken: sql`${p('tokenHash')}`, updatedAt: sql`${p('at')}` })
    .onConflictDoUpdate({
      target: userSettings.userId,
      set: { telegramLinkToken: sql.raw('excluded.telegram_link_token'), updatedAt: sql.raw('excluded.updated_at') },
    })
    .prepare();
  // A scan of user_settings (the column has no index): a Start happens once per subscription.
  const ownerOfToken = db
    .select({ userId: users.id, publicId: users.publicId, username: users.username, email: users.email })
    .from(userSettings)
    .innerJoin(users, eq(users.id, userSettings.userId))
    .where(eq(userSettings.telegramLinkToken, p('tokenHash')))
    .prepare();
  // Single use: the token goes as the chat is linked, and only if it is still the current one.
  const link = db
    .update(userSettings)
    .set({ telegramChatId: sql`${p('chatId')}`, telegramLinkToken: null, updatedAt: sql`${p('at')}` })
    .where(eq(userSettings.telegramLinkToken, p('tokenHash')))
    .prepare();
  const clear = db
    .update(userSettings)
    .set({ telegramChatId: null, telegramLinkToken: null, updatedAt: sql`${p('at')}` })
    .where(eq(userSettings.userId, p('userId')))
    .prepare();

  return gated(db, {
    db,
    setLinkToken: (userId: number, tokenHash: string, at: number) => upsertToken.run({ userId, tokenHash, at }),
    ownerOfToken: (tokenHash: string) => ownerOfToken.get({ tokenHash }),
    /** False when the token was used or replaced meanwhile. */
    link: (tokenHash: string, chatId: string, at: number) => link.run({ tokenHash, chatId, at }).changes === 1,
    clear: (userId: number, at: number) => clear.run({ userId, at }),
  });
}

export type TelegramRepository = ReturnType<typeof createTelegramRepository>;
