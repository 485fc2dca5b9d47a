import { roundDecimal, toMinorUnits } from '../../lib/shared/money.ts';
import { MARGIN_MAX_PERCENT, MARGIN_MIN_PERCENT } from '../../lib/shared/offer-rules.ts';
import { marginPrice } from './format.ts';
import { type MarketPrice, useMarketPrice } from './market-price.ts';
import type { EditorCurrency } from './types.ts';

// What the offer will cost per coin as the vendor types: the live market price of the coin in the
// offer's currency, moved by the margin, or the fixed price and how far it sits from the market.
// The price preview shows it; the funding warning weighs the wallet against it.

const MARGIN = /^-?\d{1,3}(?:\.\d{1,2})?$/;

export interface OfferPrice {
  market: MarketPrice;
  /** Per coin, in the currency's major units; undefined until the market and the fields allow it. */
  price?: number;
  /** Percent above (below) the market. */
  premium?: number;
}

/** The offer's price per coin and how far it sits from the market, once both are known. */
function priceFrom(
  market: MarketPrice,
  { priceType, margin, fixedPrice }: { priceType: 'margin' | 'fixed'; margin: string; fixedPrice: string },
  decimals: number,
): Omit<OfferPrice, 'market'> {
  if (market.state !== 'ready') return {};
  if (priceType === 'margin') {
    const text = margin.trim();
    const percent = Number(text);
    if (MARGIN.test(text) && percent >= MARGIN_MIN_PERCENT && percent <= MARGIN_MAX_PERCENT)
      return { price: marginPrice(market.price, percent, decimals), premium: percent };
    return {};
  }
  const minor = toMinorUnits(fixedPrice, decimals);
  if (minor === undefined || !(minor > 0)) return {};
  const price = minor / 10 ** decimals;
  return { price, premium: roundDecimal((price / market.price - 1) * 100, 2) };
}

export function useOfferPrice(
  currency: EditorCurrency | undefined,
  crypto: 'BTC' | 'USDT',
  fields: { priceType: 'margin' | 'fixed'; margin: string; fixedPrice: string },
): OfferPrice {
  const market = useMarketPrice(currency?.code ?? '', crypto, currency?.rate[crypto === 'USDT' ? 'usdt' : 'btc']);
  return { market, ...priceFrom(market, fields, currency?.minorUnits ?? 2) };
}
