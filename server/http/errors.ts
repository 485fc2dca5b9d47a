import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Locale } from '../../src/lib/shared/i18n/locales.ts';
import { catalogues, interpolate } from '../../src/lib/shared/i18n/messages.ts';
import { AppError, type ErrorCode, type FieldIssue } from '../services/errors.ts';
import { requestLocale } from './locale.ts';

/** The closed map from error code to HTTP status (ARCHITECTURE.md: one error envelope). */
export const statusOf: Record<ErrorCode, ContentfulStatusCode> = {
  ERROR_INPUT_VALIDATION: 400,
  NOT_FOUND: 404,
  CSRF_TOKEN_MISMATCH: 403,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INVALID_CREDENTIALS: 401,
  ACCOUNT_BANNED: 403,
  USERNAME_ALREADY_CHANGED: 409,
  TOKEN_INVALID: 400,
  RATE_UNAVAILABLE: 503,
  CHALLENGE_REQUIRED: 400,
  CHALLENGE_INVALID: 400,
  // Sign-in with a second factor: the password was right, the code is missing or wrong.
  TWO_FACTOR_REQUIRED: 401,
  TWO_FACTOR_INVALID: 401,
  TWO_FACTOR_ALREADY_ENABLED: 409,
  TWO_FACTOR_NOT_ENABLED: 409,
  // Conflicts with the current balance or escrow state; after a deposit the same request may pass.
  INSUFFICIENT_FUNDS: 409,
  // The same Idempotency-Key with other parameters: a client bug, never retryable as is.
  IDEMPOTENCY_KEY_REUSED: 400,
  ESCROW_ALREADY_LOCKED: 409,
  ESCROW_ALREADY_RESOLVED: 409,
  // A conversion quoted an expired or forgotten quote (a restart forgets them): fetch a new one.
  QUOTE_EXPIRED: 409,
  QUOTE_UNKNOWN: 409,
  // The chain in use cannot send on this network now; another network or later may work.
  SENDOUT_UNAVAILABLE: 503,
  SENDOUT_STATE_CONFLICT: 409,
  // Too many writers raced for the same rows (PostgreSQL gave up retrying): nothing was written.
  BUSY: 503,
  // Spec section 8: a 504 leaves the conversion pending; the client retries with the same order id.
  HEDGING_ORDER_PENDING: 504,
  TRADE_STATE_CHANGED: 409,
  OFFER_CHANGED: 409,
  fiat_and_btc_amount_mismatch: 409,
  RELEASE_CODE_REQUIRED: 400,
  RELEASE_CODE_INVALID: 400,
  // The document's state forbids the change; a new upload after the review may pass.
  DOCUMENT_LOCKED: 409,
  // Not allowed at the person's verification level; a higher level (or time) lets it pass.
  TRADING_LIMIT_EXCEEDED: 403,
  // Gift cards: the offer needs cards (the client opens the card chooser); a card's state or the
  // cards' total forbids the change now; a code already saved.
  GIFT_CARDS_REQUIRED: 409,
  GIFT_CARD_UNAVAILABLE: 409,
  GIFT_CARD_DUPLICATE: 409,
  GIFT_CARD_REVEALED: 409,
  GIFT_CARDS_DO_NOT_COVER: 409,
  // A saved account shown in a running trade: deletable once the trade ended.
  BANK_ACCOUNT_IN_TRADE: 409,
  AFFILIATE_BALANCE_TOO_LOW: 409,
  WEBHOOK_VERIFICATION_FAILED: 422,
  WEBHOOK_NOT_ENABLED: 409,
  KIOSK_PRICE_MOVED: 409,
  MERCHANT_BALANCE_EMPTY: 409,
  // A person's exports: one more once one of theirs is ready; not built yet; the link is gone for good.
  TOO_MANY_EXPORTS: 429,
  EXPORT_NOT_READY: 409,
  EXPORT_EXPIRED: 410,
  INTERNAL_ERROR: 500,
};

export interface ErrorBody {
  errors: { code: ErrorCode; message: string; field?: string; details?: FieldIssue[] }[];
  meta?: Record<string, unknown>;
}

/**
 * A message in the reader's language: `errors.<key>` of their catalogue, else of English, else
 * the English text the service wrote (keys are added where people read the message on a form).
 */
export function localizedMessage(
  locale: Locale,
  message: string,
  key: string | undefined,
  params?: Record<string, string | number>,
): string {
  const name = `errors.${key}` as keyof (typeof catalogues)['en'];
  const template = (key && (catalogues[locale][name] ?? catalogues.en[name])) || message;
  return params ? interpolate(template, params) : template;
}

export function errorBody(error: AppError, locale: Locale = 'en'): ErrorBody {
  const entry: ErrorBody['errors'][number] = {
    code: error.code,
    message: localizedMessage(locale, error.message, error.key, error.params),
  };
  if (error.field !== undefined) entry.field = error.field;
  if (error.details !== undefined) {
    entry.details = error.details.map(({ params, ...issue }) => ({
      ...issue,
      message: localizedMessage(locale, issue.message, issue.key, params),
    }));
  }
  return error.meta ? { errors: [entry], meta: error.meta } : { errors: [entry] };
}

export function errorResponse(c: Context, error: AppError): Response {
  if (error.retryAfterSeconds !== undefined)
    c.header('Retry-After', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
  return c.json(errorBody(error, requestLocale(c)), statusOf[error.code]);
}

/** The response for errors that are not AppErrors: logged in full, answered without internals. */
export function unexpectedErrorResponse(c: Context, error: unknown, log: (e: unknown) => void): Response {
  // Hono raises its own HTTPException for malformed bodies and the like: a client error, not a bug.
  if (error && typeof error === 'object' && 'getResponse' in error && 'status' in error) {
    const status = Number((error as { status: number }).status);
    if (status >= 400 && status < 500) {
      const code: ErrorCode = status === 413 ? 'PAYLOAD_TOO_LARGE' : 'ERROR_INPUT_VALIDATION';
      return errorResponse(c, new AppError(code, 'The request could not be read.'));
    }
  }
  // PostgreSQL's retries ran out (db/postgres.ts) on a transaction opened outside `immediate()`:
  // nothing was written, and trying again shortly works.
  if ((error as { code?: unknown } | null)?.code === 'CONTENDED') {
    return errorResponse(
      c,
      new AppError('BUSY', 'Many people are changing the same thing right now. Please try again.', {
        retryAfterSeconds: 1,
      }),
    );
  }
  log(error);
  return errorResponse(
    c,
    new AppError('INTERNAL_ERROR', 'Something went wrong on our side. Please try again.', { key: 'internal' }),
  );
}
