import { CRYPTO_DECIMALS } from '../../../src/lib/shared/money.ts';
import { invalidInput } from '../errors.ts';
import type { CryptoCode } from '../price-feed/price-feed.ts';
import type { Stored } from './book.ts';
import { centsToNumber, convertMinor } from './pricing.ts';
import type { Conversion } from './types.ts';

export interface ConvertAmountInput {
  from: CryptoCode;
  to: CryptoCode;
  amountMinor: number;
  quoteId: string;
}

/**
 * What `amountMinor` of `from` buys of `to` at quote `quoteId`, in minor units, rounded down.
 * Typed errors: QUOTE_UNKNOWN, QUOTE_EXPIRED, ERROR_INPUT_VALIDATION (currencies, amount, or
 * an amount too small to give anything).
 */
export async function convertAmount(
  valid: (id: string) => Promise<Stored>,
  { from, to, amountMinor, quoteId }: ConvertAmountInput,
): Promise<Conversion> {
  if (from === to || !Object.hasOwn(CRYPTO_DECIMALS, from) || !Object.hasOwn(CRYPTO_DECIMALS, to)) {
    throw invalidInput([{ field: 'to_crypto_currency_code', message: 'Convert between BTC and USDT.' }]);
  }
  if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0) {
    throw invalidInput([{ field: 'amount', message: 'The amount must be a positive whole number of minor units.' }]);
  }
  const stored = await valid(quoteId);
  const priceCents = from === 'BTC' ? stored.bidCents : stored.askCents;
  const amountTo = convertMinor(from, BigInt(amountMinor), priceCents);
  if (amountTo <= 0n) {
    throw invalidInput([{ field: 'amount', message: 'The amount is too small to convert at this rate.' }]);
  }
  if (amountTo > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw invalidInput([{ field: 'amount', message: 'The amount is too large.' }]);
  }
  return { from, to, amountFrom: amountMinor, amountTo: Number(amountTo), price: centsToNumber(priceCents), quoteId };
}
