import { roundDecimal } from '../../lib/shared/money.ts';
// The editor's price arithmetic; numbers are formatted by src/lib/shared/format.ts.

/** The offer's price per coin: the market moved by the margin, in the currency's minor units. */
export function marginPrice(market: number, marginPercent: number, decimals: number): number {
  // Rounded as the server rounds an offer's price (offer-view.ts).
  return roundDecimal(market * (1 + marginPercent / 100), decimals);
}
