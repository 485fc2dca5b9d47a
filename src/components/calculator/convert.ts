import { foldForSearch } from '../../lib/shared/fold-for-search.ts';
import { CRYPTO_DECIMALS, FIAT_DECIMALS } from '../../lib/shared/format.ts';
import { type Locale, localizePath } from '../../lib/shared/i18n/locales.ts';
import { AMOUNT_PATTERN } from '../../lib/shared/input-patterns.ts';

// The calculator's rules (spec section 5, "Search, calculator and amounts"), pure so the page,
// the island and the unit tests share them: fiat → bitcoin is amount ÷ rate with 8 decimals,
// bitcoin → fiat is amount × rate with 2 decimals, empty input counts as 0, the first amount is
// 1 BTC. Amounts are typed as digits with one optional decimal point (AMOUNT_PATTERN).

export const INITIAL_BTC = '1';

/** Whether `text` may stand in an amount field: digits, at most one decimal point, or empty. */
export function isAmountText(text: string): boolean {
  return AMOUNT_PATTERN.test(text);
}

/** The number an amount field holds; empty, a lone point or anything invalid counts as 0. */
export function parseAmount(text: string): number {
  if (!isAmountText(text)) return 0;
  const value = Number.parseFloat(text.startsWith('.') ? `0${text}` : text);
  return Number.isFinite(value) ? value : 0;
}

/** Bitcoin for `fiatText` at `rate` (fiat per BTC), as the field shows it: `0.01082251`. */
export function fiatToBtc(fiatText: string, rate: number): string {
  if (!(rate > 0)) return (0).toFixed(CRYPTO_DECIMALS);
  return (parseAmount(fiatText) / rate).toFixed(CRYPTO_DECIMALS);
}

/** Fiat for `btcText` at `rate` (fiat per BTC), as the field shows it: `92400.00`. */
export function btcToFiat(btcText: string, rate: number): string {
  if (!(rate > 0)) return (0).toFixed(FIAT_DECIMALS);
  return (parseAmount(btcText) * rate).toFixed(FIAT_DECIMALS);
}

export type Side = 'btc' | 'fiat';

export interface Amounts {
  btc: string;
  fiat: string;
  /** The field the person typed in last: the other one follows it when the rate moves. */
  from: Side;
}

/** Both fields after `side` was set to `text` (or the rate moved: pass the typed side again). */
export function convert(side: Side, text: string, rate: number): Amounts {
  return side === 'btc'
    ? { btc: text, fiat: btcToFiat(text, rate), from: 'btc' }
    : { fiat: text, btc: fiatToBtc(text, rate), from: 'fiat' };
}

/** The amounts a page starts with: 1 BTC at the current rate. */
export function initialAmounts(rate: number): Amounts {
  return convert('btc', INITIAL_BTC, rate);
}

/** Price of 1 BTC in a currency from a live tick: the BTC price in US dollars × units per dollar. */
export function rateFromUsd(btcUsd: number, unitsPerUsd: number): number {
  return Math.round(btcUsd * unitsPerUsd * 100) / 100;
}

/** `/calculator/btc-to-eur`, with the locale's prefix (spec section 2). */
export function calculatorUrl(locale: Locale, code: string): string {
  return localizePath(locale, `/calculator/btc-to-${code.toLowerCase()}`);
}

/** The currency code of a `btc-to-xxx` segment in any case (`EUR`), or undefined. */
export function pairCode(pair: string | undefined): string | undefined {
  const match = /^btc-to-([a-z]{3})$/i.exec(pair ?? '');
  return match?.[1]?.toUpperCase();
}

export interface PickerCurrency {
  code: string;
  name: string;
}

/** Currencies matching a search: code first (`eu` → EUR), then names (`peso`), diacritics ignored. */
export function searchCurrencies<T extends PickerCurrency>(list: readonly T[], query: string): T[] {
  const folded = foldForSearch(query);
  if (!folded) return [...list];
  const byCode = list.filter((c) => c.code.toLowerCase().startsWith(folded));
  const byName = list.filter((c) => !byCode.includes(c) && foldForSearch(c.name).includes(folded));
  return [...byCode, ...byName];
}

export interface ChartPoint {
  /** Unix seconds. */
  date: number;
  rate: number;
}

/** Highest, lowest and change from the first to the last point; undefined without two points. */
export function chartStats(points: readonly ChartPoint[]) {
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last || points.length < 2) return undefined;
  let high = first.rate;
  let low = first.rate;
  for (const p of points) {
    if (p.rate > high) high = p.rate;
    if (p.rate < low) low = p.rate;
  }
  return { high, low, change: first.rate > 0 ? (last.rate - first.rate) / first.rate : 0 };
}

/**
 * An SVG path (`viewBox 0 0 width height`) of the points, for the chart the server draws before
 * the chart library arrives (and for readers without JavaScript). Empty for fewer than two points.
 */
export function sparklinePath(points: readonly ChartPoint[], width: number, height: number, pad = 8): string {
  const stats = chartStats(points);
  const first = points[0];
  const last = points[points.length - 1];
  if (!stats || !first || !last) return '';
  const span = last.date - first.date || 1;
  const range = stats.high - stats.low || 1;
  return points
    .map((p, i) => {
      const x = ((p.date - first.date) / span) * width;
      const y = pad + ((stats.high - p.rate) / range) * (height - 2 * pad);
      return `${i === 0 ? 'M' : 'L'}${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join('');
}
