import { describe, expect, it } from 'vitest';
import { TRADE_STATUSES } from '../../db/schema/index.ts';
import {
  hasEnded,
  roleMayEver,
  statusesAfter,
  TRANSITIONS,
  transitionFor,
} from '../../server/services/trades/state-machine.ts';

// The transition table itself (docs/trades.md): who may do what from where, and which repeats are
// double clicks rather than conflicts.

describe('the trade state machine', () => {
  it('names only known statuses', () => {
    for (const t of TRANSITIONS) {
      expect(TRADE_STATUSES).toContain(t.to);
      for (const from of t.from) expect(TRADE_STATUSES).toContain(from);
    }
  });

  it('lets the seller cancel only before the buyer paid, the buyer until the release', () => {
    expect(transitionFor('cancel', 'active_funded', 'seller')?.to).toBe('cancelled_seller');
    expect(transitionFor('cancel', 'paid', 'seller')).toBeUndefined();
    expect(transitionFor('cancel', 'paid', 'buyer')?.to).toBe('cancelled_buyer');
    expect(transitionFor('cancel', 'dispute_open', 'buyer')?.escrow).toBe('return_to_seller');
    expect(transitionFor('cancel', 'released', 'buyer')).toBeUndefined();
  });

  it('never expires a paid trade and never moves an ended one but by a moderator reopen', () => {
    expect(transitionFor('expire', 'paid', 'system')).toBeUndefined();
    for (const t of TRANSITIONS.filter((t) => t.from.some(hasEnded))) expect(t.action).toBe('reopen');
  });

  it('tells a double click (the status the action leads to) from a conflict', () => {
    expect(statusesAfter('release', 'seller')).toEqual(['released']);
    expect(statusesAfter('cancel', 'seller')).toEqual(['cancelled_seller']);
    expect(statusesAfter('cancel', 'buyer')).toEqual(['cancelled_buyer']);
    expect(statusesAfter('mark_paid', 'buyer')).toEqual(['paid']);
    expect(statusesAfter('reopen', 'moderator')).toEqual([]);
    expect(statusesAfter('release', 'buyer')).toEqual([]);
  });

  it('tells "not yours" from "not now"', () => {
    expect(roleMayEver('release', 'buyer')).toBe(false);
    expect(roleMayEver('release', 'seller')).toBe(true);
    expect(roleMayEver('resolve_for_buyer', 'seller')).toBe(false);
  });
});
