// The price feed: what one unit of a crypto currency costs in US dollars, now and over time.
// Fiat prices are derived from it with each fiat currency's USD rate (services/reference).

export type CryptoCode = 'BTC' | 'USDT';
export const cryptoCodes: readonly CryptoCode[] = ['BTC', 'USDT'];

export interface PricePoint {
  /** Unix seconds. */
  date: number;
  /** US dollars per unit. */
  usd: number;
}

export interface PriceTick {
  at: number;
  usd: Record<CryptoCode, number>;
}

export interface PriceFeed {
  /** US dollars per one unit of `crypto`, as of the latest tick. */
  usdPrice(crypto: CryptoCode): number;
  /** Points every `stepSeconds` over the last `spanSeconds`, oldest first, ending at the current price. */
  history(crypto: CryptoCode, spanSeconds: number, stepSeconds: number): PricePoint[];
  onTick(listener: (tick: PriceTick) => void): () => void;
  start(): void;
  stop(): void;
}
