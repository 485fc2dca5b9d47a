import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CODE_TTL_MS,
  codeMatches,
  hashCode,
  MAX_WRONG_TRIES,
  newCode,
  recentSends,
  SEND_LIMITS,
  sendRetryAfterMs,
} from '../../server/services/phone/codes.ts';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const NOW = Date.UTC(2026, 10, 22, 12);

describe('codes', () => {
  it('are six digits, leading zeros kept, and vary', () => {
    const codes = Array.from({ length: 500 }, newCode);
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(490);
  });

  it('are stored as their SHA-256 and compared by it', () => {
    expect(hashCode('012345')).toBe(createHash('sha256').update('012345').digest('hex'));
    expect(codeMatches('012345', hashCode('012345'))).toBe(true);
    expect(codeMatches('012346', hashCode('012345'))).toBe(false);
    expect(codeMatches('012345', 'abc')).toBe(false);
  });

  it('live 10 minutes and survive 5 wrong tries', () => {
    expect(CODE_TTL_MS).toBe(10 * MIN);
    expect(MAX_WRONG_TRIES).toBe(5);
    expect(SEND_LIMITS).toEqual([
      { windowMs: 10 * MIN, max: 3 },
      { windowMs: DAY, max: 10 },
    ]);
  });
});

describe('send limits', () => {
  it('allow three sends in ten minutes, then wait for the oldest to leave the window', () => {
    expect(sendRetryAfterMs([], NOW)).toBe(0);
    expect(sendRetryAfterMs([NOW - 2 * MIN, NOW - MIN], NOW)).toBe(0);
    expect(sendRetryAfterMs([NOW - MIN, NOW - 4 * MIN, NOW - 2 * MIN], NOW)).toBe(6 * MIN);
    expect(sendRetryAfterMs([NOW - 10 * MIN, NOW - 4 * MIN, NOW - 2 * MIN], NOW)).toBe(0);
  });

  it('allow ten sends a day', () => {
    // Nine sends an hour apart, then one now: the 10-minute window has room, the day has not.
    const sends = [...Array.from({ length: 9 }, (_, i) => NOW - (i + 1) * 60 * MIN), NOW];
    expect(sendRetryAfterMs(sends.slice(0, 9), NOW)).toBe(0);
    // The oldest, nine hours ago, leaves the day window in fifteen hours.
    expect(sendRetryAfterMs(sends, NOW)).toBe(15 * 60 * MIN);
  });

  it('forget sends older than a day, and keep the rest in order', () => {
    expect(recentSends([NOW - DAY - 1, NOW - MIN, NOW - 3 * MIN, NOW - DAY, NOW + MIN], NOW)).toEqual([
      NOW - 3 * MIN,
      NOW - MIN,
    ]);
  });
});
