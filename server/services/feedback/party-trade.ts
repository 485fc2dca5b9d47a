import { notFound } from '../errors.ts';
import type { FeedbackRepository, FeedbackRow, FeedbackType } from './repository.ts';
import { FEEDBACK_EDIT_WINDOW_MS } from './rules.ts';

/** The trade and the reader's side of it; 404 for anyone who is not a party. */
export async function partyTrade(repo: FeedbackRepository, hash: string, userId: number) {
  const trade = await repo.tradeByHash(hash);
  if (!trade || (trade.buyerId !== userId && trade.sellerId !== userId)) throw notFound('Trade', 'id');
  const isBuyer = trade.buyerId === userId;
  return {
    trade,
    otherId: isBuyer ? trade.sellerId : trade.buyerId,
    otherUsername: isBuyer ? trade.sellerUsername : trade.buyerUsername,
    type: (isBuyer ? 'sell' : 'buy') as FeedbackType,
  };
}

export const editableUntil = (row: FeedbackRow) => row.createdAt + FEEDBACK_EDIT_WINDOW_MS;
