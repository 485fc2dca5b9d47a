import type { PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { GIFT_CARDS_GROUP, type TradesParts } from './deps.ts';
import type { TradeView } from './trade-view.ts';

/** The buyer gives up the trade, or the seller withdraws before it is marked paid: coins go back. */
export function cancelTrade({ act }: TradesParts, ctx: PersonContext, { hash }: { hash: string }): Promise<TradeView> {
  return act(ctx, hash, 'cancel');
}

/**
 * A gift-card trade's seller states that no code was redeemed: the trade is cancelled, the coins go
 * back to the seller and the cards to the buyer (server/services/gift-cards/settlement.ts).
 */
export function cancelUnredeemed({ act }: TradesParts, ctx: PersonContext, { hash }: { hash: string }) {
  return act(ctx, hash, 'cancel_unredeemed', {
    check: (row) => {
      if (row.paymentGroupSlug !== GIFT_CARDS_GROUP) {
        throw new AppError('FORBIDDEN', 'This trade is not paid with gift cards.', { key: 'gift_cards_not_for_trade' });
      }
    },
  });
}
