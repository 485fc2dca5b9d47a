import { describe, expect, it } from 'vitest';
import { ageOf, shortened, utcTime } from '../../src/components/admin/admin-text.ts';
import { datesOf, type FeeIncomeView, feeSeriesOf, groupName } from '../../src/components/admin/use-fee-income.ts';
import { actionsOf, type SendoutView, stateOf } from '../../src/components/admin/use-sendouts.ts';

// The money screens' pure parts: the fee chart's lines from the API's rows, what a sendout may be
// asked (decision 152), and how times, ages and addresses are written.

const income = (days: FeeIncomeView['days']): FeeIncomeView => ({
  from: '2026-11-27',
  to: '2026-11-29',
  days,
  totals: [],
  groups: [{ slug: 'bank', name: 'Bank transfers' }],
});

describe('the fee chart', () => {
  it('has a point on every day of the range, both ends included, across a month', () => {
    expect(datesOf('2026-02-27', '2026-03-01')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    expect(datesOf('2026-03-02', '2026-03-01')).toEqual([]);
  });

  it('draws one line per currency that earned, the groups of a day summed, zero on a day without income', () => {
    const series = feeSeriesOf(
      income([
        { date: '2026-11-27', group: 'bank', minor: 1500, amount: '0.00001500', currency: 'BTC' },
        { date: '2026-11-27', group: 'kiosk', minor: 500, amount: '0.00000500', currency: 'BTC' },
        { date: '2026-11-29', group: 'bank', minor: 2_500_000, amount: '2.500000', currency: 'USDT' },
      ]),
    );
    expect(series).toEqual([
      {
        currency: 'BTC',
        points: [
          { date: '2026-11-27', value: 0.00002 },
          { date: '2026-11-28', value: 0 },
          { date: '2026-11-29', value: 0 },
        ],
      },
      {
        currency: 'USDT',
        points: [
          { date: '2026-11-27', value: 0 },
          { date: '2026-11-28', value: 0 },
          { date: '2026-11-29', value: 2.5 },
        ],
      },
    ]);
    expect(feeSeriesOf(income([]))).toEqual([]);
  });

  it('names a group as the catalogue does, its slug when unknown', () => {
    expect(groupName(income([]), 'bank')).toBe('Bank transfers');
    expect(groupName(income([]), 'other')).toBe('other');
  });
});

describe('a sendout', () => {
  const sendout = (status: SendoutView['status'], broadcast: SendoutView['broadcast']) =>
    ({ status, broadcast }) as SendoutView;

  it('may be retried only when stuck, and cancelled when stuck or unclaimed', () => {
    expect(actionsOf(sendout('pending', 'stuck'))).toEqual(['retry', 'cancel']);
    expect(actionsOf(sendout('pending', 'unclaimed'))).toEqual(['cancel']);
    expect(actionsOf(sendout('pending', 'in_flight'))).toEqual([]);
    expect(actionsOf(sendout('broadcast', null))).toEqual([]);
    expect(actionsOf(sendout('failed', null))).toEqual([]);
  });

  it('shows its broadcast step while pending, else its status', () => {
    expect(stateOf(sendout('pending', 'in_flight'))).toBe('in_flight');
    expect(stateOf(sendout('failed', null))).toBe('failed');
  });
});

describe('times and addresses', () => {
  it('writes UTC whatever the machine’s zone, and a dash for none', () => {
    expect(utcTime(Date.UTC(2026, 10, 29, 17, 5))).toBe('29 Nov 2026, 17:05 UTC');
    expect(utcTime(null)).toBe('—');
  });

  it('writes ages coarsely', () => {
    const now = 10_000_000_000;
    expect(ageOf(now - 45_000, now)).toBe('45 s');
    expect(ageOf(now - 11 * 60_000, now)).toBe('11 min');
    expect(ageOf(now - 3 * 3_600_000, now)).toBe('3 h');
    expect(ageOf(now - 2 * 86_400_000, now)).toBe('2 d');
    expect(ageOf(now + 5000, now)).toBe('0 s');
  });

  it('shortens a long address in the middle and keeps a short one whole', () => {
    expect(shortened('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toBe('bc1qw508…7kv8f3t4');
    expect(shortened('short')).toBe('short');
  });
});
