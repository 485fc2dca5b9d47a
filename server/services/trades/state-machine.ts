import type { TradeActorRole, TradeStatus } from '../../../db/schema/index.ts';

// The whole transition table of a trade (docs/trades.md repeats it as a table). Pure: the trade
// service asks `transitionFor` what an action does from a status for a role, then applies it in
// one SQLite transaction whose UPDATE names the status it read, so a status that changed in the
// meantime (a release racing a cancel) matches no row and the loser changes nothing.

export type TradeAction =
  | 'mark_paid'
  | 'release'
  | 'cancel'
  | 'cancel_unredeemed'
  | 'expire'
  | 'open_dispute'
  | 'resolve_for_buyer'
  | 'resolve_for_seller'
  | 'reopen';

/** What the ledger does with the escrow in the same transaction. */
export type EscrowMove = 'none' | 'release_to_buyer' | 'return_to_seller' | 'lock_again';

export interface Transition {
  action: TradeAction;
  from: readonly TradeStatus[];
  role: TradeActorRole;
  to: TradeStatus;
  escrow: EscrowMove;
}

const CANCELLED: readonly TradeStatus[] = ['cancelled_buyer', 'cancelled_seller', 'cancelled_system'];

/**
 * Rules, in words:
 * - the buyer marks paid while the trade is funded and unpaid;
 * - the seller releases any time the coins are in escrow, a dispute included (settling it);
 * - the buyer may cancel until the coins are released (also in a dispute: giving up the claim);
 *   the seller only while the buyer has not marked paid; the system cancels an unpaid trade past
 *   its payment window. Paid trades never expire. In a gift-card trade the seller may also cancel a
 *   paid trade by stating that no code was redeemed (`cancel_unredeemed`; the cards go back);
 * - either party opens a dispute on a paid trade once `dispute.availableAt` has passed;
 * - a moderator settles an open dispute for the buyer (release) or the seller (return), or reopens
 *   a cancelled or seller-won trade as a dispute, locking the seller's coins again.
 * `not_funded`, `funds_processing` and `funds_processed` have no way in: escrow is locked when the
 * trade starts (a trade that cannot be funded is never created) and a release is a ledger move that
 * completes in its transaction (docs/decisions/062-trades-state-machine.md).
 */
export const TRANSITIONS: readonly Transition[] = [
  { action: 'mark_paid', from: ['active_funded'], role: 'buyer', to: 'paid', escrow: 'none' },
  {
    action: 'release',
    from: ['active_funded', 'paid', 'dispute_open'],
    role: 'seller',
    to: 'released',
    escrow: 'release_to_buyer',
  },
  {
    action: 'cancel',
    from: ['active_funded', 'paid', 'dispute_open'],
    role: 'buyer',
    to: 'cancelled_buyer',
    escrow: 'return_to_seller',
  },
  { action: 'cancel', from: ['active_funded'], role: 'seller', to: 'cancelled_seller', escrow: 'return_to_seller' },
  // Gift-card trades only (the gift-cards service's hook refuses it elsewhere): the seller states
  // that no code was redeemed, so the buyer's cards go back to them and the coins to the seller.
  {
    action: 'cancel_unredeemed',
    from: ['paid', 'dispute_open'],
    role: 'seller',
    to: 'cancelled_seller',
    escrow: 'return_to_seller',
  },
  { action: 'expire', from: ['active_funded'], role: 'system', to: 'cancelled_system', escrow: 'return_to_seller' },
  { action: 'open_dispute', from: ['paid'], role: 'buyer', to: 'dispute_open', escrow: 'none' },
  { action: 'open_dispute', from: ['paid'], role: 'seller', to: 'dispute_open', escrow: 'none' },
  {
    action: 'resolve_for_buyer',
    from: ['dispute_open'],
    role: 'moderator',
    to: 'dispute_won_buyer',
    escrow: 'release_to_buyer',
  },
  {
    action: 'resolve_for_seller',
    from: ['dispute_open'],
    role: 'moderator',
    to: 'dispute_won_seller',
    escrow: 'return_to_seller',
  },
  {
    action: 'reopen',
    from: [...CANCELLED, 'dispute_won_seller'],
    role: 'moderator',
    to: 'dispute_open',
    escrow: 'lock_again',
  },
];

/** The transition `role` may make with `action` from `status`, or undefined when there is none. */
export function transitionFor(action: TradeAction, status: TradeStatus, role: TradeActorRole): Transition | undefined {
  return TRANSITIONS.find((t) => t.action === action && t.role === role && t.from.includes(status));
}

/**
 * Statuses where `action` by `role` has already happened, so a repeat there is a double click that
 * answers the trade as it is. Reopen has none: an open dispute does not show that this reopen is
 * the one that went through, so a second reopen is refused.
 */
export function statusesAfter(action: TradeAction, role: TradeActorRole): TradeStatus[] {
  if (action === 'reopen') return [];
  return [...new Set(TRANSITIONS.filter((t) => t.action === action && t.role === role).map((t) => t.to))];
}

/** Whether `role` could ever take `action` (from some status): tells "not yours" from "not now". */
export const roleMayEver = (action: TradeAction, role: TradeActorRole): boolean =>
  TRANSITIONS.some((t) => t.action === action && t.role === role);

/** Coins left the escrow to the buyer: the trade counts as completed for both parties. */
export const COMPLETED_STATUSES: readonly TradeStatus[] = ['released', 'dispute_won_buyer'];
export const CANCELLED_STATUSES = CANCELLED;
export const DISPUTE_STATUSES: readonly TradeStatus[] = ['dispute_open', 'dispute_won_buyer', 'dispute_won_seller'];
/** Still running: the escrow holds coins and someone has something to do. */
export const ACTIVE_STATUSES: readonly TradeStatus[] = ['active_funded', 'paid', 'dispute_open'];

export const isCompleted = (status: TradeStatus) => COMPLETED_STATUSES.includes(status);
export const isCancelled = (status: TradeStatus) => CANCELLED.includes(status);
export const isActive = (status: TradeStatus) => ACTIVE_STATUSES.includes(status);
/** A trade ends when it is completed or cancelled (spec section 4); a seller-won dispute ends it too. */
export const hasEnded = (status: TradeStatus) => !isActive(status);
