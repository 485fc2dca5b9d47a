import type { TradeActorRole } from '../../../db/schema/index.ts';

// Why a party opens a dispute (spec section 3 "Dispute reason": a list from the server). Titles
// are messages `trade.dispute.reason.<id>` in locales/*.json; each reason names who may pick it.

export interface DisputeReason {
  id: string;
  roles: readonly ('buyer' | 'seller')[];
}

export const DISPUTE_REASONS: readonly DisputeReason[] = [
  { id: 'paid_not_released', roles: ['buyer'] },
  { id: 'seller_unresponsive', roles: ['buyer'] },
  { id: 'payment_not_received', roles: ['seller'] },
  { id: 'wrong_amount_received', roles: ['seller'] },
  { id: 'payment_from_third_party', roles: ['seller'] },
  { id: 'buyer_unresponsive', roles: ['seller'] },
  { id: 'other', roles: ['buyer', 'seller'] },
];

export function isDisputeReason(id: string, role: TradeActorRole): boolean {
  return DISPUTE_REASONS.some((r) => r.id === id && (r.roles as readonly string[]).includes(role));
}
