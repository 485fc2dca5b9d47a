/**
 * Rounds half away from zero at `decimals` places, deciding on the digits the number prints as
 * (1.005 → 1.01) rather than on its binary neighbour (1.00499999…), by shifting the decimal point in
 * the text instead of multiplying.
 */
export function roundDecimal(value: number, decimals: number): number {
  if (!Number.isFinite(value)) throw new RangeError(`cannot round ${value}`);
  const [digits = '0', exponent = '0'] = String(Math.abs(value)).split('e');
  const scaled = Math.round(Number(`${digits}e${Number(exponent) + decimals}`));
  // Beyond 2^53 a double holds no digits at `decimals` places: there is nothing left to round.
  if (!Number.isSafeInteger(scaled)) return value;
  return Math.sign(value) * Number(`${scaled}e${-decimals}`);
}
