import { newId } from '../../../db/ids.ts';
import type { DocumentKind, DocumentStatus } from '../../../db/schema/index.ts';
import type { EventBus } from '../../realtime/bus.ts';
import type { UserRow } from '../accounts/repository.ts';
import { AppError, notFound } from '../errors.ts';
import type { Mailer } from '../messaging/messaging.ts';
import { processDocument } from './document-file.ts';
import { allowanceOf, LIMIT_WINDOW_MS, ladder, levelOf, type TradeAllowance, type VerifiedSteps } from './levels.ts';
import type { DocumentRow, VerificationRepository } from './repository.ts';
import type { DocumentStorage } from './storage.ts';
import type { UsedVolumeSource } from './volume.ts';

// Identity and address verification (docs/verification.md): documents move uploaded → pending
// (the person submits them) → approved or rejected (a moderator, with a reason the person reads).
// Approving the last document of a check marks the user verified; the verification level and the
// trading limit of the rolling 30 days follow from what is verified. Events and e-mail go out
// after the commit they report.

export type Check = 'identity' | 'address';

export const CHECK_KINDS: Record<Check, readonly DocumentKind[]> = {
  identity: ['id_front', 'id_back', 'selfie'],
  address: ['proof_of_address'],
};
/** The back is optional: a passport has none. */
const REQUIRED_KINDS: Record<Check, readonly DocumentKind[]> = {
  identity: ['id_front', 'selfie'],
  address: ['proof_of_address'],
};
const checkOf = (kind: DocumentKind): Check => (kind === 'proof_of_address' ? 'address' : 'identity');

/** English names for e-mails; pages use `verification.kind.<kind>`. */
const KIND_NAMES: Record<DocumentKind, string> = {
  id_front: 'the front of your identity document',
  id_back: 'the back of your identity document',
  selfie: 'your selfie with the identity document',
  proof_of_address: 'your proof of address',
};

/** The spec's moderators (section 6); administrators may do what moderators do. */
export const isModerator = (user: Pick<UserRow, 'role' | 'status'>) =>
  user.status === 'active' && (user.role === 'moderator' || user.role === 'admin');

/** Where clients fetch a document's file: only its owner and moderators get it. */
export const documentFileUrl = (publicId: string) => `/rest/v1/verification/documents/${publicId}/file`;

export interface DocumentView {
  id: string;
  kind: DocumentKind;
  status: DocumentStatus;
  contentType: string;
  sizeBytes: number;
  uploadedAt: number;
  submittedAt: number | null;
  reviewedAt: number | null;
  /** Why it was rejected; null otherwise. */
  reason: string | null;
  fileUrl: string;
}

