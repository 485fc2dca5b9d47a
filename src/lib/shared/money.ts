// Decimal text ↔ integer minor units, without floating point in between: `12.5` with 2 minor
// digits is 1250, exactly. Balances, limits and prices are stored as integers (architecture:
// "never a float for a balance"); people type and read decimals.

const DECIMAL = /^(\d+)(?:\.(\d*))?$/;

export { CRYPTO_DECIMALS } from './crypto-decimals.ts';

/**
 * `text` as an integer count of minor units, or undefined when it is not a plain non-negative
 * decimal, has more decimals than `minorDigits`, or exceeds Number.MAX_SAFE_INTEGER.
 */
export function toMinorUnits(text: string, minorDigits: number): number | undefined {
  const match = DECIMAL.exec(text.trim());
  if (!match) return undefined;
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > minorDigits) return undefined;
  const digits = `${whole}${fraction.padEnd(minorDigits, '0')}`.replace(/^0+(?=\d)/, '');
  const value = Number(digits);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** Integer minor units as decimal text with exactly `minorDigits` decimals: 1250, 2 → `12.50`. */
export function fromMinorUnits(minor: number, minorDigits: number): string {
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(minorDigits + 1, '0');
  if (minorDigits === 0) return `${sign}${digits}`;
  return `${sign}${digits.slice(0, -minorDigits)}.${digits.slice(-minorDigits)}`;
}

/**
 * The sum of two amounts given as decimal text, as decimal text with exactly `minorDigits`
 * decimals (an amount and its fee: what leaves a balance); text that is not an amount counts as 0.
 */
export function addAmounts(a: string, b: string, minorDigits: number): string {
  return fromMinorUnits((toMinorUnits(a, minorDigits) ?? 0) + (toMinorUnits(b, minorDigits) ?? 0), minorDigits);
}

/** Integer minor units as a number of major units, for JSON answers (fiat limits, prices). */
export function minorToMajor(minor: number, minorDigits: number): number {
  return Number(fromMinorUnits(minor, minorDigits));
}

/**
 * Rounds half away from zero at `decimals` places, deciding on the digits the number prints as
 * (1.005 → 1.01) rather than on its binary neighbour (1.00499999…), by shifting the decimal point in
 * the text instead of multiplying. For prices and rates, which are decimals people read; balances
 * never pass through a float.
 */
export function roundDecimal(value: number, decimals: number): number {
  if (!Number.isFinite(value)) throw new RangeError(`cannot round ${value}`);
  const [digits = '0', exponent = '0'] = String(Math.abs(value)).split('e');
  const scaled = Math.round(Number(`${digits}e${Number(exponent) + decimals}`));
  // Beyond 2^53 a double holds no digits at `decimals` places: there is nothing left to round.
  if (!Number.isSafeInteger(scaled)) return value;
  return Math.sign(value) * Number(`${scaled}e${-decimals}`);
}
