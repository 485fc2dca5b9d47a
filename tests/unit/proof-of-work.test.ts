import { describe, expect, it } from 'vitest';
import { checkSolution, leadingZeroBits, solveChallenge } from '../../src/lib/shared/proof-of-work.ts';

describe('leadingZeroBits', () => {
  it.each([
    [[], 0],
    [[0x80], 0],
    [[0xff, 0x00], 0],
    [[0x40], 1],
    [[0x01], 7],
    [[0x00], 8],
    [[0x00, 0xff], 8],
    [[0x00, 0x40], 9],
    [[0x00, 0x00, 0x01], 23],
  ])('%j has %i', (bytes, bits) => {
    expect(leadingZeroBits(new Uint8Array(bytes))).toBe(bits);
  });

  it('counts a whole zero digest', () => {
    expect(leadingZeroBits(new Uint8Array(32))).toBe(256);
  });
});

describe('solveChallenge', () => {
  it('finds a nonce that checkSolution accepts, with the digest as seccode', async () => {
    const { nonce, seccode } = await solveChallenge('abc', 8);
    expect(nonce).toMatch(/^\d+$/);
    expect(seccode).toMatch(/^0{2}[0-9a-f]{62}$/);
    expect(await checkSolution('abc', nonce, 8)).toEqual({ ok: true, seccode });
  });

  it('returns the lowest nonce whatever the batch size', async () => {
    const one = await solveChallenge('same', 8, { batch: 1 });
    const many = await solveChallenge('same', 8, { batch: 1000 });
    expect(many).toEqual(one);
    for (let n = 0; n < Number(one.nonce); n++) expect((await checkSolution('same', String(n), 8)).ok).toBe(false);
  });

  it('takes nonce 0 at difficulty 0', async () => {
    expect((await solveChallenge('x', 0)).nonce).toBe('0');
  });

  it('refuses difficulties that would hang the page', async () => {
    for (const d of [-1, 1.5, 33, Number.NaN]) await expect(solveChallenge('x', d)).rejects.toThrow(RangeError);
  });

  it('stops when aborted, before or during the search', async () => {
    await expect(solveChallenge('x', 8, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    // 32 bits would take hours; the abort must land between batches.
    const controller = new AbortController();
    const search = solveChallenge('x', 32, { signal: controller.signal, batch: 16 });
    setTimeout(() => controller.abort(), 20);
    await expect(search).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('checkSolution', () => {
  it('reports the digest even when the nonce falls short', async () => {
    const result = await checkSolution('abc', '0', 256);
    expect(result.ok).toBe(false);
    expect(result.seccode).toMatch(/^[0-9a-f]{64}$/);
  });
});
