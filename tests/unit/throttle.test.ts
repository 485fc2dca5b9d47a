import { describe, expect, it } from 'vitest';
import { TOUR_START_THROTTLE_MS, throttle } from '../../src/lib/shared/throttle.ts';

// The tour start throttle of spec section 9: 500 ms, leading edge.

describe('throttle', () => {
  it('runs the first call at once and drops calls within the window', () => {
    let clock = 1_000;
    const calls: number[] = [];
    const run = throttle(
      (n: number) => calls.push(n),
      TOUR_START_THROTTLE_MS,
      () => clock,
    );
    run(1);
    clock += 100;
    run(2);
    clock += 399;
    run(3);
    expect(calls).toEqual([1]);
    clock += 1;
    run(4);
    expect(calls).toEqual([1, 4]);
  });

  it('is 500 ms for the tour start', () => {
    expect(TOUR_START_THROTTLE_MS).toBe(500);
  });
});
