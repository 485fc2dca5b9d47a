import { CRYPTO_DECIMALS, fromMinorUnits, toMinorUnits } from '../../../src/lib/shared/money.ts';
import type { AuthState } from '../context.ts';
import { AppError, invalidInput } from '../errors.ts';
import { type LedgerService, systemAccount, walletOf } from '../ledger/ledger.ts';
import type { CryptoCode } from '../price-feed/price-feed.ts';
import type { QuoteService } from '../quotes/quotes.ts';

// Conversion between BTC and USDT ("hedging", spec sections 3, 4 and 8): at a current quote, within
// the limits, from a wallet that holds the amount, through the conversion desk, in one ledger
// transaction. `order_id` makes it idempotent: a retry with the same order answers the first
// conversion even after its quote expired, and nothing moves twice.

/** Per source currency, in minor units (docs/decisions.md): 0.0001–5 BTC, 10–250,000 USDT. */
export const HEDGING_LIMITS: Record<CryptoCode, { min: number; max: number }> = {
  BTC: { min: 10_000, max: 500_000_000 },
  USDT: { min: 10_000_000, max: 250_000_000_000 },
};

/**
 * Codes a client may retry (spec section 8): a new quote fixes QUOTE_EXPIRED, and a busy ledger
 * (HEDGING_ORDER_PENDING, answered 504) settles on a retry with the same order id.
 */
export const RETRYABLE_CODES = ['QUOTE_EXPIRED', 'HEDGING_ORDER_PENDING'] as const;

export interface ConvertInput {
  from_crypto_currency_code: string;
  to_crypto_currency_code: string;
  amount: string;
  quote_id: string;
  order_id: string;
}

export interface ConvertResult {
  currencyToCode: CryptoCode;
  amountTo: string;
  currencyFromCode: CryptoCode;
  amountFrom: string;
  price: number;
  orderId: string;
  transactionId: string;
}

const CODES: readonly CryptoCode[] = ['BTC', 'USDT'];
const isCode = (value: string): value is CryptoCode => (CODES as readonly string[]).includes(value);

