import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { gated } from '../../../db/access.ts';
import type { Db } from '../../../db/client.ts';
import { lookup } from '../../../db/lookup.ts';
import { type DocumentKind, fiatCurrencies, phones, users, verificationDocuments } from '../../../db/schema/index.ts';

// Every statement of the verification area, prepared once per database.

export type DocumentRow = typeof verificationDocuments.$inferSelect;
export type NewDocument = typeof verificationDocuments.$inferInsert;

const p = sql.placeholder;

/** The statements that write: documents replaced, submitted and reviewed; users marked verified. */
function documentWrites(db: Db) {
  const deleteUnsubmitted = db
    .delete(verificationDocuments)
    .where(
      and(
        eq(verificationDocuments.userId, p('userId')),
        eq(verificationDocuments.kind, sql`${p('kind')}`),
        eq(verificationDocuments.status, 'uploaded'),
      ),
    )
    .returning({ storageName: verificationDocuments.storageName })
    .prepare();
  const review = db
    .update(verificationDocuments)
    .set({
      status: sql`${p('status')}`,
      reason: sql`${p('reason')}`,
      reviewedBy: sql`${p('reviewerId')}`,
      reviewedAt: sql`${p('at')}`,
    })
    .where(and(eq(verificationDocuments.id, p('id')), eq(verificationDocuments.status, 'pending')))
    .prepare();
  const setIdVerified = db
    .update(users)
    .set({ idVerifiedAt: sql`${p('at')}` })
    .where(and(eq(users.id, p('userId')), isNull(users.idVerifiedAt)))
    .prepare();
  const setAddressVerified = db
    .update(users)
    .set({ addressVerifiedAt: sql`${p('at')}` })
    .where(and(eq(users.id, p('userId')), isNull(users.addressVerifiedAt)))
    .prepare();

  return {
    /** Takes out a document not yet submitted (being replaced) and answers its file name. */
    deleteUnsubmitted: (userId: number, kind: DocumentKind) => deleteUnsubmitted.get({ userId, kind })?.storageName,
    insert: (values: NewDocument) => db.insert(verificationDocuments).values(values).run(),
    /** Uploaded documents of these kinds go to review; answers how many did. */
    submit: (userId: number, kinds: readonly DocumentKind[], at: number) =>
      db
        .update(verificationDocuments)
        .set({ status: 'pending', submittedAt: at })
        .where(
          and(
            eq(verificationDocuments.userId, userId),
            eq(verificationDocuments.status, 'uploaded'),
            inArray(verificationDocuments.kind, [...kinds]),
          ),
        )
        .run().changes,
    /** False when the document is no longer pending (another moderator was first). */
    review: (values: {
      id: number;
      status: 'approved' | 'rejected';
      reason: string | null;
      reviewerId: number;
      at: number;
    }) => review.run(values).changes === 1,
    setIdVerified: (userId: number, at: number) => setIdVerified.run({ userId, at }).changes === 1,
    setAddressVerified: (userId: number, at: number) => setAddressVerified.run({ userId, at }).changes === 1,
  };
}

export function createVerificationRepository(db: Db) {
  const userById = lookup(db, users, users.id, {
    id: users.id,
    publicId: users.publicId,
    username: users.username,
    email: users.email,
    isEmailVerified: users.isEmailVerified,
    idVerifiedAt: users.idVerifiedAt,
    addressVerifiedAt: users.addressVerifiedAt,
    currencyId: users.currencyId,
  });
  const phoneOf = lookup(db, phones, phones.userId, { verifiedAt: phones.verifiedAt });
  const currencyCodeOf = lookup(db, fiatCurrencies, fiatCurrencies.id, { code: fiatCurrencies.code });
  const documentsOf = db
    .select()
    .from(verificationDocuments)
    .where(eq(verificationDocuments.userId, p('userId')))
    .orderBy(desc(verificationDocuments.id))
    .prepare();
  const documentByPublicId = db
    .select({ document: verificationDocuments, ownerPublicId: users.publicId })
    .from(verificationDocuments)
    .innerJoin(users, eq(users.id, verificationDocuments.userId))
    .where(eq(verificationDocuments.publicId, p('publicId')))
    .prepare();
  const pending = db
    .select({
      document: verificationDocuments,
      owner: { publicId: users.publicId, username: users.username, email: users.email },
    })
    .from(verificationDocuments)
    .innerJoin(users, eq(users.id, verificationDocuments.userId))
    .where(eq(verificationDocuments.status, 'pending'))
    .orderBy(asc(verificationDocuments.submittedAt), asc(verificationDocuments.id))
    .limit(p('limit'))
    .prepare();
  return gated(db, {
    db,
    userById: (id: number) => userById(id),
    isPhoneVerified: (userId: number) => phoneOf(userId)?.verifiedAt != null,
    currencyCodeOf: (currencyId: number | null) => (currencyId === null ? undefined : currencyCodeOf(currencyId)?.code),
    /** Newest first: the first row of a kind is the current document of that kind. */
    documentsOf: (userId: number): DocumentRow[] => documentsOf.all({ userId }),
    documentByPublicId: (publicId: string) => documentByPublicId.get({ publicId }),
    pending: (limit: number) => pending.all({ limit }),
    ...documentWrites(db),
  });
}

export type VerificationRepository = ReturnType<typeof createVerificationRepository>;
