import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertMinor, quotePrices } from '../../server/services/quotes/quotes.ts';
import {
  conversionReducer,
  disabledReason,
  initialConversion,
  previewAmount,
  quoteIsLive,
} from '../../src/components/wallet/conversion.ts';
import { fromMinorUnits } from '../../src/lib/shared/money.ts';

// The wallet's conversion rules (spec sections 4, 5 and 8) without a browser: the preview is the
// server's own arithmetic, the disabled reasons come in the spec's order, and the states of one
// direction move as the spec says.

const quote = { id: 'qt_test', expiredTimestamp: 2_000_000_000, ask: 95_237.62, bid: 94_762.37 };
const retryableCodes = ['QUOTE_EXPIRED', 'HEDGING_ORDER_PENDING'];

describe('previewAmount', () => {
  it('gives exactly what the server converts, rounded down, for any amount and price', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500_000_000 }),
        fc.integer({ min: 1_000_000, max: 20_000_000 }),
        (minor, midCents) => {
          const { askCents, bidCents } = quotePrices(midCents / 100);
          const q = { ...quote, ask: Number(askCents) / 100, bid: Number(bidCents) / 100 };
          const sats = convertMinor('BTC', BigInt(minor), bidCents);
          expect(previewAmount('BTC', fromMinorUnits(minor, 8), q)).toBe(
            sats > 0n ? fromMinorUnits(Number(sats), 6) : undefined,
          );
          const micro = convertMinor('USDT', BigInt(minor), askCents);
          expect(previewAmount('USDT', fromMinorUnits(minor, 6), q)).toBe(
            micro > 0n ? fromMinorUnits(Number(micro), 8) : undefined,
          );
        },
      ),
    );
  });

  it('gives nothing for text that is not an amount', () => {
    for (const text of ['', '0', 'abc', '1.123456789', '-1']) expect(previewAmount('BTC', text, quote)).toBeUndefined();
  });
});

describe('disabledReason', () => {
  const base = {
    from: 'USDT' as const,
    balance: '10.000000',
    isIdVerified: false,
    available: true,
    subscribeError: false,
    quote,
    obsolete: false,
  };
  it('allows a funded tether conversion at a live quote', () => expect(disabledReason(base)).toBeUndefined());
  it('names the first reason that applies', () => {
    expect(disabledReason({ ...base, available: false, balance: '0' })).toBe('unavailable');
    expect(disabledReason({ ...base, from: 'BTC' })).toBe('idRequired');
    expect(disabledReason({ ...base, from: 'BTC', isIdVerified: true, balance: '0.00000000' })).toBe('noBalance');
    expect(disabledReason({ ...base, subscribeError: true })).toBe('subscribe');
    expect(disabledReason({ ...base, quote: undefined })).toBe('rateMissing');
    expect(disabledReason({ ...base, obsolete: true })).toBe('rateObsolete');
  });
  it('counts a quote live until its expiry second', () => {
    expect(quoteIsLive(quote, quote.expiredTimestamp * 1000 - 1)).toBe(true);
    expect(quoteIsLive(quote, quote.expiredTimestamp * 1000)).toBe(false);
  });
});

describe('conversionReducer', () => {
  const posted = conversionReducer(initialConversion, { type: 'post', orderId: 'cv_1', quote });
  it('goes to pending on 504 or a retryable code, keeping the order id, and stays pending on close', () => {
    const timeout = conversionReducer(posted, {
      type: 'failure',
      status: 504,
      code: 'HEDGING_ORDER_PENDING',
      message: undefined,
      retryableCodes,
    });
    expect(timeout).toMatchObject({ conversionStatus: 'pending', pendingConversion: { orderId: 'cv_1' } });
    const expired = conversionReducer(posted, {
      type: 'failure',
      status: 409,
      code: 'QUOTE_EXPIRED',
      message: undefined,
      retryableCodes,
    });
    expect(expired.conversionStatus).toBe('pending');
    expect(expired.errorMessageKey).toBe('wallet.convert.error.QUOTE_EXPIRED');
    expect(conversionReducer(expired, { type: 'close' })).toBe(expired);
  });
  it('goes to error otherwise; clear-error and close reset it', () => {
    const failed = conversionReducer(posted, {
      type: 'failure',
      status: 409,
      code: 'INSUFFICIENT_FUNDS',
      message: 'no',
      retryableCodes,
    });
    expect(failed).toMatchObject({ conversionStatus: 'error', pendingConversion: undefined });
    expect(conversionReducer(failed, { type: 'clearError' }).conversionStatus).toBe('initial');
    expect(conversionReducer(failed, { type: 'close' })).toEqual(initialConversion);
  });
  it('shows the amount received on success', () => {
    const done = conversionReducer(posted, { type: 'success', toAmount: '0.00100000' });
    expect(done).toMatchObject({ conversionStatus: 'success', toAmount: '0.00100000' });
    expect(conversionReducer(done, { type: 'close' })).toEqual(initialConversion);
  });
});
