import { newId } from '../../../db/ids.ts';
import type { DocumentKind } from '../../../db/schema/index.ts';
import { immediate, type PersonContext } from '../context.ts';
import { processDocument } from './document-file.ts';
import { checkOf, currentDocuments, type DocumentView, locked, toView, userOf } from './documents.ts';
import type { VerificationDeps } from './types.ts';

/** Refuses a new document of `kind` while its check is verified or one of the kind waits or passed. */
async function assertOpen({ repo }: VerificationDeps, userId: number, kind: DocumentKind): Promise<void> {
  const check = checkOf(kind);
  const account = await userOf(repo, userId);
  if (check === 'identity' ? account.idVerifiedAt !== null : account.addressVerifiedAt !== null) {
    throw locked('This is verified already: there is nothing more to upload.', 'verification_already_verified');
  }
  const status = (await currentDocuments(repo, userId))[kind]?.status;
  if (status === 'pending') {
    throw locked(
      'This document is being reviewed. Wait for the answer before uploading another.',
      'verification_document_pending',
    );
  }
  if (status === 'approved') {
    throw locked('This document was approved already.', 'verification_document_approved');
  }
}

/** Stores one document of the signed-in person; nothing is kept when a check fails. */
export async function uploadDocument(
  deps: VerificationDeps,
  ctx: PersonContext,
  { kind, bytes }: { kind: DocumentKind; bytes: Uint8Array },
): Promise<DocumentView> {
  const { repo, storage, now, log } = deps;
  const { user } = ctx.auth;
  await assertOpen(deps, user.id, kind); // before the work of decoding, and again in the transaction
  const processed = await processDocument(bytes);
  const name = await storage.save(user.publicId, processed.contentType, processed.bytes);
  const publicId = newId('doc');
  let replaced: string | undefined;
  try {
    replaced = await immediate(repo.db, async () => {
      await assertOpen(deps, user.id, kind);
      const previous = await repo.deleteUnsubmitted(user.id, kind);
      await repo.insert({
        publicId,
        userId: user.id,
        kind,
        status: 'uploaded',
        storageName: name,
        contentType: processed.contentType,
        sizeBytes: processed.bytes.length,
        createdAt: now(),
      });
      return previous;
    });
  } catch (error) {
    await storage
      .remove(user.publicId, name)
      .catch((e: unknown) => log('verification: could not delete a refused file', e));
    throw error;
  }
  if (replaced) {
    await storage
      .remove(user.publicId, replaced)
      .catch((e: unknown) => log('verification: could not delete a replaced file', e));
  }
  const row = await repo.documentByPublicId(publicId);
  if (!row) throw new Error('verification: the document just written is gone');
  return toView(row.document);
}
