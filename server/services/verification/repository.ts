import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { asDatabase, type Database, type DatabaseLike } from '../../../db/database.ts';
import { planOnce } from '../../../db/plan-once.ts';
import { type DocumentKind, fiatCurrencies, phones, users, verificationDocuments } from '../../../db/schema/index.ts';

// Every statement of the verification area, built once per database with Drizzle and run through
// the Database helpers (db/database.ts), on SQLite or PostgreSQL.

export type DocumentRow = typeof verificationDocuments.$inferSelect;
export type NewDocument = typeof verificationDocuments.$inferInsert;

const p = sql.placeholder;

/** The statements that write: documents replaced, submitted and reviewed; users marked verified. */
function documentWrites(database: Database) {
  const db = database.orm;
  const deleteUnsubmitted = database.prepare(
    db
      .delete(verificationDocuments)
      .where(
        and(
          eq(verificationDocuments.userId, p('userId')),
          eq(verificationDocuments.kind, sql`${p('kind')}`),
          eq(verificationDocuments.status, 'uploaded'),
        ),
      )
      .returning({ storageName: verificationDocuments.storageName }),
  );
  // Writes without a returned row run as built (a moderator's decision is no hot path).
  const verify = (column: 'idVerifiedAt' | 'addressVerifiedAt', userId: number, at: number) =>
    database.run(
      db
        .update(users)
        .set({ [column]: at })
        .where(and(eq(users.id, userId), isNull(users[column]))),
    );

  return {
    /** Takes out a document not yet submitted (being replaced) and answers its file name. */
    deleteUnsubmitted: async (userId: number, kind: DocumentKind) =>
      (await deleteUnsubmitted.get({ userId, kind }))?.storageName,
    insert: (values: NewDocument) => database.run(db.insert(verificationDocuments).values(values)),
    /** Uploaded documents of these kinds go to review; answers how many did. */
    submit: async (userId: number, kinds: readonly DocumentKind[], at: number): Promise<number> =>
      (
        await database.run(
          db
            .update(verificationDocuments)
            .set({ status: 'pending', submittedAt: at })
            .where(
              and(
                eq(verificationDocuments.userId, userId),
                eq(verificationDocuments.status, 'uploaded'),
                inArray(verificationDocuments.kind, [...kinds]),
              ),
            ),
        )
      ).changes,
    /** False when the document is no longer pending (another moderator was first). */
    review: async (values: {
      id: number;
      status: 'approved' | 'rejected';
      reason: string | null;
      reviewerId: number;
      at: number;
    }): Promise<boolean> => {
      const { id, status, reason, reviewerId, at } = values;
      const changed = await database.run(
        db
          .update(verificationDocuments)
          .set({ status, reason, reviewedBy: reviewerId, reviewedAt: at })
          .where(and(eq(verificationDocuments.id, id), eq(verificationDocuments.status, 'pending'))),
      );
      return changed.changes === 1;
    },
    setIdVerified: async (userId: number, at: number): Promise<boolean> =>
      (await verify('idVerifiedAt', userId, at)).changes === 1,
    /** The name on the identity document; not while the identity is verified (a new one needs a new review). */
    setFullName: async (userId: number, fullName: string) =>
      database.run(
        db
          .update(users)
          .set({ fullName })
          .where(and(eq(users.id, userId), isNull(users.idVerifiedAt))),
      ),
    setAddressVerified: async (userId: number, at: number): Promise<boolean> =>
      (await verify('addressVerifiedAt', userId, at)).changes === 1,
  };
}

/** One row by key, for the reads every verification page makes. */
const byKey = <Q extends Parameters<Database['prepare']>[0]>(database: Database, query: Q) => {
  const statement = database.prepare(query);
  return (key: string | number) => statement.get({ key });
};

export function createVerificationRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const orm = database.orm;
  const userById = byKey(
    database,
    orm
      .select({
        id: users.id,
        publicId: users.publicId,
        username: users.username,
        email: users.email,
        isEmailVerified: users.isEmailVerified,
        idVerifiedAt: users.idVerifiedAt,
        addressVerifiedAt: users.addressVerifiedAt,
        currencyId: users.currencyId,
      })
      .from(users)
      .where(eq(users.id, p('key'))),
  );
  const phoneOf = byKey(
    database,
    orm
      .select({ verifiedAt: phones.verifiedAt })
      .from(phones)
      .where(eq(phones.userId, p('key'))),
  );
  const currencyCodeOf = byKey(
    database,
    orm
      .select({ code: fiatCurrencies.code })
      .from(fiatCurrencies)
      .where(eq(fiatCurrencies.id, p('key'))),
  );
  const documentsOf = database.prepare(
    orm
      .select()
      .from(verificationDocuments)
      // Planned once (db/plan-once.ts): every signed-in person's current-user answer reads this.
      .where(eq(verificationDocuments.userId, planOnce(database.dialect, p('userId'))))
      .orderBy(desc(verificationDocuments.id)),
  );
  const documentByPublicId = database.prepare(
    orm
      .select({ document: verificationDocuments, ownerPublicId: users.publicId })
      .from(verificationDocuments)
      .innerJoin(users, eq(users.id, verificationDocuments.userId))
      .where(eq(verificationDocuments.publicId, p('publicId'))),
  );
  const pending = database.prepare(
    orm
      .select({
        document: verificationDocuments,
        owner: { publicId: users.publicId, username: users.username, email: users.email, fullName: users.fullName },
      })
      .from(verificationDocuments)
      .innerJoin(users, eq(users.id, verificationDocuments.userId))
      .where(eq(verificationDocuments.status, 'pending'))
      .orderBy(asc(verificationDocuments.submittedAt), asc(verificationDocuments.id))
      .limit(p('limit')),
  );
  return {
    /** For `immediate(repo.db, …)` (server/services/context.ts). */
    db: database,
    userById: (id: number) => userById(id),
    isPhoneVerified: async (userId: number): Promise<boolean> => (await phoneOf(userId))?.verifiedAt != null,
    currencyCodeOf: async (currencyId: number | null): Promise<string | undefined> =>
      currencyId === null ? undefined : (await currencyCodeOf(currencyId))?.code,
    /** Newest first: the first row of a kind is the current document of that kind. */
    documentsOf: (userId: number): Promise<DocumentRow[]> => documentsOf.all({ userId }),
    documentByPublicId: (publicId: string) => documentByPublicId.get({ publicId }),
    pending: (limit: number) => pending.all({ limit }),
    ...documentWrites(database),
  };
}

export type VerificationRepository = ReturnType<typeof createVerificationRepository>;
