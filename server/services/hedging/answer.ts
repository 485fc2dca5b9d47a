import { CRYPTO_DECIMALS, fromMinorUnits, toMinorUnits } from '../../../src/lib/shared/money.ts';
import type { ServiceContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { LedgerService } from '../ledger/ledger.ts';
import type { CryptoCode } from '../price-feed/price-feed.ts';

// A conversion's answer, read back from its ledger transaction: the first answer of an order is
// the answer of every retry.

export interface ConvertResult {
  currencyToCode: CryptoCode;
  amountTo: string;
  currencyFromCode: CryptoCode;
  amountFrom: string;
  price: number;
  orderId: string;
  transactionId: string;
}

/** The first conversion of an order, in the answer's shape. */
export function answerOf(
  orderId: string,
  metadata: Record<string, unknown> | null,
  transactionId: string,
): ConvertResult {
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
}

/**
 * The first conversion of this order, when it went through already: a retry answers it,
 * whatever became of its quote since. The same order id for another conversion is refused.
 */
export async function firstConversion(
  ledger: LedgerService,
  ctx: ServiceContext,
  order: { key: string; orderId: string; from: CryptoCode; to: CryptoCode; amount: string },
): Promise<ConvertResult | undefined> {
  const first = await ledger.transactionByKey(ctx, { idempotencyKey: order.key });
  if (!first) return undefined;
  const was = first.metadata as { from: string; to: string; amountFrom: number };
  if (
    was.from !== order.from ||
    was.to !== order.to ||
    was.amountFrom !== toMinorUnits(order.amount, CRYPTO_DECIMALS[order.from])
  ) {
    throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This order id belongs to another conversion.', {
      field: 'order_id',
      key: 'hedging_order_reused',
    });
  }
  return answerOf(order.orderId, first.metadata, first.id);
}
