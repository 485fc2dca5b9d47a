import { immediate, type PersonContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import type { TradeRow } from '../trades/repository.ts';
import type { GiftCardsDeps } from './deps.ts';
import { announceCards, notNow, requireGiftTrade, systemLine } from './trade-cards.ts';

// POST /rest/v1/trade/{id}/gift-cards/{cardId}/reveal: the seller opens a code once the buyer
// marked the trade paid; a moderator may read one in a dispute. Every reveal, a repeated one too,
// goes to the card's trail with who and when; the first one also to the chat.

export interface RevealedCode {
  id: string;
  code: string;
  revealedAt: number;
}

function mayReveal(row: TradeRow, role: string): void {
  if (role === 'buyer') {
    throw new AppError('FORBIDDEN', 'Only the seller opens the gift codes.', { key: 'gift_cards_only_seller_reveals' });
  }
  if (role === 'moderator' && row.status !== 'dispute_open') {
    throw new AppError('FORBIDDEN', 'Moderators read gift codes only in a dispute.', {
      key: 'gift_cards_moderator_dispute_only',
    });
  }
  if (row.status === 'active_funded') {
    throw new AppError('FORBIDDEN', 'The codes open once the buyer has marked the trade paid.', {
      key: 'gift_cards_reveal_before_paid',
    });
  }
  if (row.status !== 'paid' && row.status !== 'dispute_open') {
    throw notNow(row, 'This trade has ended; its codes are no longer opened.', 'gift_cards_trade_ended');
  }
}

export async function revealCode(
  deps: GiftCardsDeps,
  ctx: PersonContext,
  { hash, id }: { hash: string; id: string },
): Promise<RevealedCode> {
  const { repo, trades, vault, now } = deps;
  const userId = ctx.auth.user.id;
  return immediate(repo.db, async (tx) => {
    // Read inside the transaction: the status the reveal depends on cannot move meanwhile.
    const { row, role } = await trades.access(ctx, { hash });
    requireGiftTrade(row);
    mayReveal(row, role);
    const card = await repo.byPublicId(id);
    if (!card || card.tradeId !== row.id) throw notFound('Gift card', 'id');
    const at = now();
    // The guarded UPDATE decides which of two reveals at once is the first: one chat line.
    const first = role === 'seller' && card.state === 'in_use' && (await repo.reveal(card.id, userId, at));
    if (first) {
      await systemLine(deps, row, 'trade.system.gift_card_revealed', at);
      tx.afterCommit(() => announceCards(deps, row, 'revealed', 'seller'));
    }
    await repo.record({ cardId: card.id, tradeId: row.id, action: 'revealed', actorId: userId, actorRole: role, at });
    return {
      id: card.publicId,
      code: vault.open(card.codeSealed, card.publicId),
      revealedAt: Math.floor((first ? at : (card.revealedAt ?? at)) / 1000),
    };
  });
}

/**
 * POST /rest/v1/trade/{id}/gift-cards/return: the seller states that no code was redeemed; the
 * trade is cancelled, the coins go back to the seller and every card back to the buyer
 * (the settlement's `cancel_unredeemed`).
 */
export function returnCards({ trades }: GiftCardsDeps, ctx: PersonContext, { hash }: { hash: string }) {
  return trades.returnUnredeemed(ctx, { hash });
}