const toView = (row: DocumentRow): DocumentView => ({
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

export type CheckStatus = 'verified' | 'pending' | 'rejected' | 'not_submitted' | 'missing';

export interface CheckView {
  status: CheckStatus;
  /** Uploaded documents wait and every required kind is there: the person may submit. */
  canSubmit: boolean;
  /** The current document of each kind of the check, null where there is none. */
  documents: Partial<Record<DocumentKind, DocumentView | null>>;
}

/** A limit in a fiat currency, rounded down to cents so the answer never promises too much. */
export interface FiatAllowance {
  currency: string;
  limit: number;
  used: number;
  unused: number;
}

export interface VerificationDeps {
  repo: VerificationRepository;
  storage: DocumentStorage;
  /** US cents a person traded since a moment (volume.ts; the trades table by default). */
  usedVolumeUsdCents: UsedVolumeSource;
  /** Units of a fiat currency per US dollar (the reference service's rates); undefined if unknown. */
  fiatPerUsd: (currency: string) => number | undefined;
  mailer: Mailer;
  bus: EventBus;
  /** The link in the review mail: the configured origin (server/site-origin.ts), never a request's. */
  siteOrigin: { url(pathAndQuery: string): string };
  now: () => number;
  log: (message: string, error?: unknown) => void;
}

const moderatorsOnly = () =>
  new AppError('FORBIDDEN', 'Only moderators review documents.', { key: 'verification_moderators_only' });

function locked(message: string, key: string): AppError {
  return new AppError('DOCUMENT_LOCKED', message, { key });
}

export function createVerificationService(deps: VerificationDeps) {
  const { repo, storage, usedVolumeUsdCents, fiatPerUsd, mailer, bus, siteOrigin, now, log } = deps;

  const userOf = (userId: number) => {
    const user = repo.userById(userId);
    if (!user) throw notFound('User');
    return user;
  };

  /** Each kind's newest document. */
  const currentDocuments = (userId: number) => {
    const current: Partial<Record<DocumentKind, DocumentRow>> = {};
    for (const row of repo.documentsOf(userId)) current[row.kind] ??= row;
    return current;
  };

  const stepsOf = (user: NonNullable<ReturnType<VerificationRepository['userById']>>): VerifiedSteps => ({
    email: user.isEmailVerified,
    phone: repo.isPhoneVerified(user.id),
    identity: user.idVerifiedAt !== null,
    address: user.addressVerifiedAt !== null,
  });

  const allowanceFor = (userId: number, level: number): TradeAllowance =>
    allowanceOf(level, usedVolumeUsdCents(userId, now() - LIMIT_WINDOW_MS));

  const checkView = (
    check: Check,
    verified: boolean,
    current: Partial<Record<DocumentKind, DocumentRow>>,
  ): CheckView => {
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
  };

  /** US cents in `currency`, rounded down to its cents; US dollars when the rate is unknown. */
  const toFiat = (cents: number, currency: string) => Math.floor(cents * (fiatPerUsd(currency) ?? 1)) / 100;
  const inFiat = (allowance: TradeAllowance, wanted: string): FiatAllowance => {
    const currency = fiatPerUsd(wanted) === undefined ? 'USD' : wanted;
    return {
      currency,
      limit: toFiat(allowance.limitUsdCents, currency),
      used: toFiat(allowance.usedUsdCents, currency),
      unused: toFiat(allowance.unusedUsdCents, currency),
    };
  };

  /** Everything the page and the current user read, from one look at the person's rows. */
  const summaryOf = (userId: number) => {
    const user = userOf(userId);
    const steps = stepsOf(user);
    const level = levelOf(steps);
    const current = currentDocuments(userId);
    const allowance = allowanceFor(userId, level);
    const currency = repo.currencyCodeOf(user.currencyId) ?? 'USD';
    return {
      user,
      steps,
      level,
      allowance,
      currency,
      identity: checkView('identity', steps.identity, current),
      address: checkView('address', steps.address, current),
    };
  };

  /** After the commit: a mail server that is down must not undo a review. */
  const mailReviewed = async (to: string, kind: DocumentKind, approved: boolean, reason: string | null) => {
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
  };

  const tradeAllowance = (userId: number): TradeAllowance => allowanceFor(userId, levelOf(stepsOf(userOf(userId))));
  const status = (userId: number) => {
    const { steps, level, allowance, currency, identity, address } = summaryOf(userId);
    const fiat = inFiat(allowance, currency);
    return {
      level,
      steps,
      allowance: { ...allowance, ...fiat },
      levels: ladder().map((rung) => ({ ...rung, limit: toFiat(rung.limitUsdCents, fiat.currency) })),
      identity,
      address,
    };
  };

  return {
    /** The verification page's data: level, allowance in the person's currency, ladder, checks. */
    status,

    /**
     * The current user's verification flags (spec section 3). `unusedTradingVolumeInFiatCurrency`
     * is in the person's currency, as its name says.
     */
    currentUserFlags(userId: number) {
      const { steps, level, allowance, currency, identity, address } = summaryOf(userId);
      const nearLimit = allowance.limitUsdCents > 0 && allowance.unusedUsdCents < allowance.limitUsdCents * 0.2;
      const nextStep = allowance.next?.step;
      const nextCheck = nextStep === 'identity' ? identity : nextStep === 'address' ? address : null;
      return {
        isIdVerificationPending: !steps.identity && identity.status === 'pending',
        isDocumentVerified: identity.documents.id_front?.status === 'approved',
        isAddressVerified: steps.address,
        isAddressVerificationPending: !steps.address && address.status === 'pending',
        kycLevelCheck: { level, unusedTradingVolumeInFiatCurrency: inFiat(allowance, currency).unused },
        // The next step is one a person can take here, not already waiting for review, and the
        // limit matters now: below the ID level, or four fifths of the limit used.
        showKYCVerificationBanner:
          level >= 1 && nextStep !== undefined && nextCheck?.status !== 'pending' && (level < 3 || nearLimit),
      };
    },

    /**
     * What a person may still trade in the rolling 30 days, in US cents. The trades service reads
     * it at trade start through assertWithinLimit; the offer page through the offers service.
     */
    tradeAllowance,

    /**
     * Throws TRADING_LIMIT_EXCEEDED when a trade worth `usdAmountCents` would take the person past
     * the limit of their level. Synchronous: call it inside the trade-start transaction, before the
     * trade row is written, for both the buyer and the seller.
     */
    assertWithinLimit(userId: number, usdAmountCents: number): TradeAllowance {
      const allowance = tradeAllowance(userId);
      if (usdAmountCents > allowance.unusedUsdCents) {
        const params = {
          level: allowance.level,
          unused: (allowance.unusedUsdCents / 100).toFixed(2),
          limit: (allowance.limitUsdCents / 100).toFixed(0),
          days: allowance.windowDays,
        };
        throw new AppError(
          'TRADING_LIMIT_EXCEEDED',
          `This trade is above your trading limit: ${params.unused} USD of ${params.limit} USD left for the last ${params.days} days at level ${params.level}. Verify more to raise it.`,
          { key: 'trading_limit_exceeded', params, meta: { allowance } },
        );
      }
      return allowance;
    },

    /** Stores one document of the signed-in person; nothing is kept when a check fails. */
    async upload(user: Pick<UserRow, 'id' | 'publicId'>, kind: DocumentKind, bytes: Uint8Array): Promise<DocumentView> {
      const check = checkOf(kind);
      const assertOpen = () => {
        const account = userOf(user.id);
        if (check === 'identity' ? account.idVerifiedAt !== null : account.addressVerifiedAt !== null) {
          throw locked('This is verified already: there is nothing more to upload.', 'verification_already_verified');
        }
        const status = currentDocuments(user.id)[kind]?.status;
        if (status === 'pending') {
          throw locked(
            'This document is being reviewed. Wait for the answer before uploading another.',
            'verification_document_pending',
          );
        }
        if (status === 'approved') {
          throw locked('This document was approved already.', 'verification_document_approved');
        }
      };
      assertOpen(); // before the work of decoding, and again in the transaction
      const processed = await processDocument(bytes);
      const name = await storage.save(user.publicId, processed.contentType, processed.bytes);
      const publicId = newId('doc');
      let replaced: string | undefined;
      try {
        replaced = repo.db.transaction(
          () => {
            assertOpen();
            const previous = repo.deleteUnsubmitted(user.id, kind);
            repo.insert({
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
          },
          { behavior: 'immediate' },
        );
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
      const row = repo.documentByPublicId(publicId);
      if (!row) throw new Error('verification: the document just written is gone');
      return toView(row.document);
    },

    /** Sends the uploaded documents of a check to review: uploaded → pending. */
    submit(userId: number, check: Check) {
      repo.db.transaction(
        () => {
          const view = checkView(check, false, currentDocuments(userId));
          if (!view.canSubmit) {
            const message =
              check === 'identity'
                ? 'Upload the front of your identity document and a selfie first.'
                : 'Upload your proof of address first.';
            const key = `verification_submit_${check}`;
            throw new AppError('ERROR_INPUT_VALIDATION', message, {
              field: 'check',
              key,
              details: [{ field: 'check', message, key }],
            });
          }
          repo.submit(userId, CHECK_KINDS[check], now());
        },
        { behavior: 'immediate' },
      );
      return status(userId);
    },

    /** A document's file for its owner or a moderator; 404 for anyone else, as if it did not exist. */
    async file(viewer: Pick<UserRow, 'id' | 'role' | 'status'>, publicId: string) {
      const found = repo.documentByPublicId(publicId);
      if (!found || (found.document.userId !== viewer.id && !isModerator(viewer))) throw notFound('Document');
      const bytes = await storage.read(found.ownerPublicId, found.document.storageName);
      if (!bytes) throw notFound('Document');
      return { bytes, contentType: found.document.contentType, kind: found.document.kind };
    },

    /** The review queue: documents waiting, the longest waiting first. */
    queue(viewer: Pick<UserRow, 'role' | 'status'>, limit = 100) {
      if (!isModerator(viewer)) throw moderatorsOnly();
      return repo.pending(limit).map(({ document, owner }) => ({
        ...toView(document),
        user: { id: owner.publicId, username: owner.username, email: owner.email },
      }));
    },

    /** A moderator approves or rejects one pending document; the person hears of it after the commit. */
    async review({
      moderator,
      documentId,
      decision,
      reason,
    }: {
      moderator: Pick<UserRow, 'id' | 'role' | 'status'>;
      documentId: string;
      decision: 'approve' | 'reject';
      reason: string | null;
    }) {
      if (!isModerator(moderator)) throw moderatorsOnly();
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
      const found = repo.documentByPublicId(documentId);
      if (!found) throw notFound('Document', 'documentId');
      const { document, ownerPublicId } = found;
      const at = now();
      const result = repo.db.transaction(
        () => {
          const approved = decision === 'approve';
          if (
            !repo.review({
              id: document.id,
              status: approved ? 'approved' : 'rejected',
              reason: approved ? null : trimmed,
              reviewerId: moderator.id,
              at,
            })
          ) {
            throw locked('This document was reviewed already.', 'verification_already_reviewed');
          }
          // The check is done when each of its documents that exists is approved and the required ones exist.
          const check = checkOf(document.kind);
          const current = currentDocuments(document.userId);
          const complete =
            REQUIRED_KINDS[check].every((kind) => current[kind] !== undefined) &&
            CHECK_KINDS[check].every((kind) => current[kind] === undefined || current[kind]?.status === 'approved');
          if (approved && complete) {
            if (check === 'identity') repo.setIdVerified(document.userId, at);
            else repo.setAddressVerified(document.userId, at);
          }
          return { approved, check };
        },
        { behavior: 'immediate' },
      );
      const summary = summaryOf(document.userId);
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
      await mailReviewed(summary.user.email, document.kind, result.approved, trimmed || null);
      const after = repo.documentByPublicId(documentId);
      return after ? toView(after.document) : toView(document);
    },
  };
}

export type VerificationService = ReturnType<typeof createVerificationService>;
