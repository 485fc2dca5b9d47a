import { CRYPTO_DECIMALS, fromMinorUnits, toMinorUnits } from '../../lib/shared/money.ts';
import type { ConversionDirection, CryptoCode, Quote } from './types.ts';

// The conversion rules of spec sections 4, 5 and 8 without React: the amount a quote gives (the
// server's integer arithmetic, rounded down), when conversion is disabled and why, and the state
// of one direction (initial, posting, success, pending, error).

/** Quote prices are USDT per BTC with 2 decimals; BTC 8 and USDT 6 decimals leave 10^4 between them. */
const SCALE = 10n ** BigInt(CRYPTO_DECIMALS.BTC + 2 - CRYPTO_DECIMALS.USDT);

export const DIRECTIONS: Record<ConversionDirection, { from: CryptoCode; to: CryptoCode }> = {
  toUsdt: { from: 'BTC', to: 'USDT' },
  toBtc: { from: 'USDT', to: 'BTC' },
};

const cents = (price: number) => BigInt(Math.round(price * 100));

/**
 * The amount `amountText` of `from` converts to at `quote`, as decimal text of the other
 * currency (BTC → USDT at the bid, USDT → BTC at the ask, rounded down as the server does);
 * undefined when the amount is not a valid positive amount or gives nothing.
 */
export function previewAmount(from: CryptoCode, amountText: string, quote: Quote): string | undefined {
  const minor = toMinorUnits(amountText, CRYPTO_DECIMALS[from]);
  if (minor === undefined || minor <= 0) return undefined;
  const amount = BigInt(minor);
  const to: CryptoCode = from === 'BTC' ? 'USDT' : 'BTC';
  const result = from === 'BTC' ? (amount * cents(quote.bid)) / SCALE : (amount * SCALE) / cents(quote.ask);
  return result > 0n ? fromMinorUnits(Number(result), CRYPTO_DECIMALS[to]) : undefined;
}

/** A quote is usable until its expiry second (the server refuses it from that second on). */
export const quoteIsLive = (quote: Quote | undefined, nowMs: number): quote is Quote =>
  quote !== undefined && nowMs < quote.expiredTimestamp * 1000;

export type DisabledReason = 'unavailable' | 'subscribe' | 'idRequired' | 'noBalance' | 'rateObsolete' | 'rateMissing';

/**
 * Why conversion from `from` is disabled (spec section 5), the first reason that applies, or
 * undefined when it is allowed.
 */
export function disabledReason({
  from,
  balance,
  isIdVerified,
  available,
  subscribeError,
  quote,
  obsolete,
}: {
  from: CryptoCode;
  balance: string;
  isIdVerified: boolean;
  available: boolean;
  subscribeError: boolean;
  quote: Quote | undefined;
  obsolete: boolean;
}): DisabledReason | undefined {
  if (!available) return 'unavailable';
  if (from === 'BTC' && !isIdVerified) return 'idRequired';
  if ((toMinorUnits(balance, CRYPTO_DECIMALS[from]) ?? 0) <= 0) return 'noBalance';
  if (subscribeError) return 'subscribe';
  if (!quote) return 'rateMissing';
  if (obsolete) return 'rateObsolete';
  return undefined;
}

export type ConversionStatus = 'initial' | 'posting' | 'success' | 'pending' | 'error';

/** Spec section 3, "Conversion state per direction". */
export interface ConversionState {
  conversionStatus: ConversionStatus;
  /** The order id of a conversion that may be retried (pending), or that is being posted. */
  pendingConversion: { orderId: string } | undefined;
  toAmount: string | undefined;
  errorMessageKey: string | undefined;
  /** The server's message, shown when no message of ours matches the key. */
  errorMessage: string | undefined;
  /** The quote the last request used. */
  quote: Quote | undefined;
}

export const initialConversion: ConversionState = {
  conversionStatus: 'initial',
  pendingConversion: undefined,
  toAmount: undefined,
  errorMessageKey: undefined,
  errorMessage: undefined,
  quote: undefined,
};

export type ConversionAction =
  | { type: 'post'; orderId: string; quote: Quote }
  | { type: 'success'; toAmount: string }
  | { type: 'failure'; status: number; code: string; message: string | undefined; retryableCodes: readonly string[] }
  | { type: 'clearError' }
  | { type: 'close' };

/** Codes whose message is ours (`wallet.convert.error.<code>`); others show the server's message. */
export const KNOWN_ERROR_CODES = [
  'QUOTE_EXPIRED',
  'QUOTE_UNKNOWN',
  'INSUFFICIENT_FUNDS',
  'HEDGING_ORDER_PENDING',
  'NETWORK_ERROR',
  'UNKNOWN_ERROR',
] as const;

export function conversionReducer(state: ConversionState, action: ConversionAction): ConversionState {
  switch (action.type) {
    case 'post':
      return {
        ...state,
        conversionStatus: 'posting',
        pendingConversion: { orderId: action.orderId },
        errorMessageKey: undefined,
        errorMessage: undefined,
        quote: action.quote,
      };
    case 'success':
      return { ...initialConversion, conversionStatus: 'success', toAmount: action.toAmount, quote: state.quote };
    case 'failure': {
      // Spec section 8: 504 or a retryable code → pending (the same order id may be retried).
      const pending = action.status === 504 || action.retryableCodes.includes(action.code);
      return {
        ...state,
        conversionStatus: pending ? 'pending' : 'error',
        pendingConversion: pending ? state.pendingConversion : undefined,
        errorMessageKey: `wallet.convert.error.${action.code}`,
        errorMessage: action.message,
      };
    }
    case 'clearError':
      return state.conversionStatus === 'error' ? { ...initialConversion, quote: state.quote } : state;
    case 'close':
      // Closing resets the direction unless a conversion is pending (it may still be retried).
      return state.conversionStatus === 'pending' || state.conversionStatus === 'posting' ? state : initialConversion;
  }
}

/** An order id the server accepts (8–64 letters, digits, - or _). */
export function newOrderId(): string {
  return `cv_${crypto.randomUUID().replaceAll('-', '')}`;
}
