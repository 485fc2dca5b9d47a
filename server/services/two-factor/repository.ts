import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { asDatabase, type Database, type DatabaseLike } from '../../../db/database.ts';
import { twoFactor, users } from '../../../db/schema/index.ts';

// Every statement of the two-factor area, prepared once per database, on either engine
// (db/database.ts): each method answers a promise.
//
// A row's life: setup writes a pending secret (confirmedAt null); confirm turns it on; disable
// keeps the row with an empty secret so the state reads "disabled" rather than "initial"; the
// operator's reset deletes it. Writes that spend a code are conditional updates, so two requests
// racing with one code cannot both succeed.

export type TwoFactorRow = typeof twoFactor.$inferSelect;

/** The secret of a factor that was on and was turned off: nothing verifies against it. */
export const DISABLED_SECRET = '';

const p = sql.placeholder;
const bit = (value: boolean) => (value ? 1 : 0);

/** A factor as read, set up and confirmed. */
function setupStatements(database: Database) {
  const withEmail = database.prepare(
    database.orm
      .select({ email: users.email, factor: twoFactor })
      .from(users)
      .leftJoin(twoFactor, eq(twoFactor.userId, users.id))
      .where(eq(users.id, p('userId'))),
  );
  // A new pending secret replaces a pending or disabled one, never one that is on.
  const upsertPending = database.prepare(
    database.orm
      .insert(twoFactor)
      .values({
        userId: sql`${p('userId')}`,
        secret: sql`${p('secret')}`,
        recoveryCodeHashes: sql`'[]'`,
        createdAt: sql`${p('at')}`,
      })
      .onConflictDoUpdate({
        target: twoFactor.userId,
        set: {
          secret: sql`excluded.secret`,
          confirmedAt: null,
          lastUsedStep: null,
          recoveryCodeHashes: sql`'[]'`,
          forLogin: true,
          forSendout: true,
          forRelease: true,
          createdAt: sql`excluded.created_at`,
        },
        setWhere: isNull(twoFactor.confirmedAt),
      }),
  );
  // Bound to the secret the code was checked against: a setup restarted meanwhile stays pending.
  const confirm = database.prepare(
    database.orm
      .update(twoFactor)
      .set({
        confirmedAt: sql`${p('at')}`,
        lastUsedStep: sql`${p('step')}`,
        recoveryCodeHashes: sql`${p('hashes')}`,
        forLogin: true,
        forSendout: true,
        forRelease: true,
      })
      .where(and(eq(twoFactor.userId, p('userId')), isNull(twoFactor.confirmedAt), eq(twoFactor.secret, p('secret')))),
  );

  return {
    /** The user's e-mail (the sign-in limits' key) and factor row; undefined for an unknown user. */
    find: (userId: number) => withEmail.get({ userId }),
    /** False when a factor that is on already exists. */
    savePending: async (userId: number, secret: string, at: number) =>
      (await upsertPending.run({ userId, secret, at })).changes === 1,
    confirm: async (userId: number, secret: string, step: number, hashes: string[], at: number) =>
      (await confirm.run({ userId, secret, step, hashes: JSON.stringify(hashes), at })).changes === 1,
  };
}

/** Codes spent, each once. */
function spendStatements(database: Database) {
  const spendStep = database.prepare(
    database.orm
      .update(twoFactor)
      .set({ lastUsedStep: sql`${p('step')}` })
      .where(
        and(
          eq(twoFactor.userId, p('userId')),
          isNotNull(twoFactor.confirmedAt),
          or(isNull(twoFactor.lastUsedStep), lt(twoFactor.lastUsedStep, p('step'))),
        ),
      ),
  );
  // Checked and spent by compare-and-set: the row changes only while its list is still the one
  // read, and the new list leaves the hash out, so of requests racing with one code exactly one
  // succeeds; another code spent meanwhile only makes this one read again, never fail. (The list
  // is JSON text, computed here: the engines' JSON functions differ.)
  const hashesOf = database.prepare(
    database.orm
      .select({ hashes: sql<string>`${twoFactor.recoveryCodeHashes}` })
      .from(twoFactor)
      .where(and(eq(twoFactor.userId, p('userId')), isNotNull(twoFactor.confirmedAt)))
      .limit(1),
  );
  const replaceHashes = database.prepare(
    database.orm
      .update(twoFactor)
      .set({ recoveryCodeHashes: sql`${p('next')}` })
      .where(
        and(
          eq(twoFactor.userId, p('userId')),
          isNotNull(twoFactor.confirmedAt),
          sql`${twoFactor.recoveryCodeHashes} = ${p('previous')}`,
        ),
      ),
  );

  return {
    /** False when this step or a later one was already used. */
    spendStep: async (userId: number, step: number) => (await spendStep.run({ userId, step })).changes === 1,
    /** False when the code is not (or no longer) among the unused ones. */
    spendRecoveryHash: async (userId: number, hash: string): Promise<boolean> => {
      for (;;) {
        const previous = (await hashesOf.get({ userId }))?.hashes;
        if (previous === undefined) return false;
        const hashes = JSON.parse(previous) as string[];
        if (!hashes.includes(hash)) return false;
        const next = JSON.stringify(hashes.filter((h) => h !== hash));
        if ((await replaceHashes.run({ userId, previous, next })).changes === 1) return true;
      }
    },
  };
}

/** What the factor protects, turning it off, and the operator's reset. */
function settingStatements(database: Database) {
  const setPurposes = database.prepare(
    database.orm
      .update(twoFactor)
      .set({ forLogin: sql`${p('login')}`, forSendout: sql`${p('sendout')}`, forRelease: sql`${p('release')}` })
      .where(and(eq(twoFactor.userId, p('userId')), isNotNull(twoFactor.confirmedAt))),
  );
  const disable = database.prepare(
    database.orm
      .update(twoFactor)
      .set({ secret: DISABLED_SECRET, confirmedAt: null, lastUsedStep: null, recoveryCodeHashes: sql`'[]'` })
      .where(and(eq(twoFactor.userId, p('userId')), isNotNull(twoFactor.confirmedAt))),
  );
  const remove = database.prepare(database.orm.delete(twoFactor).where(eq(twoFactor.userId, p('userId'))));

  return {
    setPurposes: async (userId: number, purposes: { login: boolean; sendout: boolean; release: boolean }) =>
      (
        await setPurposes.run({
          userId,
          login: bit(purposes.login),
          sendout: bit(purposes.sendout),
          release: bit(purposes.release),
        })
      ).changes === 1,
    disable: async (userId: number) => (await disable.run({ userId })).changes === 1,
    /** Removes every trace (operator reset); true when there was a row. */
    remove: async (userId: number) => (await remove.run({ userId })).changes === 1,
  };
}

export function createTwoFactorRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  return {
    ...setupStatements(database),
    ...spendStatements(database),
    ...settingStatements(database),
  };
}

export type TwoFactorRepository = ReturnType<typeof createTwoFactorRepository>;
