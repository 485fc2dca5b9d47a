import type { AuthState, PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { type LedgerService, type LedgerTransaction, systemAccount, walletOf } from '../ledger/ledger.ts';
import type { QuoteService } from '../quotes/quotes.ts';
import { answerOf, type ConvertResult, firstConversion } from './answer.ts';
import { amountOf, checkMayConvert, currenciesOf } from './rules.ts';

export interface ConvertInput {
  from_crypto_currency_code: string;
  to_crypto_currency_code: string;
  amount: string;
  quote_id: string;
  order_id: string;
}

export interface HedgingDeps {
  ledger: LedgerService;
  quotes: QuoteService;
  /** The identity check of the verification issue; nobody is verified until it lands. */
  isIdVerified: (auth: AuthState) => boolean;
}

/**
 * The signed-in person converts `amount` of one currency into the other at quote `quote_id`, in
 * one ledger transaction through the conversion desk; `order_id` makes it idempotent.
 */
export function createConvert({ ledger, quotes, isIdVerified }: HedgingDeps) {
  return async function convert(ctx: PersonContext, input: ConvertInput): Promise<ConvertResult> {
    const { user } = ctx.auth;
    const { from, to } = currenciesOf(input);
    const key = `conversion:${user.id}:${input.order_id}`;
    const firstOf = () =>
      firstConversion(ledger, ctx, { key, orderId: input.order_id, from, to, amount: input.amount });
    checkMayConvert(ctx.auth, from, isIdVerified);
    const amountFrom = amountOf(input.amount, from);
    let conversion: Awaited<ReturnType<QuoteService['convertAmount']>>;
    try {
      conversion = await quotes.convertAmount(ctx, { from, to, amountMinor: amountFrom, quoteId: input.quote_id });
    } catch (error) {
      // A retry after success may come with a quote that has expired since: answer the first.
      const first = error instanceof AppError && error.code.startsWith('QUOTE_') ? await firstOf() : undefined;
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
    let posted: LedgerTransaction;
    try {
      posted = await ledger.post(ctx, {
        kind: 'conversion',
        idempotencyKey: key,
        memo: `Convert ${from} to ${to}`,
        metadata,
        legs: [
          { account: walletOf(user.id, from), amount: -amountFrom },
          { account: systemAccount('conversion_desk', from), amount: amountFrom },
          { account: systemAccount('conversion_desk', to), amount: -conversion.amountTo },
          { account: walletOf(user.id, to), amount: conversion.amountTo },
        ],
      });
    } catch (error) {
      // A retry at a newer quote: the ledger refuses the key for other parameters; the order's
      // own first conversion answers if it was this one.
      if (error instanceof AppError && error.code === 'IDEMPOTENCY_KEY_REUSED') {
        const first = await firstOf();
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
  };
}
