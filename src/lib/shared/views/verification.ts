import type { VerificationStep } from '../verification-rules.ts';

// The verification API's answer shapes (GET /rest/v1/verification, the review queue): the contract
// between server/services/verification, which builds them, and the verification pages. The document
// kinds and states are the schema's too (db/schema/verification.ts reads these lists).

/** Spec section 3: what the verification page asks for. */
export const DOCUMENT_KINDS = ['id_front', 'id_back', 'selfie', 'proof_of_address'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** Spec section 3, document states: uploaded → pending (submitted for review) → approved or rejected. */
export const DOCUMENT_STATUSES = ['uploaded', 'pending', 'approved', 'rejected'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

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

export type CheckStatus = 'verified' | 'pending' | 'rejected' | 'not_submitted' | 'missing';

export interface CheckView {
  status: CheckStatus;
  /** Uploaded documents wait and every required kind is there: the person may submit. */
  canSubmit: boolean;
  /** The current document of each kind of the check, null where there is none. */
  documents: Partial<Record<DocumentKind, DocumentView | null>>;
}

/** What a person has verified; each flag is one step of the ladder. */
export type VerifiedSteps = Record<VerificationStep, boolean>;

export interface NextLevel {
  level: number;
  /** What reaching it takes. */
  step: VerificationStep;
  limitUsdCents: number;
}

/** What a person may still trade, in US cents over the last LIMIT_WINDOW_DAYS days. */
export interface TradeAllowance {
  level: number;
  limitUsdCents: number;
  usedUsdCents: number;
  /** Never below zero, even when a limit was lowered under what was already traded. */
  unusedUsdCents: number;
  windowDays: number;
  /** Null at the top of the ladder. */
  next: NextLevel | null;
}

/** A limit in a fiat currency, rounded down to cents so the answer never promises too much. */
export interface FiatAllowance {
  currency: string;
  limit: number;
  used: number;
  unused: number;
}

/** GET /rest/v1/verification: level, allowance in the person's currency, ladder, checks. */
export interface VerificationStatusView {
  level: number;
  steps: VerifiedSteps;
  allowance: TradeAllowance & FiatAllowance;
  /** Every level with what reaching it takes, its limit also in the allowance's currency. */
  levels: (NextLevel & { limit: number })[];
  identity: CheckView;
  address: CheckView;
}

/** GET /rest/v1/verification/queue: a document waiting for review, with its owner. */
export interface VerificationQueueItem extends DocumentView {
  /** `fullName`: the name the person gave for their identity document, to compare with it. */
  user: { id: string; username: string; email: string; fullName: string | null };
}
