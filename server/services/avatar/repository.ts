import { eq, sql } from 'drizzle-orm';
import { gated } from '../../../db/access.ts';
import type { Db } from '../../../db/client.ts';
import { userSettings } from '../../../db/schema/index.ts';

// user_settings.avatar_url, prepared once per database. The settings row is created on first
// write; only the avatar columns are touched here, whatever else the row holds.

const p = sql.placeholder;

export function createAvatarRepository(db: Db) {
  const avatarUrlOf = db
    .select({ avatarUrl: userSettings.avatarUrl })
    .from(userSettings)
    .where(eq(userSettings.userId, p('userId')))
    .prepare();
  const setAvatarUrl = db
    .insert(userSettings)
    .values({ userId: sql`${p('userId')}`, avatarUrl: sql`${p('url')}`, updatedAt: sql`${p('at')}` })
    .onConflictDoUpdate({
      target: userSettings.userId,
      set: { avatarUrl: sql`excluded.avatar_url`, updatedAt: sql`excluded.updated_at` },
    })
    .prepare();

  // One immediate transaction of its own (a savepoint inside a caller's): read and write in one step.
  const replace = db.$client.transaction((userId: number, url: string, at: number): string | null => {
    const previous = avatarUrlOf.get({ userId })?.avatarUrl ?? null;
    setAvatarUrl.run({ userId, url, at });
    return previous;
  });

  return gated(db, {
    avatarUrlOf: (userId: number) => avatarUrlOf.get({ userId })?.avatarUrl ?? null,
    /** Sets the new URL and answers the one it replaced, in one transaction. */
    replaceAvatarUrl: (userId: number, url: string, at: number): string | null => replace.immediate(userId, url, at),
  });
}

export type AvatarRepository = ReturnType<typeof createAvatarRepository>;
