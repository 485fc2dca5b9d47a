import { and, asc, eq, gt, isNotNull, lte, ne, sql } from 'drizzle-orm';
import { asDatabase, type Database, type DatabaseLike } from '../../../db/database.ts';
import { countries, phones, smsSends, users } from '../../../db/schema/index.ts';

// Every statement of the phone area, prepared once per database, on either engine
// (db/database.ts): each method answers a promise.

export type PhoneRow = typeof phones.$inferSelect;

/**
 * `number` of a row whose number was removed while its send history must stay (the limits
 * would reset otherwise). The column is NOT NULL; an empty string is never a valid E.164 number.
 */
export const NO_NUMBER = '';

const p = sql.placeholder;

/** The person's phone row, the country their number is read in, and whether another account has it. */
function phoneReads(database: Database) {
  const phoneOf = database.prepare(
    database.orm
      .select()
      .from(phones)
      .where(eq(phones.userId, p('userId'))),
  );
  const verifiedElsewhere = database.prepare(
    database.orm
      .select({ userId: phones.userId })
      .from(phones)
      .where(and(eq(phones.number, p('number')), isNotNull(phones.verifiedAt), ne(phones.userId, p('userId'))))
      .limit(1),
  );
  const countryIsoOf = database.prepare(
    database.orm
      .select({ iso: countries.iso })
      .from(users)
      .innerJoin(countries, eq(countries.id, users.countryId))
      .where(eq(users.id, p('userId'))),
  );
  return {
    phoneOf: (userId: number) => phoneOf.get({ userId }),
    /** True when another account has proved this number (one account per verified number). */
    verifiedByAnother: async (number: string, userId: number) =>
      (await verifiedElsewhere.get({ number, userId })) !== undefined,
    countryIsoOf: async (userId: number) => (await countryIsoOf.get({ userId }))?.iso ?? null,
  };
}

/** A code sent, tried and confirmed. */
function codeWrites(database: Database) {
  // A new code replaces any pending one and unverifies nothing else: the service only calls this
  // when the row holds no verified number.
  const savePending = database.prepare(
    database.orm
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
      }),
  );
  // Only the history: a refused send still counts, and must not touch a pending code.
  const recordSend = database.prepare(
    database.orm
      .insert(phones)
      .values({
        userId: sql`${p('userId')}`,
        number: NO_NUMBER,
        codesSentAt: sql`${p('codesSentAt')}`,
      })
      .onConflictDoUpdate({ target: phones.userId, set: { codesSentAt: sql`excluded.codes_sent_at` } }),
  );
  const countWrongTry = database.prepare(
    database.orm
      .update(phones)
      .set({ codeAttempts: sql`${phones.codeAttempts} + 1` })
      .where(eq(phones.userId, p('userId'))),
  );
  const clearCode = database.prepare(
    database.orm
      .update(phones)
      .set({ codeHash: null, codeExpiresAt: null, codeAttempts: 0 })
      .where(eq(phones.userId, p('userId'))),
  );
  const markVerified = database.prepare(
    database.orm
      .update(phones)
      .set({ verifiedAt: sql`${p('at')}`, codeHash: null, codeExpiresAt: null, codeAttempts: 0 })
      .where(eq(phones.userId, p('userId'))),
  );
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
function numberRemoval(database: Database) {
  const forgetNumber = database.prepare(
    database.orm
      .update(phones)
      .set({
        number: NO_NUMBER,
        verifiedAt: null,
        codeHash: null,
        codeExpiresAt: null,
        codeAttempts: 0,
        codesSentAt: sql`${p('codesSentAt')}`,
      })
      .where(eq(phones.userId, p('userId'))),
  );
  const deleteRow = database.prepare(database.orm.delete(phones).where(eq(phones.userId, p('userId'))));
  return {
    /** Removes the number but keeps the send history that the limits still need. */
    forgetNumber: (userId: number, codesSentAt: number[]) =>
      forgetNumber.run({ userId, codesSentAt: JSON.stringify(codesSentAt) }),
    deleteRow: (userId: number) => deleteRow.run({ userId }),
  };
}

/** Texts sent to a number, by anyone: the per-number limits. */
function numberSends(database: Database) {
  const sendsToNumber = database.prepare(
    database.orm
      .select({ sentAt: smsSends.sentAt })
      .from(smsSends)
      .where(and(eq(smsSends.number, p('number')), gt(smsSends.sentAt, p('since'))))
      .orderBy(asc(smsSends.sentAt)),
  );
  const recordNumberSend = database.prepare(
    database.orm.insert(smsSends).values({ number: sql`${p('number')}`, sentAt: sql`${p('at')}` }),
  );
  const forgetNumberSends = database.prepare(database.orm.delete(smsSends).where(lte(smsSends.sentAt, p('before'))));
  return {
    /** When codes went to this number after `since`, by anyone, oldest first. */
    sendsToNumber: async (number: string, since: number) =>
      (await sendsToNumber.all({ number, since })).map((r) => r.sentAt),
    /** Records a text to `number`, forgetting those no limit looks at any more. */
    recordNumberSend: async (number: string, at: number, forgetBefore: number) => {
      await forgetNumberSends.run({ before: forgetBefore });
      await recordNumberSend.run({ number, at });
    },
  };
}

export function createPhoneRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  return {
    db: database,
    ...phoneReads(database),
    ...codeWrites(database),
    ...numberRemoval(database),
    ...numberSends(database),
  };
}

export type PhoneRepository = ReturnType<typeof createPhoneRepository>;
