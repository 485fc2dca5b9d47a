import { describe, expect, it, vi } from 'vitest';
import { seededRandom } from '../../db/seed/random.ts';
import { createTickListeners } from '../../server/services/price-feed/price-feed.ts';
import { createSimulatedPriceFeed } from '../../server/services/price-feed/simulated.ts';
import { SIMULATED_MARKET, type WalkModel, walkStep } from '../../server/services/price-feed/walk.ts';

describe('simulated price feed', () => {
  it('starts at its anchors', () => {
    const feed = createSimulatedPriceFeed({ tickSeconds: 10, anchors: { BTC: 50_000, USDT: 1 } });
    expect(feed.source).toBe('simulated');
    expect(feed.usdPrice('BTC')).toBe(50_000);
    expect(feed.usdPrice('USDT')).toBe(1);
    expect(feed.fiatPerUsd('EUR')).toBeUndefined();
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

  it('continues from resumed prices, and stamps each tick', () => {
    vi.useFakeTimers();
    let clock = 1_000_000;
    const feed = createSimulatedPriceFeed({ tickSeconds: 10, random: seededRandom(3).next, now: () => clock });
    feed.resumeFrom({ at: 500_000, usd: { BTC: 80_000, USDT: 0.999 } });
    expect(feed.usdPrice('BTC')).toBe(80_000);
    expect(feed.updatedAt()).toBe(500_000);
    const ticks: { at: number; btc: number }[] = [];
    feed.onTick((t) => ticks.push({ at: t.at, btc: t.usd.BTC }));
    feed.start();
    clock = 1_010_000;
    vi.advanceTimersByTime(10_000);
    feed.stop();
    vi.useRealTimers();
    expect(ticks).toHaveLength(1);
    expect(ticks[0]?.at).toBe(1_010_000);
    // One 10-second step from 80,000: near it, nowhere near the 92,400 anchor.
    expect(Math.abs((ticks[0]?.btc ?? 0) / 80_000 - 1)).toBeLessThan(0.01);
    expect(feed.updatedAt()).toBe(1_010_000);
  });
});

describe('tick listeners', () => {
  it('runs every listener even when one throws, and reports the error', () => {
    const errors: unknown[] = [];
    const listeners = createTickListeners((e) => errors.push(e));
    const seen: number[] = [];
    listeners.add(() => {
      throw new Error('database is locked');
    });
    const off = listeners.add((t) => seen.push(t.at));
    void listeners.emit({ at: 1, usd: { BTC: 1, USDT: 1 } });
    off();
    void listeners.emit({ at: 2, usd: { BTC: 1, USDT: 1 } });
    expect(seen).toEqual([1]);
    expect(errors).toHaveLength(2);
  });

  it('reports an asynchronous listener whose promise rejects, without waiting for it', async () => {
    const errors: unknown[] = [];
    const listeners = createTickListeners((e) => errors.push(e));
    const seen: number[] = [];
    const failure = new Error('database is locked');
    listeners.add(async () => {
      await Promise.resolve();
      throw failure;
    });
    listeners.add((t) => seen.push(t.at));
    void listeners.emit({ at: 1, usd: { BTC: 1, USDT: 1 } });
    expect(seen).toEqual([1]);
    expect(errors).toEqual([]);
    await expect.poll(() => errors).toEqual([failure]);
  });
});

describe('walk step', () => {
  const model: WalkModel = { anchor: 100, volatility: 0.001, bound: 0.5, halfLifeSeconds: 1_000 };
  const spreadOf = (seconds: number) => Math.log(walkStep(model, 100, seconds, 1) / 100);

  it('halves a deviation from the anchor in one half-life, whatever the step length', () => {
    expect(Math.log(walkStep(model, 120, 1_000, 0) / 100)).toBeCloseTo(Math.log(1.2) / 2, 12);
    let price = 120;
    for (let i = 0; i < 100; i++) price = walkStep(model, price, 10, 0);
    expect(Math.log(price / 100)).toBeCloseTo(Math.log(1.2) / 2, 12);
  });

  it('spreads one long step like many short ones (exact transition)', () => {
    const one = spreadOf(20);
    const decay = Math.exp((-Math.LN2 / 1_000) * 10);
    const two = Math.sqrt(spreadOf(10) ** 2 * decay ** 2 + spreadOf(10) ** 2);
    expect(one).toBeCloseTo(two, 12);
    // Short steps without reversion: the 10-second volatility as given.
    expect(spreadOf(10)).toBeCloseTo(0.001, 5);
  });

  it('clamps to the band around the anchor', () => {
    expect(walkStep(model, 100, 10, 1_000)).toBe(150);
    expect(walkStep(model, 100, 10, -1_000)).toBe(50);
  });

  it('models a stablecoin that stays at its peg and a bitcoin that wanders', () => {
    const usdt = SIMULATED_MARKET.USDT;
    expect(Math.abs(walkStep(usdt, usdt.anchor, 86_400, 3) / usdt.anchor - 1)).toBeLessThan(0.002);
    const btc = SIMULATED_MARKET.BTC;
    const day = Math.log(walkStep(btc, btc.anchor, 86_400, 1) / btc.anchor);
    expect(day).toBeGreaterThan(0.015);
    expect(day).toBeLessThan(0.03);
  });
});
