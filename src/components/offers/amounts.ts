import { AMOUNT_PATTERN } from '../../lib/shared/input-patterns.ts';

// The how-much inputs of an offer (spec section 5): fiat → crypto is the amount divided by the
// price, shown with the crypto's decimals (BTC 8, USDT 6: the server refuses more); crypto → fiat
// is multiplied, shown with the currency's decimals.
// Empty counts as 0. Inputs take digits with one optional decimal point.

export const isAmountText = (text: string) => AMOUNT_PATTERN.test(text);

const toNumber = (text: string) => (text === '' || text === '.' ? 0 : Number(text));

/** Trailing zeros trimmed, so 0.01000000 reads 0.01 in an input. */
function trimmed(value: number, decimals: number): string {
  if (value === 0) return '';
  return value.toFixed(decimals).replace(/\.?0+$/, '');
}

export function cryptoForFiat(fiatText: string, price: number, cryptoDecimals = 8): string {
  if (price <= 0) return '';
  return trimmed(toNumber(fiatText) / price, cryptoDecimals);
}

export function fiatForCrypto(cryptoText: string, price: number, fiatDecimals = 2): string {
  return trimmed(toNumber(cryptoText) * price, fiatDecimals);
}

export type AmountProblem = 'empty' | 'below_min' | 'above_max' | 'not_predefined' | undefined;

/** Why `fiatText` cannot start a trade, or undefined when it can. */
export function amountProblem(
  fiatText: string,
  { min, max, predefined }: { min: number; max: number; predefined: readonly number[] },
): AmountProblem {
  const value = toNumber(fiatText);
  if (value <= 0) return 'empty';
  if (predefined.length > 0 && !predefined.includes(value)) return 'not_predefined';
  if (value < min) return 'below_min';
  if (value > max) return 'above_max';
  return undefined;
}
