import { type CryptoCode, createTickListeners, type PriceFeed, type PriceTick } from './price-feed.ts';
import { gaussian, SIMULATED_MARKET, type WalkModel, walkStep } from './walk.ts';

// The embedded default feed: a bounded random walk around realistic anchors (walk.ts), so a fresh
// install without network access still shows moving, plausible prices. Not a market: never for
// real money.

export interface SimulatedFeedOptions {
  tickSeconds: number;
  /** US dollars per unit to start from and revert towards. */
  anchors?: Record<CryptoCode, number>;
  /** Volatility per 10 seconds as a fraction of the price (log-normal step). */
  volatility?: Record<CryptoCode, number>;
  random?: () => number;
  now?: () => number;
  onListenerError?: (error: unknown) => void;
}

export function createSimulatedPriceFeed(options: SimulatedFeedOptions): PriceFeed {
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const model = (crypto: CryptoCode): WalkModel => ({
    ...SIMULATED_MARKET[crypto],
    ...(options.anchors ? { anchor: options.anchors[crypto] } : {}),
    ...(options.volatility ? { volatility: options.volatility[crypto] } : {}),
  });
  const models: Record<CryptoCode, WalkModel> = { BTC: model('BTC'), USDT: model('USDT') };
  const prices: Record<CryptoCode, number> = { BTC: models.BTC.anchor, USDT: models.USDT.anchor };
  let updatedAt = now();
  const listeners = createTickListeners(options.onListenerError);
  let timer: NodeJS.Timeout | undefined;

  const tick = () => {
    prices.BTC = walkStep(models.BTC, prices.BTC, options.tickSeconds, gaussian(random));
    prices.USDT = walkStep(models.USDT, prices.USDT, options.tickSeconds, gaussian(random));
    updatedAt = now();
    void listeners.emit({ at: updatedAt, usd: { ...prices } });
  };

  return {
    source: 'simulated',
    usdPrice: (crypto) => prices[crypto],
    // A simulation knows no exchange rates: fiat prices use the seeded rates.
    fiatPerUsd: () => undefined,
    fiatRates: () => ({}),
    updatedAt: () => updatedAt,

    resumeFrom(last: PriceTick) {
      prices.BTC = last.usd.BTC;
      prices.USDT = last.usd.USDT;
      updatedAt = last.at;
    },

    onTick: listeners.add,

    start() {
      if (timer) return;
      timer = setInterval(tick, options.tickSeconds * 1000);
      timer.unref();
    },

    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
