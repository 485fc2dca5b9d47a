// Decimal text ↔ integer minor units, without floating point in between: `12.5` with 2 minor
// digits is 1250, exactly. Balances, limits and prices are stored as integers (architecture:
// "never a float for a balance"); people type and read decimals.

const DECIMAL = /^(\d+)(?:\.(\d*))?$/;

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

/** Integer minor units as a number of major units, for JSON answers (fiat limits, prices). */
export function minorToMajor(minor: number, minorDigits: number): number {
  return Number(fromMinorUnits(minor, minorDigits));
}
