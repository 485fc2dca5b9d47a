import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { gated } from '../../../db/access.ts';
import type { Db } from '../../../db/client.ts';
import { twoFactor, users } from '../../../db/schema/index.ts';

// Every statement of the two-factor area, prepared once per database; the verbs see them gated
// (db/access.ts): each method answers a promise.
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
function setupStatements(db: Db) {
  const withEmail = db
    .select({ email: users.email, factor: twoFactor })
    .from(users)
    .leftJoin(twoFactor, eq(twoFactor.userId, users.id))
    .where(eq(users.id, p('userId')))
    .prepare();
  // A new pending secret replaces a pending or disabled one, never one that is on.
  const upsertPending = db
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
    })
    .prepare();
  // Bound to the secret the code was checked against: a setup restarted meanwhile stays pending.
  const confirm = db
    .update(twoFactor)
    .set({
      confirmedAt: sql`${p('at')}`,
      lastUsedStep: sql`${p('step')}`,
      recoveryCodeHashes: sql`${p('hashes')}`,
      forLogin: true,
      forSendout: true,
      forRelease: true,
    })
    .where(and(eq(twoFactor.userId, p('userId')), isNull(twoFactor.confirmedAt), eq(twoFactor.secret, p('secret'))))
    .prepare();

  return {
    /** The user's e-mail (the sign-in limits' key) and factor row; undefined for an unknown user. */
    find: (userId: number) => withEmail.get({ userId }),
    /** False when a factor that is on already exists. */
    savePending: (userId: number, secret: string, at: number) =>
      upsertPending.run({ userId, secret, at }).changes === 1,
    confirm: (userId: number, secret: string, step: number, hashes: string[], at: number) =>
      confirm.run({ userId, secret, step, hashes: JSON.stringify(hashes), at }).changes === 1,
  };
}

/** Codes spent, each once. */
function spendStatements(db: Db) {
  const spendStep = db
    .update(twoFactor)
    .set({ lastUsedStep: sql`${p('step')}` })
    .where(
      and(
        eq(twoFactor.userId, p('userId')),
        isNotNull(twoFactor.confirmedAt),
        or(isNull(twoFactor.lastUsedStep), lt(twoFactor.lastUsedStep, p('step'))),
      ),
    )
    .prepare();
  // Checked and spent in one statement: the row changes only while the list holds the hash, and
  // the new list leaves it out, so of requests racing with one code exactly one succeeds; another
  // code spent meanwhile does not make this one fail.
  const spendRecoveryHash = db.$client.prepare<{ userId: number; hash: string }>(
    `UPDATE two_factor
        SET recovery_code_hashes = (SELECT json_group_array(value) FROM json_each(recovery_code_hashes) WHERE value <> @hash)
      WHERE user_id = @userId AND confirmed_at IS NOT NULL
        AND EXISTS (SELECT 1 FROM json_each(recovery_code_hashes) WHERE value = @hash)`,
  );

  return {
    /** False when this step or a later one was already used. */
    spendStep: (userId: number, step: number) => spendStep.run({ userId, step }).changes === 1,
    /** False when the code is not (or no longer) among the unused ones. */
    spendRecoveryHash: (userId: number, hash: string) => spendRecoveryHash.run({ userId, hash }).changes === 1,
  };
}

/** What the factor protects, turning it off, and the operator's reset. */
function settingStatements(db: Db) {
  const setPurposes = db
    .update(twoFactor)
    .set({ forLogin: sql`${p('login')}`, forSendout: sql`${p('sendout')}`, forRelease: sql`${p('release')}` })
    .where(and(eq(twoFactor.userId, p('userId')), isNotNull(twoFactor.confirmedAt)))
    .prepare();
  const disable = db
    .update(twoFactor)
    .set({ secret: DISABLED_SECRET, confirmedAt: null, lastUsedStep: null, recoveryCodeHashes: sql`'[]'` })
    .where(and(eq(twoFactor.userId, p('userId')), isNotNull(twoFactor.confirmedAt)))
    .prepare();
  const remove = db
    .delete(twoFactor)
    .where(eq(twoFactor.userId, p('userId')))
    .prepare();

  return {
    setPurposes: (userId: number, purposes: { login: boolean; sendout: boolean; release: boolean }) =>
      setPurposes.run({
        userId,
        login: bit(purposes.login),
        sendout: bit(purposes.sendout),
        release: bit(purposes.release),
      }).changes === 1,
    disable: (userId: number) => disable.run({ userId }).changes === 1,
    /** Removes every trace (operator reset); true when there was a row. */
    remove: (userId: number) => remove.run({ userId }).changes === 1,
  };
}

export function createTwoFactorRepository(db: Db) {
  return gated(db, {
    ...setupStatements(db),
    ...spendStatements(db),
    ...settingStatements(db),
  });
}

export type TwoFactorRepository = ReturnType<typeof createTwoFactorRepository>;
