import type { ChartPoint } from './convert.ts';

// What the calculator page hands its island: only the fields it shows, so the serialized props
// stay small (the API's answers carry much more).

export type ChartRange = 'day' | 'week' | 'month' | 'year';
export const CHART_RANGES: readonly ChartRange[] = ['day', 'week', 'month', 'year'];
/** Spec sections 4 and 9: the chart range defaults to month. */
export const DEFAULT_RANGE: ChartRange = 'month';
/** Spec section 9: converter offers show the first 10. */
export const OFFERS_SHOWN = 10;

/** A currency of the list: code, localized name and units per US dollar (live rates multiply it). */
export type CurrencyEntry = [code: string, name: string, perUsd: number];

export interface CalcOffer {
  hash: string;
  username: string;
  paymentMethod: string;
  min: number;
  max: number;
  decimals: number;
  price: number;
}

export interface CalcCurrency {
  code: string;
  name: string;
  perUsd: number;
  /** Price of 1 BTC in it. */
  rate: number;
}

export interface CalculatorState {
  currency: CalcCurrency;
  range: ChartRange;
  chart: ChartPoint[];
  offers: CalcOffer[];
}

/** The API's offer (GET /rest/v1/offers) down to what the calculator lists. */
export function toCalcOffer(offer: {
  hash: string;
  owner: { username: string };
  paymentMethod: string;
  fiatLimitMin: number;
  fiatLimitMax: number;
  fiatDecimals: number;
  fiatPricePerCrypto: number;
}): CalcOffer {
  return {
    hash: offer.hash,
    username: offer.owner.username,
    paymentMethod: offer.paymentMethod,
    min: offer.fiatLimitMin,
    max: offer.fiatLimitMax,
    decimals: offer.fiatDecimals,
    price: offer.fiatPricePerCrypto,
  };
}
