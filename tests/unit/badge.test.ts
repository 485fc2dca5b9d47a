import { describe, expect, it } from 'vitest';
import { formatBadgeCount } from '../../src/lib/badge.ts';

// Spec section 9: the notification badge shows 99+ from a count of 100.
describe('formatBadgeCount', () => {
  it('is empty when there is nothing unread', () => {
    expect(formatBadgeCount(0)).toBe('');
    expect(formatBadgeCount(-3)).toBe('');
  });

  it('shows the count itself from 1 to 99', () => {
    expect(formatBadgeCount(1)).toBe('1');
    expect(formatBadgeCount(7)).toBe('7');
    expect(formatBadgeCount(99)).toBe('99');
  });

  it('caps at 99+ from 100', () => {
    expect(formatBadgeCount(100)).toBe('99+');
    expect(formatBadgeCount(12_345)).toBe('99+');
  });

  it('treats a value that is not a usable count as nothing unread', () => {
    expect(formatBadgeCount(Number.NaN)).toBe('');
    expect(formatBadgeCount(Number.POSITIVE_INFINITY)).toBe('');
  });

  it('drops a fraction rather than showing it', () => {
    expect(formatBadgeCount(3.7)).toBe('3');
  });
});
