// Files in a trade (chat attachments and proofs for the offer's requirements): what the trade
// page's picker offers and what the server enforces (server/services/trades/uploads.ts).

/** 5 MiB per file: a phone photo of a receipt or a one-page PDF statement fits. */
export const TRADE_ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;

/** Files per upload request. */
export const TRADE_ATTACHMENT_MAX_FILES = 3;

/** What the file picker offers; the server decides by the bytes, not by these. */
export const TRADE_ATTACHMENT_ACCEPT = 'image/jpeg,image/png,application/pdf,.jpg,.jpeg,.png,.pdf';

/** The refusal reason of an upload when the opponent blocked the uploader (spec section 8). */
export const BLOCKED_BY_OPPONENT = 'blocked_by_opponent';
