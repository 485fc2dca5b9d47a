import { describe, expect, it } from 'vitest';
import { allowanceOf, ladder, levelOf } from '../../server/services/verification/levels.ts';

// The verification ladder and the rolling 30-day allowance (docs/verification.md).

const steps = (email: boolean, phone: boolean, identity: boolean, address: boolean) => ({
  email,
  phone,
  identity,
  address,
});

describe('levelOf', () => {
  it('counts the steps done in order: e-mail, phone, identity, address', () => {
    expect(levelOf(steps(false, false, false, false))).toBe(0);
    expect(levelOf(steps(true, false, false, false))).toBe(1);
    expect(levelOf(steps(true, true, false, false))).toBe(2);
    expect(levelOf(steps(true, true, true, false))).toBe(3);
    expect(levelOf(steps(true, true, true, true))).toBe(4);
  });

  it('does not count a later step without the earlier ones', () => {
    expect(levelOf(steps(true, false, true, true))).toBe(1);
    expect(levelOf(steps(false, true, true, true))).toBe(0);
  });
});

describe('allowanceOf', () => {
  it('gives each level a higher limit and names the next step', () => {
    const limits = [0, 1, 2, 3, 4].map((level) => allowanceOf(level, 0).limitUsdCents);
    expect(limits).toEqual([0, 100_000, 500_000, 2_500_000, 10_000_000]);
    expect(allowanceOf(0, 0).next).toEqual({ level: 1, step: 'email', limitUsdCents: 100_000 });
    expect(allowanceOf(2, 0).next).toEqual({ level: 3, step: 'identity', limitUsdCents: 2_500_000 });
    expect(allowanceOf(4, 0).next).toBeNull();
  });

  it('subtracts what was traded and never goes below zero', () => {
    expect(allowanceOf(1, 25_000)).toMatchObject({
      limitUsdCents: 100_000,
      usedUsdCents: 25_000,
      unusedUsdCents: 75_000,
      windowDays: 30,
    });
    expect(allowanceOf(1, 150_000).unusedUsdCents).toBe(0);
    expect(allowanceOf(0, 0).unusedUsdCents).toBe(0);
  });

  it('lists the ladder from level 1 to 4', () => {
    expect(ladder().map((rung) => [rung.level, rung.step])).toEqual([
      [1, 'email'],
      [2, 'phone'],
      [3, 'identity'],
      [4, 'address'],
    ]);
  });
});
