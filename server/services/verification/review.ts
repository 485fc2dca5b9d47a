import type { DocumentKind } from '../../../db/schema/index.ts';
import { immediate, type PersonContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import {
  CHECK_KINDS,
  checkOf,
  currentDocuments,
  isModerator,
  locked,
  moderatorsOnly,
  REQUIRED_KINDS,
  toView,
} from './documents.ts';
import type { DocumentRow } from './repository.ts';
import { summaryOf } from './summary.ts';
import type { VerificationDeps } from './types.ts';

/** English names for e-mails; pages use `verification.kind.<kind>`. */
const KIND_NAMES: Record<DocumentKind, string> = {
  id_front: 'the front of your identity document',
  id_back: 'the back of your identity document',
  selfie: 'your selfie with the identity document',
  proof_of_address: 'your proof of address',
};

/** After the commit: a mail server that is down must not undo a review. */
async function mailReviewed(
  { mailer, siteOrigin, log }: VerificationDeps,
  to: string,
  kind: DocumentKind,
  approved: boolean,
  reason: string | null,
) {
  const page = siteOrigin.url('/verification');
  try {
    await mailer.send({
      to,
      subject: approved ? 'Your Coinfair document was approved' : 'Your Coinfair document needs another look',
      text: approved
        ? `Hello,\n\nOur team approved ${KIND_NAMES[kind]}. Your verification level and trading limit are on ${page}\n`
        : `Hello,\n\nOur team could not accept ${KIND_NAMES[kind]}.\n\nReason: ${reason}\n\nUpload a new document on ${page}\n`,
    });
  } catch (error) {
    log('verification: could not send the review e-mail', error);
  }
}

/** The reason a rejection gives, trimmed; 400 when a rejection has none. */
function reasonOf(decision: 'approve' | 'reject', reason: string | null): string {
  const trimmed = reason?.trim() ?? '';
  if (decision === 'reject' && trimmed.length === 0) {
    const message = 'Say why the document is rejected: the person reads it.';
    const key = 'verification_reason_required';
    throw new AppError('ERROR_INPUT_VALIDATION', message, {
      field: 'reason',
      key,
      details: [{ field: 'reason', message, key }],
    });
  }
  return trimmed;
}

/** Records the decision; the last approved document of a check marks the user verified. */
function decide(
  { repo, now }: VerificationDeps,
  moderatorId: number,
  document: DocumentRow,
  approved: boolean,
  reason: string,
) {
  const at = now();
  return immediate(repo.db, async () => {
    if (
      !(await repo.review({
        id: document.id,
        status: approved ? 'approved' : 'rejected',
        reason: approved ? null : reason,
        reviewerId: moderatorId,
        at,
      }))
    ) {
      throw locked('This document was reviewed already.', 'verification_already_reviewed');
    }
    // The check is done when each of its documents that exists is approved and the required ones exist.
    const check = checkOf(document.kind);
    const current = await currentDocuments(repo, document.userId);
    const complete =
      REQUIRED_KINDS[check].every((kind) => current[kind] !== undefined) &&
      CHECK_KINDS[check].every((kind) => current[kind] === undefined || current[kind]?.status === 'approved');
    if (approved && complete) {
      if (check === 'identity') await repo.setIdVerified(document.userId, at);
      else await repo.setAddressVerified(document.userId, at);
    }
    return { approved, check };
  });
}

/** A moderator approves or rejects one pending document; the person hears of it after the commit. */
export async function reviewDocument(
  deps: VerificationDeps,
  ctx: PersonContext,
  {
    documentId,
    decision,
    reason,
  }: {
    documentId: string;
    decision: 'approve' | 'reject';
    reason: string | null;
  },
) {
  const { repo, bus } = deps;
  const moderator = ctx.auth.user;
  if (!isModerator(moderator)) throw moderatorsOnly();
  const trimmed = reasonOf(decision, reason);
  const found = await repo.documentByPublicId(documentId);
  if (!found) throw notFound('Document', 'documentId');
  const { document, ownerPublicId } = found;
  const result = await decide(deps, moderator.id, document, decision === 'approve', trimmed);
  const summary = await summaryOf(deps, document.userId);
  bus.publish('verification', {
    type: 'verification.reviewed',
    payload: {
      userId: document.userId,
      userPublicId: ownerPublicId,
      documentId,
      kind: document.kind,
      check: result.check,
      decision: result.approved ? 'approved' : 'rejected',
      reason: result.approved ? null : trimmed,
      level: summary.level,
      isIdVerified: summary.steps.identity,
      isAddressVerified: summary.steps.address,
    },
  });
  await mailReviewed(deps, summary.user.email, document.kind, result.approved, trimmed || null);
  const after = await repo.documentByPublicId(documentId);
  return after ? toView(after.document) : toView(document);
}
