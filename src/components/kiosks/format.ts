import { formatFiat } from '../../lib/shared/format.ts';
import { addAmounts, CRYPTO_DECIMALS } from '../../lib/shared/money.ts';
import type { KioskCurrency } from '../../lib/shared/views/kiosks.ts';

// Amounts, prices and times as the kiosk screen shows them: crypto exactly from the API's decimal
// text (bitcoin with its 8 decimals, tether with its 6), cash and prices in the reader's format
// of the fiat currency, a sale's time in UTC on the server render and the reader's zone after.

/** `50,00 €`, `$1,234.50`: cash and prices in their currency. */
export const formatCash = (amount: string, code: string, lang: string) => formatFiat(Number(amount), code, lang);

/** What a sale takes from the kiosk balance: the customer's amount and the fee, as decimal text. */
export const totalOf = (amount: string, fee: string, code: KioskCurrency): string =>
  addAmounts(amount, fee, CRYPTO_DECIMALS[code]);

const times = new Map<string, Intl.DateTimeFormat>();

/** A time in unix ms: in UTC when `utc` (the server render), else in the reader's zone. */
export function formatTime(at: number, lang: string, utc: boolean): string {
  const key = `${lang}|${utc}`;
  let format = times.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, {
      dateStyle: 'medium',
      timeStyle: 'short',
      ...(utc ? { timeZone: 'UTC' } : {}),
    });
    times.set(key, format);
  }
  return format.format(new Date(at));
}
