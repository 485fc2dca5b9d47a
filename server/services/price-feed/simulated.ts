import { seededRandom } from '../../../db/seed/random.ts';
import type { CryptoCode, PriceFeed, PricePoint, PriceTick } from './price-feed.ts';

// The embedded default feed: a bounded random walk around realistic anchors, so a fresh install
// without network access still shows moving, plausible prices. Not a market: never for real money.

export interface SimulatedFeedOptions {
  tickSeconds: number;
  /** US dollars per unit to start from and revert towards. */
  anchors?: Record<CryptoCode, number>;
  /** Volatility per 10 seconds as a fraction of the price (log-normal step). */
  volatility?: Record<CryptoCode, number>;
  random?: () => number;
  now?: () => number;
}

const DEFAULT_ANCHORS: Record<CryptoCode, number> = { BTC: 92_400, USDT: 1.0002 };
// Per 10-second tick: BTC ≈ 0.47 % an hour, ≈ 2.3 % a day, like the real market; USDT barely moves.
const DEFAULT_VOLATILITY: Record<CryptoCode, number> = { BTC: 0.00025, USDT: 0.00002 };
/** How far a price may wander from its anchor: BTC ±25 %, USDT ±0.5 % (a stablecoin stays near 1). */
const BOUNDS: Record<CryptoCode, number> = { BTC: 0.25, USDT: 0.005 };
const REVERSION = 0.002;

function gaussian(random: () => number): number {
  const u = Math.max(random(), Number.EPSILON);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

function clamp(value: number, anchor: number, bound: number): number {
  return Math.min(anchor * (1 + bound), Math.max(anchor * (1 - bound), value));
}

export function createSimulatedPriceFeed(options: SimulatedFeedOptions): PriceFeed {
  const anchors = options.anchors ?? DEFAULT_ANCHORS;
  const volatility = options.volatility ?? DEFAULT_VOLATILITY;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const prices: Record<CryptoCode, number> = { ...anchors };
  // The defaults are per 10-second tick; other tick lengths scale by √time so the market's pace stays.
  const scale = Math.sqrt(options.tickSeconds / 10);
  const tickVolatility: Record<CryptoCode, number> = { BTC: volatility.BTC * scale, USDT: volatility.USDT * scale };
  const listeners = new Set<(tick: PriceTick) => void>();
  let timer: NodeJS.Timeout | undefined;

  const step = (crypto: CryptoCode) => {
    const anchor = anchors[crypto];
    const pull = REVERSION * Math.log(anchor / prices[crypto]);
    const next = prices[crypto] * Math.exp(pull + tickVolatility[crypto] * gaussian(random));
    prices[crypto] = clamp(next, anchor, BOUNDS[crypto]);
  };

  const tick = () => {
    step('BTC');
    step('USDT');
    const event: PriceTick = { at: now(), usd: { ...prices } };
    for (const listener of listeners) listener(event);
  };

  return {
    usdPrice: (crypto) => prices[crypto],

    history(crypto, spanSeconds, stepSeconds) {
      // Walks backwards from the current price. Seeded by the hour so that reloads within an hour
      // draw the same past; the market-data issue replaces this with persisted ticks.
      const count = Math.max(1, Math.floor(spanSeconds / stepSeconds));
      const end = Math.floor(now() / 1000 / stepSeconds) * stepSeconds;
      const walk = seededRandom(Math.floor(end / 3600) ^ (crypto === 'BTC' ? 0x5eed : 0x7e7e));
      const stepVolatility = volatility[crypto] * Math.sqrt(stepSeconds / 10);
      const points: PricePoint[] = [];
      let price = prices[crypto];
      for (let i = 0; i <= count; i++) {
        points.push({ date: end - i * stepSeconds, usd: price });
        price = clamp(price * Math.exp(stepVolatility * gaussian(walk.next)), anchors[crypto], BOUNDS[crypto]);
      }
      return points.reverse();
    },

    onTick(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

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
