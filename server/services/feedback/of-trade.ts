import type { PersonContext } from '../context.ts';
import { editableUntil, partyTrade } from './party-trade.ts';
import { type FeedbackDeps, RATEABLE_STATUSES } from './rules.ts';
import { seconds, toFeedbackView } from './view.ts';

/** Both sides' feedback of a trade, for its parties, and what the reader may still do. */
export async function feedbackOfTrade({ repo, now }: FeedbackDeps, ctx: PersonContext, { hash }: { hash: string }) {
  const { auth } = ctx;
  const { trade } = await partyTrade(repo, hash, auth.user.id);
  const rows = await repo.ofTrade(trade.id);
  const given = rows.find((r) => r.fromId === auth.user.id);
  const received = rows.find((r) => r.toId === auth.user.id);
  const at = now();
  const rateable = RATEABLE_STATUSES.includes(trade.status);
  return {
    given: given ? toFeedbackView(given) : null,
    received: received ? toFeedbackView(received) : null,
    canGive: rateable && (!given || at < editableUntil(given)),
    /** Unix seconds until which the given rating may be replaced; null before one is given. */
    editableUntil: given ? seconds(editableUntil(given)) : null,
    canReply: received !== undefined && received.reply === null,
  };
}
