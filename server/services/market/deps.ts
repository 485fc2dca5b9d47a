import type { CryptoCode, PriceFeed } from '../price-feed/price-feed.ts';
import type { CurrencyView, ReferenceService } from '../reference/reference.ts';
import type { ChartRange } from './buckets.ts';
import type { MarketRepository } from './repository.ts';

export interface ChartPoint {
  /** Unix seconds. */
  date: number;
  /** Fiat per one unit of the crypto currency. */
  rate: number;
}

export interface CalculatorView {
  currency: CurrencyView;
  range: ChartRange;
  /** Price of 1 BTC in the currency. */
  price: number;
  chart: ChartPoint[];
  /** Unix seconds of the price's last confirmation by the feed. */
  updatedAt: number;
}

export interface CryptoFiatRates {
  btcToUsd: number;
  usdtToUsd: number;
  usdtToBtc: number;
  btcToUsdt: number;
  updatedAt: number;
  /** The dollar price's change over 24 hours as a fraction (0.0123 = +1.23 %); null without history then. */
  btcChange24h: number | null;
  usdtChange24h: number | null;
}

export interface Resumed {
  /** Unix seconds of the last persisted price, or undefined on an empty history. */
  from: number | undefined;
  /** Seconds of invented history written to bridge the time the server was down. */
  filledSeconds: number;
}

export interface MarketDeps {
  repo: MarketRepository;
  priceFeed: PriceFeed;
  reference: ReferenceService;
  now: () => number;
}

/** A chart of `crypto` in the currency `code`; `field` names the input an unknown code blames. */
export interface ChartInput {
  crypto: CryptoCode;
  range: ChartRange;
  code: string;
  field?: string;
}

/** The deps with when old buckets were last dropped (the tick recorder and the resume share it). */
export type MarketParts = MarketDeps & { pruning: { lastPrunedAt: number } };

export const seconds = (ms: number) => Math.floor(ms / 1000);
