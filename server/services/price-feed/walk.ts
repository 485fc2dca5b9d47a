import type { CryptoCode } from './price-feed.ts';

// The simulated market: each price is a mean-reverting random walk of its logarithm (an
// Ornstein–Uhlenbeck process) around an anchor, clamped to a band. The live simulated feed and the
// synthetic history of a fresh install (services/market/synthetic-history.ts) both step with it,
// so the chart's past looks like the prices that follow it.

export interface WalkModel {
  /** US dollars per unit the walk reverts towards. */
  anchor: number;
  /** Standard deviation of the log price over 10 seconds, before reversion. */
  volatility: number;
  /** How far from the anchor the price may wander, as a fraction of it. */
  bound: number;
  /** Time for half of a deviation from the anchor to fade. */
  halfLifeSeconds: number;
}

export const SIMULATED_MARKET: Readonly<Record<CryptoCode, WalkModel>> = {
  // ≈ 2.3 % a day like the real market; deviations fade over a month, so a year wanders ±10–20 %.
  BTC: { anchor: 92_400, volatility: 0.00025, bound: 0.25, halfLifeSeconds: 30 * 86_400 },
  // A stablecoin: wiggles in the fourth decimal, pulled back to its peg within the hour.
  USDT: { anchor: 1.0002, volatility: 0.00002, bound: 0.005, halfLifeSeconds: 3_600 },
};

/** A standard normal draw (Box–Muller) from uniform draws in [0, 1). */
export function gaussian(random: () => number): number {
  const u = Math.max(random(), Number.EPSILON);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/**
 * The price `seconds` later for the standard normal draw `z`. The step is the process's exact
 * transition, so one day-long step spreads like 8,640 ten-second steps and a long gap reverts
 * towards the anchor. The process is time-reversible: the same step walks into the past.
 */
export function walkStep(model: WalkModel, price: number, seconds: number, z: number): number {
  const theta = Math.LN2 / model.halfLifeSeconds;
  const decay = Math.exp(-theta * seconds);
  const variancePerSecond = model.volatility ** 2 / 10;
  const spread = Math.sqrt((variancePerSecond * (1 - decay * decay)) / (2 * theta));
  const logAnchor = Math.log(model.anchor);
  const next = Math.exp(logAnchor + (Math.log(price) - logAnchor) * decay + spread * z);
  return Math.min(model.anchor * (1 + model.bound), Math.max(model.anchor * (1 - model.bound), next));
}
