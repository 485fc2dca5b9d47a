import { eq, sql } from 'drizzle-orm';
import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import { userSettings } from '../../../db/schema/index.ts';

// user_settings.avatar_url, on either engine (db/database.ts). The settings row is created on first
// write; only the avatar columns are touched here, whatever else the row holds.

const p = sql.placeholder;

export function createAvatarRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const { orm } = database;
  const avatarUrlOf = database.prepare(
    orm
      .select({ avatarUrl: userSettings.avatarUrl })
      .from(userSettings)
      .where(eq(userSettings.userId, p('userId'))),
  );
  const urlOf = async (userId: number) => (await avatarUrlOf.get({ userId }))?.avatarUrl ?? null;

  return {
    avatarUrlOf: urlOf,
    /**
     * Sets the new URL and answers the one it replaced, in one immediate transaction of its own
     * (a savepoint inside a caller's): read and write in one step.
     */
    replaceAvatarUrl: (userId: number, url: string, at: number): Promise<string | null> =>
      database.sql.transaction(async () => {
        const previous = await urlOf(userId);
        await database.run(
          orm
            .insert(userSettings)
            .values({ userId, avatarUrl: url, updatedAt: at })
            .onConflictDoUpdate({
              target: userSettings.userId,
              set: { avatarUrl: sql`excluded.avatar_url`, updatedAt: sql`excluded.updated_at` },
            }),
        );
        return previous;
      }),
  };
}

export type AvatarRepository = ReturnType<typeof createAvatarRepository>;
