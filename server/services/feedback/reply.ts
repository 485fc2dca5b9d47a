import type { PersonContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { partyTrade } from './party-trade.ts';
import type { FeedbackRow } from './repository.ts';
import { boundedText, FEEDBACK_MESSAGE_MAX, type FeedbackDeps } from './rules.ts';
import { toFeedbackView } from './view.ts';

/** The person rated answers the feedback about them, once. */
export async function replyToFeedback(
  { repo, now }: FeedbackDeps,
  ctx: PersonContext,
  { hash, reply }: { hash: string; reply: string },
) {
  const { auth } = ctx;
  const text = boundedText('reply', reply, FEEDBACK_MESSAGE_MAX, 'feedback_reply_length');
  const { trade } = await partyTrade(repo, hash, auth.user.id);
  const received = (await repo.ofTrade(trade.id)).find((r) => r.toId === auth.user.id);
  if (!received) throw notFound('Feedback', 'id');
  // Guarded by the UPDATE itself (reply IS NULL): two replies at once store one.
  if (!(await repo.reply(received.id, text, now()))) {
    throw new AppError('FORBIDDEN', 'You have replied to this feedback already.', { key: 'feedback_reply_once' });
  }
  return toFeedbackView((await repo.ofTrade(trade.id)).find((r) => r.id === received.id) as FeedbackRow);
}
