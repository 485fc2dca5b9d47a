import { minorToMajor } from '../../../src/lib/shared/money.ts';
import type { GiftCodeCheckView } from '../../../src/lib/shared/views/gift-cards.ts';
import { immediate, type PersonContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import type { TradeRow } from '../trades/repository.ts';
import { attachCards } from './attach.ts';
import type { GiftCardsDeps } from './deps.ts';
import { announceCards, notNow, requireGiftTrade, systemLine } from './trade-cards.ts';
import { totalOf, tradeCardView } from './views.ts';

// The gift code check of a trade (spec sections 2 and 3): who sees what, and the buyer's changes
// before marking paid: add a saved card, remove one the seller has not opened.

/** The trade's cards as its reader may see them: a code for the seller once revealed, for a moderator once they revealed it in a dispute. */
export async function giftCodeCheck(
  deps: GiftCardsDeps,
  ctx: PersonContext,
  { hash }: { hash: string },
): Promise<GiftCodeCheckView> {
  const { repo, trades, vault } = deps;
  const userId = ctx.auth.user.id;
  const { row, role } = await trades.access(ctx, { hash });
  requireGiftTrade(row);
  const cards = await repo.ofTrade(row.id);
  const events = role === 'moderator' ? await repo.eventsOfTrade(row.id) : [];
  const revealedByMe = (cardId: number) =>
    events.some((e) => e.cardId === cardId && e.action === 'revealed' && e.actorId === userId);
  // A picture of a card's back can show its code: moderators see them only in a dispute (images.ts).
  const seesPictures = role !== 'moderator' || row.status === 'dispute_open';
  const views = await Promise.all(
    cards.map(async (card) => {
      const opened = card.state === 'revealed' || card.state === 'used';
      const mayRead =
        (role === 'seller' && opened) ||
        (role === 'moderator' && row.status === 'dispute_open' && revealedByMe(card.id));
      return tradeCardView(
        card,
        seesPictures ? await repo.imagesOf(card.id) : [],
        mayRead ? vault.open(card.codeSealed, card.publicId) : null,
      );
    }),
  );
  const total = totalOf(cards);
  const reader = role === 'buyer' ? 'buyer' : role === 'seller' ? 'seller' : 'moderator';
  const opponent = role === 'buyer' ? 'seller' : 'buyer';
  const paidOrDisputed = row.status === 'paid' || row.status === 'dispute_open';
  return {
    tradeInfo: {
      amount: minorToMajor(row.fiatAmountMinor, row.fiatMinorUnits),
      currency: { id: row.fiatCurrencyId, code: row.fiatCode },
      paymentMethod: { id: row.paymentMethodId, name: row.paymentMethodName, slug: row.paymentMethodSlug },
      error: cards.length === 0 ? 'no_cards' : total !== row.fiatAmountMinor ? 'cards_do_not_cover' : null,
    },
    cardsTotal: minorToMajor(total, row.fiatMinorUnits),
    role: reader,
    opponentUser:
      role === 'moderator'
        ? null
        : {
            username: opponent === 'seller' ? row.sellerUsername : row.buyerUsername,
            avatarUrl: opponent === 'seller' ? row.sellerAvatarUrl : row.buyerAvatarUrl,
          },
    cards: views,
    can: {
      add: role === 'buyer' && row.status === 'active_funded',
      remove: role === 'buyer' && row.status === 'active_funded' && cards.some((c) => c.state === 'in_use'),
      reveal: (role === 'seller' && paidOrDisputed) || (role === 'moderator' && row.status === 'dispute_open'),
      returnCards: role === 'seller' && paidOrDisputed,
    },
  };
}

/** The buyer's own trade, unpaid yet, as read inside the change's transaction (the caller's). */
async function buyersUnpaidTrade(deps: GiftCardsDeps, ctx: PersonContext, hash: string): Promise<TradeRow> {
  const { row, role } = await deps.trades.access(ctx, { hash });
  requireGiftTrade(row);
  if (role !== 'buyer') {
    throw new AppError('FORBIDDEN', 'Only the buyer adds or removes gift cards.', { key: 'gift_cards_only_buyer' });
  }
  if (row.status !== 'active_funded') {
    throw notNow(row, 'The cards are settled once the trade is marked paid.', 'gift_cards_after_paid');
  }
  return row;
}

/** POST /rest/v1/trade/{id}/gift-cards: saved cards into the trade, up to its amount. */
export async function addToTrade(
  deps: GiftCardsDeps,
  ctx: PersonContext,
  { hash, gift_card_ids }: { hash: string; gift_card_ids: string[] },
) {
  const row = await immediate(deps.repo.db, async (tx) => {
    const trade = await buyersUnpaidTrade(deps, ctx, hash);
    const at = deps.now();
    await attachCards(deps, trade, gift_card_ids, { exactly: false, at });
    await systemLine(deps, trade, 'trade.system.gift_cards_attached', at);
    tx.afterCommit(() => announceCards(deps, trade, 'attached', 'buyer'));
    return trade;
  });
  return giftCodeCheck(deps, ctx, { hash: row.hash });
}

/** DELETE /rest/v1/trade/{id}/gift-cards/{cardId}: a card the seller has not opened goes back to "My gift cards". */
export async function removeFromTrade(
  deps: GiftCardsDeps,
  ctx: PersonContext,
  { hash, id }: { hash: string; id: string },
) {
  const { repo, now } = deps;
  await immediate(repo.db, async (tx) => {
    const trade = await buyersUnpaidTrade(deps, ctx, hash);
    const card = await repo.byPublicId(id);
    if (!card || card.tradeId !== trade.id) throw notFound('Gift card', 'id');
    const at = now();
    if (card.state !== 'in_use' || !(await repo.free(card.id, 'in_use', at))) {
      throw new AppError('GIFT_CARD_REVEALED', 'The seller has opened this card; it stays with the trade.', {
        field: 'id',
        key: 'gift_card_revealed',
      });
    }
    await repo.record({
      cardId: card.id,
      tradeId: trade.id,
      action: 'removed',
      actorId: trade.buyerId,
      actorRole: 'buyer',
      at,
    });
    await systemLine(deps, trade, 'trade.system.gift_card_removed', at);
    tx.afterCommit(() => announceCards(deps, trade, 'removed', 'buyer'));
  });
  return giftCodeCheck(deps, ctx, { hash });
}
