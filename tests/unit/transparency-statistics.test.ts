import { describe, expect, it } from 'vitest';
import {
  type DisputeOpening,
  disputeStories,
  figuresOf,
  median,
  monthStarts,
  type TradeEvent,
} from '../../server/services/transparency/statistics.ts';

// The arithmetic of the public dispute statistics (decision 162) on made-up histories.

const MINUTE = 60_000;
const event = (
  id: number,
  action: string,
  from: string,
  to: string,
  at: number,
  actorRole = 'moderator',
): TradeEvent => ({
  id,
  tradeId: 1,
  action,
  actorRole,
  fromStatus: from,
  toStatus: to,
  at,
});

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones, to a tenth', () => {
    expect(median([])).toBeNull();
    expect(median([7])).toBe(7);
    expect(median([9, 1, 5])).toBe(5);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([1, 2 / 3])).toBe(0.8);
  });
});

describe('disputeStories', () => {
  const opening: DisputeOpening = { id: 10, tradeId: 1, at: 0, group: 'bank-transfers' };

  it('ends a dispute at the next opening: a later message answers the later dispute only', () => {
    const events = [
      event(11, 'resolve_for_seller', 'dispute_open', 'dispute_won_seller', 20 * MINUTE),
      event(12, 'reopen', 'dispute_won_seller', 'dispute_open', 30 * MINUTE),
      event(13, 'resolve_for_buyer', 'dispute_open', 'dispute_won_buyer', 90 * MINUTE),
    ];
    const reopening: DisputeOpening = { id: 12, tradeId: 1, at: 30 * MINUTE, group: 'bank-transfers' };
    const [first, second] = disputeStories([opening, reopening], events, [{ tradeId: 1, at: 40 * MINUTE }]);
    expect(first).toMatchObject({ firstResponseAt: 20 * MINUTE, decidedAt: 20 * MINUTE, winner: 'seller' });
    expect(second).toMatchObject({ firstResponseAt: 40 * MINUTE, decidedAt: 90 * MINUTE, winner: 'buyer' });
  });

  it('calls a release or a cancel out of the dispute settled by the parties, and a party’s act no answer', () => {
    const events = [event(11, 'release', 'dispute_open', 'released', 5 * MINUTE, 'seller')];
    const [story] = disputeStories([opening], events, []);
    expect(story).toMatchObject({ firstResponseAt: null, decidedAt: null, winner: null, settledByParties: true });
    expect(figuresOf(story ? [story] : [], 3)).toMatchObject({
      disputes: 1,
      perThousandTrades: 333.3,
      open: 0,
      settledByParties: 1,
    });
  });
});

describe('monthStarts', () => {
  it('gives the first instants of twelve UTC months ending with the current one, and the next', () => {
    const starts = monthStarts(Date.UTC(2026, 0, 15, 12));
    expect(starts).toHaveLength(13);
    expect(new Date(starts[0] as number).toISOString()).toBe('2025-02-01T00:00:00.000Z');
    expect(new Date(starts[11] as number).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(new Date(starts[12] as number).toISOString()).toBe('2026-02-01T00:00:00.000Z');
  });
});
