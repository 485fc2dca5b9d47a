import { immediate, type PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { editableUntil, partyTrade } from './party-trade.ts';
import type { FeedbackRow, Rating } from './repository.ts';
import { boundedText, FEEDBACK_CHANNEL, FEEDBACK_MESSAGE_MAX, type FeedbackDeps, RATEABLE_STATUSES } from './rules.ts';
import { toFeedbackView } from './view.ts';

export interface FeedbackEvent {
  tradeHash: string;
  fromId: number;
  toId: number;
  fromUsername: string;
  rating: Rating;
  link: string;
  /** Unix ms. */
  at: number;
}

/**
 * Rates the other party. The first rating counts; a second within 30 days replaces it (the
 * counters move from the old rating to the new one in the same transaction), later ones are
 * refused. Cancelled and running trades cannot be rated (docs/decisions.md).
 */
export async function giveFeedback(
  { repo, bus, now, webhooks }: FeedbackDeps,
  ctx: PersonContext,
  { hash, rating, message }: { hash: string; rating: Rating; message: string },
) {
  const { auth } = ctx;
  const text = boundedText('message', message, FEEDBACK_MESSAGE_MAX, 'feedback_message_length');
  const { trade, otherId, otherUsername, type } = await partyTrade(repo, hash, auth.user.id);
  const at = now();
  const saved = await immediate(repo.db, async (tx) => {
    // Read again inside the write lock: a status or an earlier rating that changed meanwhile counts.
    const current = await repo.tradeByHash(hash);
    if (!current || !RATEABLE_STATUSES.includes(current.status)) {
      throw new AppError('FORBIDDEN', 'Feedback can be left once the coins are released or a dispute is decided.', {
        key: 'feedback_not_rateable',
      });
    }
    const previous = (await repo.ofTrade(trade.id)).find((r) => r.fromId === auth.user.id);
    if (!previous) {
      await repo.insert({ tradeId: trade.id, fromId: auth.user.id, toId: otherId, type, rating, message: text, at });
      await repo.count(otherId, rating === 'positive' ? 1 : 0, rating === 'negative' ? 1 : 0);
    } else {
      if (at >= editableUntil(previous)) {
        throw new AppError('FORBIDDEN', 'Feedback can be changed for 30 days after it was left.', {
          key: 'feedback_locked',
        });
      }
      await repo.replace({ id: previous.id, rating, message: text, at });
      if (previous.rating !== rating) {
        const step = (r: Rating) => (r === rating ? 1 : 0) - (r === previous.rating ? 1 : 0);
        await repo.count(otherId, step('positive'), step('negative'));
      }
    }
    const event: FeedbackEvent = {
      tradeHash: trade.hash,
      fromId: auth.user.id,
      toId: otherId,
      fromUsername: auth.user.username,
      rating,
      link: `/profile/${otherUsername}`,
      at,
    };
    const given = { tradeHash: trade.hash, toId: otherId, from: auth.user.username, rating, message: text, at };
    await webhooks?.feedback(tx, given);
    tx.afterCommit(() => bus.publish(FEEDBACK_CHANNEL, { type: 'trade.feedback', payload: event }));
    return (await repo.ofTrade(trade.id)).find((r) => r.fromId === auth.user.id) as FeedbackRow;
  });
  return toFeedbackView(saved);
}
