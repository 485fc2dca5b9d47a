import type { PersonContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { isModerator } from './documents.ts';
import type { VerificationDeps } from './types.ts';

/** A document's file for its owner or a moderator; 404 for anyone else, as if it did not exist. */
export async function documentFile(
  { repo, storage }: VerificationDeps,
  ctx: PersonContext,
  { documentId }: { documentId: string },
) {
  const viewer = ctx.auth.user;
  const found = await repo.documentByPublicId(documentId);
  if (!found || (found.document.userId !== viewer.id && !isModerator(viewer))) throw notFound('Document');
  const bytes = await storage.read(found.ownerPublicId, found.document.storageName);
  if (!bytes) throw notFound('Document');
  return { bytes, contentType: found.document.contentType, kind: found.document.kind };
}
