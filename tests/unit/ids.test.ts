import { describe, expect, it } from 'vitest';
import { newId, newOfferHash, randomBase62 } from '../../db/ids.ts';

describe('ids', () => {
  it('prefixes ids with what they are', () => {
    expect(newId('usr')).toMatch(/^usr_[0-9A-Za-z]{16}$/);
    expect(newOfferHash()).toMatch(/^[0-9A-Za-z]{11}$/);
  });

  it('never repeats in practice', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newOfferHash()));
    expect(ids.size).toBe(10_000);
  });

  it('rejects biased bytes instead of folding them', () => {
    // 248..255 would favour the first eight characters if taken modulo 62.
    let call = 0;
    const source = (n: number) => Buffer.from(Array.from({ length: n }, () => (call++ % 2 === 0 ? 250 : 1)));
    expect(randomBase62(4, source)).toBe('1111');
  });
});
