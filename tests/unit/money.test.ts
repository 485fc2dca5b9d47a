import { describe, expect, it } from 'vitest';
import { addAmounts, fromMinorUnits, minorToMajor, toMinorUnits } from '../../src/lib/shared/money.ts';

describe('money', () => {
  it.each([
    ['12.5', 2, 1250],
    ['12.50', 2, 1250],
    ['0.01', 2, 1],
    ['1000', 0, 1000],
    ['1.500', 0, undefined],
    ['0.00000001', 8, 1],
    ['21000000', 8, 2_100_000_000_000_000],
    ['007', 2, 700],
    [' 5 ', 2, 500],
  ])('reads %s with %i decimals as %s', (text, digits, minor) => {
    expect(toMinorUnits(text, digits)).toBe(minor);
  });

  it.each(['', '-1', '1e3', '1,5', '.5', '1.2.3', 'abc', '12.345', '99999999999999999'])('refuses %j', (text) => {
    expect(toMinorUnits(text, 2)).toBeUndefined();
  });

  it('writes minor units back with exactly the currency decimals', () => {
    expect(fromMinorUnits(1250, 2)).toBe('12.50');
    expect(fromMinorUnits(1, 8)).toBe('0.00000001');
    expect(fromMinorUnits(-5, 2)).toBe('-0.05');
    expect(fromMinorUnits(1000, 0)).toBe('1000');
    expect(minorToMajor(1999, 2)).toBe(19.99);
  });

  it('adds an amount and its fee exactly, in the currency decimals', () => {
    expect(addAmounts('0.004', '0.00002', 8)).toBe('0.00402000');
    expect(addAmounts('0.1', '0.2', 6)).toBe('0.300000');
    expect(addAmounts('', '1', 6)).toBe('1.000000');
  });

  it('round-trips every amount it reads', () => {
    for (let minor = 0; minor < 20_000; minor += 7) {
      expect(toMinorUnits(fromMinorUnits(minor, 2), 2)).toBe(minor);
      expect(toMinorUnits(fromMinorUnits(minor, 3), 3)).toBe(minor);
    }
  });
});
