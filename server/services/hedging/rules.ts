import { CRYPTO_DECIMALS, fromMinorUnits, toMinorUnits } from '../../../src/lib/shared/money.ts';
import type { AuthState } from '../context.ts';
import { AppError, invalidInput } from '../errors.ts';
import type { CryptoCode } from '../price-feed/price-feed.ts';

// What may be converted, by whom, in which amounts: checked before any quote or posting.

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

const CODES: readonly CryptoCode[] = ['BTC', 'USDT'];
const isCode = (value: string): value is CryptoCode => (CODES as readonly string[]).includes(value);

/** The two currencies of a conversion: BTC and USDT, one each way. */
export function currenciesOf(input: { from_crypto_currency_code: string; to_crypto_currency_code: string }): {
  from: CryptoCode;
  to: CryptoCode;
} {
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
  return { from, to };
}

/** An account in good standing; converting bitcoin also needs a verified identity (spec section 6). */
export function checkMayConvert(auth: AuthState, from: CryptoCode, isIdVerified: (auth: AuthState) => boolean): void {
  if (auth.user.status !== 'active') {
    throw new AppError('FORBIDDEN', 'This account cannot convert now. Contact support.', {
      key: 'hedging_account_restricted',
    });
  }
  if (from === 'BTC' && !isIdVerified(auth)) {
    throw new AppError('FORBIDDEN', 'Verify your identity to convert bitcoin.', { key: 'hedging_id_required' });
  }
}

/** The amount in minor units of `from`, within the limits. */
export function amountOf(text: string, from: CryptoCode): number {
  const decimals = CRYPTO_DECIMALS[from];
  const amountFrom = toMinorUnits(text, decimals);
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
  return amountFrom;
}
