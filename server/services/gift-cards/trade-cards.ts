import type { TradeActorRole } from '../../../db/schema/index.ts';
import { tradeChannel } from '../../realtime/channels.ts';
import { AppError } from '../errors.ts';
import { systemLine as chatSystemLine } from '../trades/chat.ts';
import { GIFT_CARDS_GROUP } from '../trades/deps.ts';
import type { TradeRow } from '../trades/repository.ts';
import type { GiftCardsDeps } from './deps.ts';

// What the verbs on a trade's cards share: the trade must be a gift-card trade, the chat's system
// line of a change, and the event that tells the trade's page to read its cards again.

export function requireGiftTrade(row: TradeRow): void {
  if (row.paymentGroupSlug !== GIFT_CARDS_GROUP) {
    throw new AppError('FORBIDDEN', 'This trade is not paid with gift cards.', { key: 'gift_cards_not_for_trade' });
  }
}

/** A trade that moved on past what the action needs: reload it. */
export const notNow = (row: TradeRow, message: string, key: string) =>
  new AppError('TRADE_STATE_CHANGED', message, { key, meta: { status: row.status } });

/** A line in the trade's chat about its cards, in the change's transaction. */
export const systemLine = ({ tradesRepo }: GiftCardsDeps, row: TradeRow, key: string, at: number) =>
  chatSystemLine(tradesRepo, row.id, key, at);

/** After the commit: the page reads the cards and the chat again. */
export function announceCards({ bus }: GiftCardsDeps, row: TradeRow, action: string, role: TradeActorRole): void {
  bus.publish(tradeChannel(row.hash), { type: 'gift_cards', payload: { action, role } });
}
