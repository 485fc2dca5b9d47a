import { describe, expect, it, vi } from 'vitest';
import { seededRandom } from '../../db/seed/random.ts';
import { createSimulatedPriceFeed } from '../../server/services/price-feed/simulated.ts';

describe('simulated price feed', () => {
  it('starts at its anchors', () => {
    const feed = createSimulatedPriceFeed({ tickSeconds: 10, anchors: { BTC: 50_000, USDT: 1 } });
    expect(feed.usdPrice('BTC')).toBe(50_000);
    expect(feed.usdPrice('USDT')).toBe(1);
  });

  it('walks on every tick but stays within its bounds (BTC ±25 %, USDT ±0.5 %)', () => {
    vi.useFakeTimers();
    const random = seededRandom(7);
    const feed = createSimulatedPriceFeed({
      tickSeconds: 1,
      anchors: { BTC: 100_000, USDT: 1 },
      volatility: { BTC: 0.05, USDT: 0.01 },
      random: random.next,
    });
    const ticks: number[] = [];
    feed.onTick((t) => ticks.push(t.usd.BTC));
    feed.start();
    vi.advanceTimersByTime(5_000_000);
    feed.stop();
    vi.useRealTimers();
    expect(ticks).toHaveLength(5000);
    expect(new Set(ticks).size).toBeGreaterThan(100);
    expect(Math.min(...ticks)).toBeGreaterThanOrEqual(75_000);
    expect(Math.max(...ticks)).toBeLessThanOrEqual(125_000);
    expect(feed.usdPrice('USDT')).toBeGreaterThanOrEqual(0.995);
    expect(feed.usdPrice('USDT')).toBeLessThanOrEqual(1.005);
  });

  it('draws a history ending at the current price, evenly spaced, stable within the hour', () => {
    const now = Date.UTC(2026, 10, 22, 12, 30);
    const feed = createSimulatedPriceFeed({ tickSeconds: 10, anchors: { BTC: 90_000, USDT: 1 }, now: () => now });
    const week = feed.history('BTC', 7 * 86_400, 3_600);
    expect(week).toHaveLength(169);
    expect(week.at(-1)?.usd).toBe(90_000);
    expect(week.at(-1)?.date).toBe(Date.UTC(2026, 10, 22, 12) / 1000);
    expect(week.every((p, i) => i === 0 || p.date - (week[i - 1]?.date ?? 0) === 3_600)).toBe(true);
    expect(feed.history('BTC', 7 * 86_400, 3_600)).toEqual(week);
  });
});
