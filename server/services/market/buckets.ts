import type { PricePoint } from '../price-feed/price-feed.ts';

// How price history is kept (table `price_history`) and read back as charts. Times are unix seconds.

export type Resolution = 60 | 3_600 | 86_400;
export const RESOLUTIONS: readonly Resolution[] = [60, 3_600, 86_400];

/** How long buckets of each resolution are kept: minutes for two days, hours for 40, days for ever. */
export const RETENTION_SECONDS: Readonly<Record<Resolution, number>> = {
  60: 2 * 86_400,
  3600: 40 * 86_400,
  86400: Number.POSITIVE_INFINITY,
};

export type ChartRange = 'day' | 'week' | 'month' | 'year';
export const chartRanges: readonly ChartRange[] = ['day', 'week', 'month', 'year'];

/**
 * Each range reads the buckets of one resolution and keeps the close of every `step`: at most
 * 366 points, enough for a smooth line on any screen and small to send.
 */
export const CHART_RANGES: Readonly<Record<ChartRange, { span: number; resolution: Resolution; step: number }>> = {
  day: { span: 86_400, resolution: 60, step: 300 }, // 289 five-minute points
  week: { span: 7 * 86_400, resolution: 3_600, step: 3_600 }, // 169 hourly points
  month: { span: 30 * 86_400, resolution: 3_600, step: 4 * 3_600 }, // 181 four-hourly points
  year: { span: 365 * 86_400, resolution: 86_400, step: 86_400 }, // 366 daily points
};

/** Start of the bucket of `size` seconds holding `at` (both whole, `at` ≥ 0). */
export function bucketStart(at: number, size: number): number {
  return at - (at % size);
}

/** Buckets older than this are deleted, per resolution, as of `now`; day buckets never. */
export function pruneCutoffs(now: number): { resolution: Resolution; before: number }[] {
  return RESOLUTIONS.filter((r) => Number.isFinite(RETENTION_SECONDS[r])).map((resolution) => ({
    resolution,
    before: now - RETENTION_SECONDS[resolution],
  }));
}

/** The close (last point) of each bucket of `resolution` starting at or after `since`, from time-ordered points. */
export function bucketCloses(points: readonly PricePoint[], resolution: Resolution, since: number): PricePoint[] {
  const closes: PricePoint[] = [];
  for (const point of points) {
    const start = bucketStart(point.date, resolution);
    if (start < since) continue;
    const last = closes[closes.length - 1];
    if (last?.date === start) last.usd = point.usd;
    else closes.push({ date: start, usd: point.usd });
  }
  return closes;
}