export function createHedgingService({
  ledger,
  quotes,
  isIdVerified,
}: {
  ledger: LedgerService;
  quotes: QuoteService;
  /** The identity check of the verification issue; nobody is verified until it lands. */
  isIdVerified: (auth: AuthState) => boolean;
}) {
  /** The first conversion of an order, in the answer's shape. */
  const answerOf = (
    orderId: string,
    metadata: Record<string, unknown> | null,
    transactionId: string,
  ): ConvertResult => {
    const m = metadata as { from: CryptoCode; to: CryptoCode; amountFrom: number; amountTo: number; price: number };
    return {
      currencyToCode: m.to,
      amountTo: fromMinorUnits(m.amountTo, CRYPTO_DECIMALS[m.to]),
      currencyFromCode: m.from,
      amountFrom: fromMinorUnits(m.amountFrom, CRYPTO_DECIMALS[m.from]),
      price: m.price,
      orderId,
      transactionId,
    };
  };

  return {
    limits: HEDGING_LIMITS,

    convert({ auth, input }: { auth: AuthState; input: ConvertInput }): ConvertResult {
      const from = input.from_crypto_currency_code.toUpperCase();
      const to = input.to_crypto_currency_code.toUpperCase();
      if (!isCode(from) || !isCode(to) || from === to) {
        throw invalidInput([
          {
            field: isCode(from) ? 'to_crypto_currency_code' : 'from_crypto_currency_code',
            message: 'Convert between BTC and USDT.',
            key: 'hedging_currencies',
          },
        ]);
      }
      const key = `conversion:${auth.user.id}:${input.order_id}`;
      /**
       * The first conversion of this order, when it went through already: a retry answers it,
       * whatever became of its quote since. The same order id for another conversion is refused.
       */
      const firstOf = (): ConvertResult | undefined => {
        const first = ledger.transactionByKey(key);
        if (!first) return undefined;
        const was = first.metadata as { from: string; to: string; amountFrom: number };
        if (
          was.from !== from ||
          was.to !== to ||
          was.amountFrom !== toMinorUnits(input.amount, CRYPTO_DECIMALS[from])
        ) {
          throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This order id belongs to another conversion.', {
            field: 'order_id',
            key: 'hedging_order_reused',
          });
        }
        return answerOf(input.order_id, first.metadata, first.id);
      };

      if (auth.user.status !== 'active') {
        throw new AppError('FORBIDDEN', 'This account cannot convert now. Contact support.', {
          key: 'hedging_account_restricted',
        });
      }
      // Spec section 6: converting bitcoin needs a verified identity.
      if (from === 'BTC' && !isIdVerified(auth)) {
        throw new AppError('FORBIDDEN', 'Verify your identity to convert bitcoin.', { key: 'hedging_id_required' });
      }
      const decimals = CRYPTO_DECIMALS[from];
      const amountFrom = toMinorUnits(input.amount, decimals);
      if (amountFrom === undefined || amountFrom <= 0) {
        throw invalidInput([
          {
            field: 'amount',
            message: `Enter an amount above 0 with at most ${decimals} decimals.`,
            key: 'hedging_amount_invalid',
            params: { decimals },
          },
        ]);
      }
      const limits = HEDGING_LIMITS[from];
      if (amountFrom < limits.min || amountFrom > limits.max) {
        const min = fromMinorUnits(limits.min, decimals);
        const max = fromMinorUnits(limits.max, decimals);
        throw invalidInput([
          {
            field: 'amount',
            message: `Convert between ${min} and ${max} ${from}.`,
            key: 'hedging_amount_limits',
            params: { min, max, currency: from },
          },
        ]);
      }
      let conversion: ReturnType<QuoteService['convertAmount']>;
      try {
        conversion = quotes.convertAmount({ from, to, amountMinor: amountFrom, quoteId: input.quote_id });
      } catch (error) {
        // A retry after success may come with a quote that has expired since: answer the first.
        const first = error instanceof AppError && error.code.startsWith('QUOTE_') ? firstOf() : undefined;
        if (first) return first;
        throw error;
      }
      const metadata = {
        from,
        to,
        amountFrom,
        amountTo: conversion.amountTo,
        price: conversion.price,
        quoteId: input.quote_id,
      };
      let posted: ReturnType<LedgerService['post']>;
      try {
        posted = ledger.post({
          ctx: { actor: { type: 'user', userId: auth.user.id } },
          input: {
            kind: 'conversion',
            idempotencyKey: key,
            memo: `Convert ${from} to ${to}`,
            metadata,
            legs: [
              { account: walletOf(auth.user.id, from), amount: -amountFrom },
              { account: systemAccount('conversion_desk', from), amount: amountFrom },
              { account: systemAccount('conversion_desk', to), amount: -conversion.amountTo },
              { account: walletOf(auth.user.id, to), amount: conversion.amountTo },
            ],
          },
        });
      } catch (error) {
        // A retry at a newer quote: the ledger refuses the key for other parameters; the order's
        // own first conversion answers if it was this one.
        if (error instanceof AppError && error.code === 'IDEMPOTENCY_KEY_REUSED') {
          const first = firstOf();
          if (first) return first;
        }
        // The write lock stayed taken past the busy timeout: nothing was written. The order is
        // pending for the client, and a retry with the same order id settles it exactly once.
        if (error instanceof Error && 'code' in error && String(error.code).startsWith('SQLITE_BUSY')) {
          throw new AppError('HEDGING_ORDER_PENDING', 'The conversion is still being processed. Try again.', {
            key: 'hedging_order_pending',
          });
        }
        throw error;
      }
      return answerOf(input.order_id, posted.metadata, posted.id);
    },
  };
}

export type HedgingService = ReturnType<typeof createHedgingService>;
