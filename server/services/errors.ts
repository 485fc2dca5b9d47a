// Typed errors services throw. The HTTP layer maps each code to a status in one place
// (server/http/errors.ts); services never think in HTTP.

export const errorCodes = [
  'ERROR_INPUT_VALIDATION',
  'NOT_FOUND',
  'CSRF_TOKEN_MISMATCH',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INVALID_CREDENTIALS',
  'ACCOUNT_BANNED',
  'USERNAME_ALREADY_CHANGED',
  'TOKEN_INVALID',
  'RATE_UNAVAILABLE',
  'CHALLENGE_REQUIRED',
  'CHALLENGE_INVALID',
  'TWO_FACTOR_REQUIRED',
  'TWO_FACTOR_INVALID',
  'TWO_FACTOR_ALREADY_ENABLED',
  'TWO_FACTOR_NOT_ENABLED',
  // The ledger (server/services/ledger/, docs/decisions/050-ledger-double-entry.md 2026-11-24 "Ledger").
  'INSUFFICIENT_FUNDS',
  'IDEMPOTENCY_KEY_REUSED',
  'ESCROW_ALREADY_LOCKED',
  'ESCROW_ALREADY_RESOLVED',
  // Conversion quotes (server/services/quotes/): ask for a new quote and try again.
  'QUOTE_EXPIRED',
  'QUOTE_UNKNOWN',
  // A conversion that could not take the ledger in time: nothing moved; retry with its order id.
  'HEDGING_ORDER_PENDING',
  // Wallet sendouts: the chain adapter in use cannot send on that network (CHAIN=bitcoind and USDT).
  'SENDOUT_UNAVAILABLE',
  // Operators (server/services/operators/sendouts.ts): the sendout is not in a state to retry or cancel.
  'SENDOUT_STATE_CONFLICT',
  'BUSY',
  // Trades (server/services/trades/): the trade moved on (reload it), the offer changed since it was
  // read (meta.action "reload"), the price moved past the tolerance (the spec's own code), and the
  // release's second factor, answered 400 so the page shows the message (spec section 8).
  'TRADE_STATE_CHANGED',
  'OFFER_CHANGED',
  'fiat_and_btc_amount_mismatch',
  'RELEASE_CODE_REQUIRED',
  'RELEASE_CODE_INVALID',
  // Verification (server/services/verification/): a document under review, approved or reviewed
  // already cannot change; a trade above the trading limit of the person's verification level.
  'DOCUMENT_LOCKED',
  'TRADING_LIMIT_EXCEEDED',
  // Gift cards (server/services/gift-cards/): a seller-offer gift-card trade starts with the buyer's
  // cards; a card another request took, or that no longer fits, refuses the change; a code saved
  // twice; a revealed card that only its seller (or a dispute) may give back.
  'GIFT_CARDS_REQUIRED',
  'GIFT_CARD_UNAVAILABLE',
  'GIFT_CARD_DUPLICATE',
  'GIFT_CARD_REVEALED',
  'GIFT_CARDS_DO_NOT_COVER',
  // Saved bank accounts (server/services/bank-accounts/): one shown in a trade still running.
  'BANK_ACCOUNT_IN_TRADE',
  // Affiliates (server/services/affiliates/): nothing to move yet, the balance is under the minimum.
  'AFFILIATE_BALANCE_TOO_LOW',
  // Webhooks (server/services/webhooks/): the URL did not answer its challenge (meta.reason says
  // how); a test or resend needs a saved, enabled webhook.
  'WEBHOOK_VERIFICATION_FAILED',
  'WEBHOOK_NOT_ENABLED',
  // Kiosks and merchants (server/services/kiosks/, merchants/): the price moved past the quote's
  // tolerance (meta.quote is the new one); a settlement with nothing to move.
  'KIOSK_PRICE_MOVED',
  'MERCHANT_BALANCE_EMPTY',
  // Exports (server/services/exports/): too many being built for one person; the file is not built
  // yet; its download link expired (the file is deleted).
  'TOO_MANY_EXPORTS',
  'EXPORT_NOT_READY',
  'EXPORT_EXPIRED',
  'INTERNAL_ERROR',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export interface FieldIssue {
  field: string;
  message: string;
  /**
   * The message's key under `errors.` in locales/*.json (the spec's own where it names one, section
   * 5 "Profile": `bio_max`, …); the API answers in the reader's language when the key is there.
   */
  key?: string;
  params?: Record<string, string | number>;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;
  readonly details: FieldIssue[] | undefined;
  /** For RATE_LIMITED: when the client may try again (sent as Retry-After). */
  readonly retryAfterSeconds: number | undefined;
  /** Extra facts for the client, sent as the envelope's `meta` (spec section 8: `compromised`). */
  readonly meta: Record<string, unknown> | undefined;
  /** Translation key of the message under `errors.` (see FieldIssue.key). */
  readonly key: string | undefined;
  readonly params: Record<string, string | number> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      field?: string;
      details?: FieldIssue[];
      retryAfterSeconds?: number;
      meta?: Record<string, unknown>;
      key?: string;
      params?: Record<string, string | number>;
    } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.field = options.field;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.meta = options.meta;
    this.key = options.key;
    this.params = options.params;
  }
}

export function notFound(what: string, field?: string): AppError {
  return new AppError('NOT_FOUND', `${what} was not found.`, field ? { field } : {});
}

/** ERROR_INPUT_VALIDATION with the per-field details list of spec section 8; the first names the field. */
export function invalidInput(details: FieldIssue[]): AppError {
  const first = details[0];
  return new AppError(
    'ERROR_INPUT_VALIDATION',
    first ? `Invalid value for ${first.field || 'the request'}: ${first.message}` : 'Invalid input.',
    { ...(first?.field ? { field: first.field } : {}), details },
  );
}
