import type { TradeStatus } from '../../../db/schema/index.ts';
import { AppError } from '../errors.ts';
import type { GiftCardSettlement } from '../trades/deps.ts';
import type { TradeRow } from '../trades/repository.ts';
import type { TradeAction } from '../trades/state-machine.ts';
import type { TransitionActor } from '../trades/transition.ts';
import { notCovering } from './attach.ts';
import type { GiftCardsRepository } from './repository.ts';
import { totalOf } from './views.ts';

// What a gift-card trade's transitions do to its cards, inside the transition's transaction
// (docs/gift-cards.md "States"):
// - marking paid needs cards that add up to the trade's amount;
// - released, or a dispute won by the buyer: every card is used;
// - cancelled (by a party, expiry, or the seller stating nothing was redeemed): unopened cards go
//   back to "My gift cards", and an opened one only by the seller's statement: a buyer's cancel
//   after a reveal is refused (the seller states it, or a dispute settles it);
// - a dispute won by the seller: unopened cards go back, opened ones count as used (the seller
//   has seen the code; the moderator decided the buyer was not owed the coins for it);
// - a moderator reopens only a trade that still holds cards (opened ones a dispute kept).

const CANCELLED: readonly TradeStatus[] = ['cancelled_buyer', 'cancelled_seller', 'cancelled_system'];

export function createGiftCardSettlement(repo: GiftCardsRepository): GiftCardSettlement {
  const record = (cardId: number, row: TradeRow, action: string, actor: TransitionActor, at: number) =>
    repo.record({ cardId, tradeId: row.id, action, actorId: actor.id, actorRole: actor.role, at });

  return {
    async check(row: TradeRow, action: TradeAction) {
      if (action !== 'mark_paid' && action !== 'cancel' && action !== 'reopen') return;
      const cards = await repo.ofTrade(row.id);
      // The cards of a cancelled trade went back to the buyer and may be in another trade by now:
      // reopening it would put the coins in dispute against nothing.
      if (action === 'reopen' && cards.length === 0) {
        throw new AppError('FORBIDDEN', 'The gift cards of this trade went back to the buyer; it cannot be reopened.', {
          key: 'gift_cards_reopen_freed',
        });
      }
      if (action === 'mark_paid' && (cards.length === 0 || totalOf(cards) !== row.fiatAmountMinor)) {
        throw notCovering(totalOf(cards), row);
      }
      if (action === 'cancel' && cards.some((card) => card.state === 'revealed')) {
        throw new AppError(
          'GIFT_CARD_REVEALED',
          'The seller has opened a code. The seller can give the cards back by stating none was redeemed; otherwise open a dispute.',
          { key: 'gift_cards_cancel_after_reveal' },
        );
      }
    },

    async apply(row, to, action, actor, at) {
      const cards = await repo.ofTrade(row.id);
      for (const card of cards) {
        if (to === 'released' || to === 'dispute_won_buyer') {
          if (await repo.use(card.id, at)) await record(card.id, row, 'used', actor, at);
        } else if (CANCELLED.includes(to) || to === 'dispute_won_seller') {
          const giveBack = card.state === 'in_use' || (card.state === 'revealed' && action === 'cancel_unredeemed');
          if (giveBack && (await repo.free(card.id, card.state, at))) {
            await record(card.id, row, action === 'cancel_unredeemed' ? 'returned' : 'freed', actor, at);
          } else if (card.state === 'revealed' && (await repo.use(card.id, at))) {
            await record(card.id, row, 'kept', actor, at);
          }
        }
      }
    },
  };
}
