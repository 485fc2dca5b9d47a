import { and, asc, eq, gt, isNotNull, lte, ne, sql } from 'drizzle-orm';
import { gated } from '../../../db/access.ts';
import type { Db } from '../../../db/client.ts';
import { countries, phones, smsSends, users } from '../../../db/schema/index.ts';

// Every statement of the phone area, prepared once per database; the verbs see them gated
// (db/access.ts): each method answers a promise.

export type PhoneRow = typeof phones.$inferSelect;

/**
 * `number` of a row whose number was removed while its send history must stay (the limits
 * would reset otherwise). The column is NOT NULL; an empty string is never a valid E.164 number.
 */
export const NO_NUMBER = '';

const p = sql.placeholder;

/** The person's phone row, the country their number is read in, and whether another account has it. */
function phoneReads(db: Db) {
  const phoneOf = db
    .select()
    .from(phones)
    .where(eq(phones.userId, p('userId')))
    .prepare();
  const verifiedElsewhere = db
    .select({ userId: phones.userId })
    .from(phones)
    .where(and(eq(phones.number, p('number')), isNotNull(phones.verifiedAt), ne(phones.userId, p('userId'))))
    .limit(1)
    .prepare();
  const countryIsoOf = db
    .select({ iso: countries.iso })
    .from(users)
    .innerJoin(countries, eq(countries.id, users.countryId))
    .where(eq(users.id, p('userId')))
    .prepare();
  return {
    phoneOf: (userId: number) => phoneOf.get({ userId }),
    /** True when another account has proved this number (one account per verified number). */
    verifiedByAnother: (number: string, userId: number) => verifiedElsewhere.get({ number, userId }) !== undefined,
    countryIsoOf: (userId: number) => countryIsoOf.get({ userId })?.iso ?? null,
  };
}

/** A code sent, tried and confirmed. */
function codeWrites(db: Db) {
  // A new code replaces any pending one and unverifies nothing else: the service only calls this
  // when the row holds no verified number.
  const savePending = db
    .insert(phones)
    .values({
      userId: sql`${p('userId')}`,
      number: sql`${p('number')}`,
      verifiedAt: null,
      codeHash: sql`${p('codeHash')}`,
      codeExpiresAt: sql`${p('codeExpiresAt')}`,
      codeAttempts: 0,
      codesSentAt: sql`${p('codesSentAt')}`,
    })
    .onConflictDoUpdate({
      target: phones.userId,
      set: {
        number: sql`excluded.number`,
        verifiedAt: null,
        codeHash: sql`excluded.code_hash`,
        codeExpiresAt: sql`excluded.code_expires_at`,
        codeAttempts: 0,
        codesSentAt: sql`excluded.codes_sent_at`,
      },
    })
    .prepare();
  // Only the history: a refused send still counts, and must not touch a pending code.
  const recordSend = db
    .insert(phones)
    .values({
      userId: sql`${p('userId')}`,
      number: NO_NUMBER,
      codesSentAt: sql`${p('codesSentAt')}`,
    })
    .onConflictDoUpdate({ target: phones.userId, set: { codesSentAt: sql`excluded.codes_sent_at` } })
    .prepare();
  const countWrongTry = db
    .update(phones)
    .set({ codeAttempts: sql`${phones.codeAttempts} + 1` })
    .where(eq(phones.userId, p('userId')))
    .prepare();
  const clearCode = db
    .update(phones)
    .set({ codeHash: null, codeExpiresAt: null, codeAttempts: 0 })
    .where(eq(phones.userId, p('userId')))
    .prepare();
  const markVerified = db
    .update(phones)
    .set({ verifiedAt: sql`${p('at')}`, codeHash: null, codeExpiresAt: null, codeAttempts: 0 })
    .where(eq(phones.userId, p('userId')))
    .prepare();
  return {
    savePending: (row: {
      userId: number;
      number: string;
      codeHash: string;
      codeExpiresAt: number;
      codesSentAt: number[];
    }) => savePending.run({ ...row, codesSentAt: JSON.stringify(row.codesSentAt) }),
    recordSend: (userId: number, codesSentAt: number[]) =>
      recordSend.run({ userId, codesSentAt: JSON.stringify(codesSentAt) }),
    countWrongTry: (userId: number) => countWrongTry.run({ userId }),
    clearCode: (userId: number) => clearCode.run({ userId }),
    markVerified: (userId: number, at: number) => markVerified.run({ userId, at }),
  };
}

/** A number removed: the row, or only the number while its send history still counts. */
function numberRemoval(db: Db) {
  const forgetNumber = db
    .update(phones)
    .set({
      number: NO_NUMBER,
      verifiedAt: null,
      codeHash: null,
      codeExpiresAt: null,
      codeAttempts: 0,
      codesSentAt: sql`${p('codesSentAt')}`,
    })
    .where(eq(phones.userId, p('userId')))
    .prepare();
  const deleteRow = db
    .delete(phones)
    .where(eq(phones.userId, p('userId')))
    .prepare();
  return {
    /** Removes the number but keeps the send history that the limits still need. */
    forgetNumber: (userId: number, codesSentAt: number[]) =>
      forgetNumber.run({ userId, codesSentAt: JSON.stringify(codesSentAt) }),
    deleteRow: (userId: number) => deleteRow.run({ userId }),
  };
}

/** Texts sent to a number, by anyone: the per-number limits. */
function numberSends(db: Db) {
  const sendsToNumber = db
    .select({ sentAt: smsSends.sentAt })
    .from(smsSends)
    .where(and(eq(smsSends.number, p('number')), gt(smsSends.sentAt, p('since'))))
    .orderBy(asc(smsSends.sentAt))
    .prepare();
  const recordNumberSend = db
    .insert(smsSends)
    .values({ number: sql`${p('number')}`, sentAt: sql`${p('at')}` })
    .prepare();
  const forgetNumberSends = db
    .delete(smsSends)
    .where(lte(smsSends.sentAt, p('before')))
    .prepare();
  return {
    /** When codes went to this number after `since`, by anyone, oldest first. */
    sendsToNumber: (number: string, since: number) => sendsToNumber.all({ number, since }).map((r) => r.sentAt),
    /** Records a text to `number`, forgetting those no limit looks at any more. */
    recordNumberSend: (number: string, at: number, forgetBefore: number) => {
      forgetNumberSends.run({ before: forgetBefore });
      recordNumberSend.run({ number, at });
    },
  };
}

export function createPhoneRepository(db: Db) {
  return gated(db, { db, ...phoneReads(db), ...codeWrites(db), ...numberRemoval(db), ...numberSends(db) });
}

export type PhoneRepository = ReturnType<typeof createPhoneRepository>;
