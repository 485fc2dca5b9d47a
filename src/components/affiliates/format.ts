import { formatFiat } from '../../lib/shared/format.ts';
import { formatCryptoAmount } from '../../lib/shared/format-crypto.ts';
import { CRYPTO_DECIMALS } from '../../lib/shared/money.ts';

// Amounts and dates as the affiliate screen shows them: bitcoin with its 8 decimals, tether with
// its 6, dollars as the reader writes them; registration days in UTC, the days the table's
// date filters mean (and the same on the server and in the browser, so hydration agrees).

type Crypto = 'BTC' | 'USDT';

export { formatCryptoAmount };

export const formatUsd = (amount: string, lang: string) => formatFiat(Number(amount), 'USD', lang);

export const isZero = (amount: string) => Number(amount) === 0;

/** The crypto amounts that are not zero, each formatted; empty when nothing was earned. */
export function nonZeroAmounts(amounts: { BTC: string; USDT: string }, lang: string): string[] {
  return (['BTC', 'USDT'] as const)
    .filter((code) => !isZero(amounts[code]))
    .map((code) => formatCryptoAmount(amounts[code], code, lang));
}

const days = new Map<string, Intl.DateTimeFormat>();

/** The day of a unix-ms time, in UTC. */
export function formatDay(at: number, lang: string): string {
  let format = days.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' });
    days.set(lang, format);
  }
  return format.format(new Date(at));
}

/** `YYYY-MM-DD` of a unix-ms time in UTC, for `<time datetime>`. */
export const isoDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/** `0.0001 BTC`, `1 USDT`: a limit, without a balance's trailing zeros. */
export function formatLimit(amount: string, code: Crypto, lang: string): string {
  return `${new Intl.NumberFormat(lang, { maximumFractionDigits: CRYPTO_DECIMALS[code] }).format(Number(amount))} ${code}`;
}
