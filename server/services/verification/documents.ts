import { DOCUMENT_KINDS, type DocumentKind, type DocumentStatus } from '../../../db/schema/index.ts';
import type { CheckStatus, CheckView, DocumentView } from '../../../src/lib/shared/views/verification.ts';
import type { UserRow } from '../accounts/repository.ts';
import { AppError, notFound } from '../errors.ts';
import type { DocumentRow, VerificationRepository } from './repository.ts';

// Documents as the verbs share them: which kinds make a check, a person's current document of
// each kind, how a check stands, and the views clients read.

/** Every kind of document a person uploads; the views clients read (src/lib/shared/views/verification.ts). */
export { type CheckStatus, type CheckView, DOCUMENT_KINDS, type DocumentKind, type DocumentView };

export type Check = 'identity' | 'address';

export const CHECK_KINDS: Record<Check, readonly DocumentKind[]> = {
  identity: ['id_front', 'id_back', 'selfie'],
  address: ['proof_of_address'],
};
/** The back is optional: a passport has none. */
export const REQUIRED_KINDS: Record<Check, readonly DocumentKind[]> = {
  identity: ['id_front', 'selfie'],
  address: ['proof_of_address'],
};
export const checkOf = (kind: DocumentKind): Check => (kind === 'proof_of_address' ? 'address' : 'identity');

/** The spec's moderators (section 6); administrators may do what moderators do. */
export const isModerator = (user: Pick<UserRow, 'role' | 'status'>) =>
  user.status === 'active' && (user.role === 'moderator' || user.role === 'admin');

/** Where clients fetch a document's file: only its owner and moderators get it. */
export const documentFileUrl = (publicId: string) => `/rest/v1/verification/documents/${publicId}/file`;

export const toView = (row: DocumentRow): DocumentView => ({
  id: row.publicId,
  kind: row.kind,
  status: row.status,
  contentType: row.contentType,
  sizeBytes: row.sizeBytes,
  uploadedAt: row.createdAt,
  submittedAt: row.submittedAt,
  reviewedAt: row.reviewedAt,
  reason: row.status === 'rejected' ? row.reason : null,
  fileUrl: documentFileUrl(row.publicId),
});

export const moderatorsOnly = () =>
  new AppError('FORBIDDEN', 'Only moderators review documents.', { key: 'verification_moderators_only' });

export function locked(message: string, key: string): AppError {
  return new AppError('DOCUMENT_LOCKED', message, { key });
}

export async function userOf(repo: VerificationRepository, userId: number) {
  const user = await repo.userById(userId);
  if (!user) throw notFound('User');
  return user;
}

/** Each kind's newest document. */
export async function currentDocuments(repo: VerificationRepository, userId: number) {
  const current: Partial<Record<DocumentKind, DocumentRow>> = {};
  for (const row of await repo.documentsOf(userId)) current[row.kind] ??= row;
  return current;
}

export function checkView(
  check: Check,
  verified: boolean,
  current: Partial<Record<DocumentKind, DocumentRow>>,
): CheckView {
  const rows = CHECK_KINDS[check].map((kind) => current[kind]).filter((row) => row !== undefined);
  const has = (status: DocumentStatus) => rows.some((row) => row.status === status);
  const usable = REQUIRED_KINDS[check].every((kind) => {
    const status = current[kind]?.status;
    return status === 'uploaded' || status === 'pending' || status === 'approved';
  });
  const status: CheckStatus = verified
    ? 'verified'
    : has('pending')
      ? 'pending'
      : has('rejected')
        ? 'rejected'
        : has('uploaded')
          ? 'not_submitted'
          : 'missing';
  const documents: CheckView['documents'] = {};
  for (const kind of CHECK_KINDS[check]) {
    const row = current[kind];
    documents[kind] = row ? toView(row) : null;
  }
  return { status, canSubmit: !verified && has('uploaded') && usable, documents };
}
