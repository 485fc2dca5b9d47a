import type { PricePoint } from '../price-feed/price-feed.ts';
import { gaussian, type WalkModel, walkStep } from '../price-feed/walk.ts';
import { bucketCloses, bucketStart, RESOLUTIONS, RETENTION_SECONDS, type Resolution } from './buckets.ts';

// Plausible invented history, for the simulated market only: a year before a fresh install
// (walked backwards from today's price) and the time a simulated server was down (walked forwards
// from its last price). Real prices are never invented (services/market/market.ts, resume).

export interface HistoryRow {
  resolution: Resolution;
  at: number;
  usd: number;
}

/**
 * The next sample time after `t`: a day later while that stays in the time only day buckets keep,
 * an hour later while it stays out of the last two days, else a minute — the finest bucket each
 * time keeps, so every kept bucket gets a sample and none is drawn in vain.
 */
function nextSample(t: number, to: number): number {
  const day = bucketStart(t, 86_400) + 86_400;
  if (to - day >= RETENTION_SECONDS[3_600]) return day;
  const hour = bucketStart(t, 3_600) + 3_600;
  if (to - hour >= RETENTION_SECONDS[60]) return hour;
  return Math.min(to, bucketStart(t, 60) + 60);
}

/** Sample times from `from` to `to`, both included, oldest first. */
export function sampleTimes(from: number, to: number): number[] {
  const times = [from];
  for (let t = from; t < to; ) {
    t = nextSample(t, to);
    times.push(t);
  }
  return times;
}

export interface WalkOptions {
  model: WalkModel;
  from: number;
  to: number;
  /** The known price: at `from` (walk forwards) or at `to` (walk backwards). */
  pinned: { side: 'from' | 'to'; usd: number };
  random: () => number;
}

/** A random walk of the model over [from, to], oldest first, passing through the pinned price. */
export function syntheticWalk({ model, from, to, pinned, random }: WalkOptions): PricePoint[] {
  const times = sampleTimes(from, to);
  const points: PricePoint[] = times.map((date) => ({ date, usd: pinned.usd }));
  if (pinned.side === 'from') {
    for (let i = 1; i < points.length; i++) {
      const prev = points[i - 1] as PricePoint;
      const point = points[i] as PricePoint;
      point.usd = walkStep(model, prev.usd, point.date - prev.date, gaussian(random));
    }
  } else {
    for (let i = points.length - 2; i >= 0; i--) {
      const next = points[i + 1] as PricePoint;
      const point = points[i] as PricePoint;
      point.usd = walkStep(model, next.usd, next.date - point.date, gaussian(random));
    }
  }
  return points;
}

/** The bucket rows these points give at every resolution, within each resolution's retention as of `now`. */
export function historyRows(points: readonly PricePoint[], now: number): HistoryRow[] {
  return RESOLUTIONS.flatMap((resolution) =>
    bucketCloses(points, resolution, now - RETENTION_SECONDS[resolution]).map((p) => ({
      resolution,
      at: p.date,
      usd: p.usd,
    })),
  );
}
