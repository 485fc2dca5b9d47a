// Verification rules shared by the verification page (what it offers and says) and the server
// (what it enforces: server/services/verification). Isomorphic; docs/verification.md explains them.

/** 10 MiB: a phone photo or a scanned PDF statement fits. */
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;

/** What the file picker offers; the server decides by the bytes, not by these. */
export const DOCUMENT_ACCEPT = 'image/jpeg,image/png,application/pdf,.jpg,.jpeg,.png,.pdf';

/** A rolling window: what was traded in the last 30 days counts against the limit. */
export const LIMIT_WINDOW_DAYS = 30;

/** The steps of the verification ladder, in order; each one reached raises the level by one. */
export const VERIFICATION_STEPS = ['email', 'phone', 'identity', 'address'] as const;
export type VerificationStep = (typeof VERIFICATION_STEPS)[number];

/**
 * Level n (1–4) is reached when the first n steps are done; level 0 has no verified e-mail and
 * cannot trade (spec section 5). Limits are US dollars per rolling 30 days, as cents.
 */
export const LEVEL_LIMITS_USD_CENTS = [0, 1_000_00, 5_000_00, 25_000_00, 100_000_00] as const;

export const MAX_LEVEL = VERIFICATION_STEPS.length;

/** What a moderator writes when rejecting a document: the person reads it. */
export const REJECTION_REASON_MAX_LENGTH = 500;
