import { fromMinorUnits } from '../../../src/lib/shared/money.ts';
import { AppError, invalidInput, notFound } from '../errors.ts';
import type { TradeRow } from '../trades/repository.ts';
import type { GiftCardsDeps } from './deps.ts';
import type { GiftCardRow } from './repository.ts';
import { totalOf } from './views.ts';

// Cards into a trade, inside the caller's transaction (a start, or the buyer adding cards): each
// the buyer's own, free, of the trade's brand and currency; each taken by a guarded UPDATE, so two
// trades racing for one card take it once and the loser's transaction undoes itself.

/** At most this many cards in one trade. */
export const MAX_CARDS_PER_TRADE = 20;

const unknownCard = () => notFound('Gift card', 'gift_card_ids');

export const cardTaken = () =>
  new AppError('GIFT_CARD_UNAVAILABLE', 'A chosen gift card is already in another trade or was deleted.', {
    field: 'gift_card_ids',
    key: 'gift_card_unavailable',
  });

/** The buyer's cards named by `ids`, checked against the trade; refuses the first that does not fit. */
async function cardsFor({ repo }: GiftCardsDeps, trade: TradeRow, ids: string[]): Promise<GiftCardRow[]> {
  const cards: GiftCardRow[] = [];
  for (const id of ids) {
    const card = await repo.byPublicId(id);
    // Someone else's card reads as one that does not exist.
    if (!card || card.ownerId !== trade.buyerId || card.state === 'deleted') throw unknownCard();
    if (card.state !== 'free') throw cardTaken();
    if (card.paymentMethodId !== trade.paymentMethodId || card.fiatCurrencyId !== trade.fiatCurrencyId) {
      throw invalidInput([
        {
          field: 'gift_card_ids',
          message: `must be ${trade.paymentMethodName} cards in ${trade.fiatCode}`,
          key: 'gift_card_wrong_brand',
          params: { brand: trade.paymentMethodName, currency: trade.fiatCode },
        },
      ]);
    }
    cards.push(card);
  }
  return cards;
}

export const notCovering = (total: number, trade: TradeRow) =>
  new AppError(
    'GIFT_CARDS_DO_NOT_COVER',
    `The cards add up to ${fromMinorUnits(total, trade.fiatMinorUnits)} ${trade.fiatCode}; the trade is for ${fromMinorUnits(trade.fiatAmountMinor, trade.fiatMinorUnits)} ${trade.fiatCode}.`,
    {
      field: 'gift_card_ids',
      key: 'gift_cards_do_not_cover',
      params: {
        total: fromMinorUnits(total, trade.fiatMinorUnits),
        amount: fromMinorUnits(trade.fiatAmountMinor, trade.fiatMinorUnits),
        currency: trade.fiatCode,
      },
    },
  );

/**
 * Takes `ids` into `trade` for its buyer. `exactly`: the cards must then add up to the trade's
 * amount (a start); otherwise they must not go past it (cards added one by one).
 */
export async function attachCards(
  deps: GiftCardsDeps,
  trade: TradeRow,
  ids: string[],
  { exactly, at }: { exactly: boolean; at: number },
): Promise<GiftCardRow[]> {
  const { repo } = deps;
  const present = await repo.ofTrade(trade.id);
  if (present.length + ids.length > MAX_CARDS_PER_TRADE) {
    throw invalidInput([
      {
        field: 'gift_card_ids',
        message: `must be at most ${MAX_CARDS_PER_TRADE} cards per trade`,
        key: 'gift_cards_too_many_in_trade',
        params: { max: MAX_CARDS_PER_TRADE },
      },
    ]);
  }
  const cards = await cardsFor(deps, trade, ids);
  const total = totalOf(present) + totalOf(cards);
  if (exactly ? total !== trade.fiatAmountMinor : total > trade.fiatAmountMinor) throw notCovering(total, trade);
  for (const card of cards) {
    if (!(await repo.take(card.id, trade.id, at))) throw cardTaken();
    await repo.record({
      cardId: card.id,
      tradeId: trade.id,
      action: 'attached',
      actorId: trade.buyerId,
      actorRole: 'buyer',
      at,
    });
  }
  return cards;
}
