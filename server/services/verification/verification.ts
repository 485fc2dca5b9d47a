import { bindVerb } from '../context.ts';
import { documentFile } from './file.ts';
import { assertWithinLimit, tradeAllowance } from './limit.ts';
import { reviewQueue } from './queue.ts';
import { reviewDocument } from './review.ts';
import { currentUserFlags, verificationStatus } from './status.ts';
import { submitCheck } from './submit.ts';
import type { VerificationDeps } from './types.ts';
import { uploadDocument } from './upload.ts';

// Identity and address verification (docs/verification.md): documents move uploaded → pending
// (the person submits them) → approved or rejected (a moderator, with a reason the person reads).
// Approving the last document of a check marks the user verified; the verification level and the
// trading limit of the rolling 30 days follow from what is verified. Events and e-mail go out
// after the commit they report. One verb per file; this wires them to the area's deps.

export {
  CHECK_KINDS,
  type Check,
  type CheckStatus,
  type CheckView,
  DOCUMENT_KINDS,
  type DocumentKind,
  type DocumentView,
  documentFileUrl,
  isModerator,
} from './documents.ts';
export type { FiatAllowance } from './summary.ts';
export type { VerificationDeps } from './types.ts';

/** The verb with the area's deps bound: what callers see is `verb(ctx, input)`. */
export function createVerificationService(deps: VerificationDeps) {
  return {
    /** The verification page's data: level, allowance in the person's currency, ladder, checks. */
    status: (ctx: Parameters<typeof verificationStatus>[1]) => verificationStatus(deps, ctx),
    /** The current user's verification flags (spec section 3). */
    currentUserFlags: (ctx: Parameters<typeof currentUserFlags>[1]) => currentUserFlags(deps, ctx),
    /** What a person may still trade in the rolling 30 days, in US cents. */
    tradeAllowance: bindVerb(deps, tradeAllowance),
    /** TRADING_LIMIT_EXCEEDED past the limit; awaited inside the trade-start transaction. */
    assertWithinLimit: bindVerb(deps, assertWithinLimit),
    upload: bindVerb(deps, uploadDocument),
    submit: bindVerb(deps, submitCheck),
    file: bindVerb(deps, documentFile),
    queue: (ctx: Parameters<typeof reviewQueue>[1], input: { limit?: number } = {}) => reviewQueue(deps, ctx, input),
    review: bindVerb(deps, reviewDocument),
  };
}

export type VerificationService = ReturnType<typeof createVerificationService>;
