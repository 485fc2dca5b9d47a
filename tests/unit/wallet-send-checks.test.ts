import { describe, expect, it } from 'vitest';
import { draftProblems, maxSendable, totalDebited } from '../../src/components/wallet/send-checks.ts';

// The send modal's checks before its review (issue 22): what it refuses to review, and the total
// the review shows.

const t = (key: string, params?: Record<string, string | number>) => `${key}${params ? JSON.stringify(params) : ''}`;
const bitcoin = {
  currency: 'BTC' as const,
  balance: '0.01',
  info: { currency: 'BTC' as const, fee: '0.00002', min: '0.0001' },
};

describe('the send checks', () => {
  it('reviews an amount that fits the balance with its fee', () => {
    expect(draftProblems(t, 'en', { ...bitcoin, address: 'bc1q…', amount: '0.00998' })).toEqual({});
    expect(maxSendable('0.01', '0.00002', 'BTC')).toBe('0.00998');
    expect(totalDebited('0.00998', '0.00002', 'BTC')).toBe('0.01000000');
    expect(totalDebited('12.5', '1', 'USDT')).toBe('13.500000');
  });

  it('names each problem: no address, not an amount, below the smallest sendout, above the balance', () => {
    expect(draftProblems(t, 'en', { ...bitcoin, address: ' ', amount: 'abc' })).toEqual({
      address: 'wallet.send.error.address',
      amount: 'wallet.convert.amountInvalid{"decimals":8}',
    });
    expect(draftProblems(t, 'en', { ...bitcoin, address: 'x', amount: '0.00005' }).amount).toBe(
      'wallet.send.error.min{"min":"0.00010000 BTC"}',
    );
    expect(draftProblems(t, 'en', { ...bitcoin, address: 'x', amount: '0.00999' }).amount).toBe(
      'wallet.send.error.funds{"fee":"0.00002000 BTC"}',
    );
    expect(draftProblems(t, 'en', { ...bitcoin, address: 'x', amount: '0' }).amount).toContain('amountInvalid');
  });
});
