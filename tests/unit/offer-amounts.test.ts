import { describe, expect, it } from 'vitest';
import { amountProblem, cryptoForFiat, fiatForCrypto } from '../../src/components/offers/amounts.ts';
import { toMinorUnits } from '../../src/lib/shared/money.ts';

// The start widget's how-much inputs: the crypto side carries no more decimals than the server
// reads for that crypto (BTC 8, USDT 6), or the start would be refused as a price mismatch.

describe('offer amounts', () => {
  it('gives bitcoin with 8 decimals and tether with 6, each one the server can read', () => {
    const btc = cryptoForFiat('100', 92_631.57, 8);
    expect(btc).toBe('0.00107955');
    expect(toMinorUnits(btc, 8)).toBe(107_955);
    const usdt = cryptoForFiat('100', 0.62, 6);
    expect(usdt).toBe('161.290323');
    expect(toMinorUnits(usdt, 6)).toBe(161_290_323);
  });

  it('trims trailing zeros and answers nothing for no price or no amount', () => {
    expect(cryptoForFiat('50', 100_000, 8)).toBe('0.0005');
    expect(cryptoForFiat('50', 0, 8)).toBe('');
    expect(cryptoForFiat('', 100_000, 8)).toBe('');
  });

  it('converts back to fiat with the currency decimals and names what blocks an amount', () => {
    expect(fiatForCrypto('0.0005', 100_000)).toBe('50');
    expect(fiatForCrypto('1', 151.123, 0)).toBe('151');
    const limits = { min: 50, max: 500, predefined: [] as number[] };
    expect(amountProblem('', limits)).toBe('empty');
    expect(amountProblem('10', limits)).toBe('below_min');
    expect(amountProblem('501', limits)).toBe('above_max');
    expect(amountProblem('100', { ...limits, predefined: [50, 200] })).toBe('not_predefined');
    expect(amountProblem('200', { ...limits, predefined: [50, 200] })).toBeUndefined();
  });
});
