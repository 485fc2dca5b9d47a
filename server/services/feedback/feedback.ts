import { bindVerb } from '../context.ts';
import { featureRequest } from './feature-request.ts';
import { giveFeedback } from './give.ts';
import { feedbackOfTrade } from './of-trade.ts';
import { feedbackOfUser } from './of-user.ts';
import { replyToFeedback } from './reply.ts';
import type { FeedbackDeps } from './rules.ts';

// Feedback after a trade (spec sections 3, 4 and 7 "Feedback"; docs/decisions/073-feedback-rules.md 2026-11-24
// "Feedback"): each party rates the other once per trade, may change it for 30 days, and the
// person rated replies once. The users' counters move in the rating's own transaction, so they
// always equal the rows; the event goes out on the internal `trades` channel after the commit.
// One verb per file; this wires them to the area's deps.

export type { FeedbackEvent } from './give.ts';
export {
  FEATURE_REQUEST_MAX,
  FEATURE_REQUESTS_PER_DAY,
  FEEDBACK_CHANNEL,
  FEEDBACK_EDIT_WINDOW_MS,
  FEEDBACK_MESSAGE_MAX,
  FEEDBACK_PAGE_SIZE,
  type FeedbackDeps,
  RATEABLE_STATUSES,
} from './rules.ts';
export { type FeedbackView, toFeedbackView } from './view.ts';

/** The verb with the area's deps bound: what callers see is `verb(ctx, input)`. */
export function createFeedbackService(deps: FeedbackDeps) {
  return {
    /** Both sides' feedback of a trade, for its parties, and what the reader may still do. */
    ofTrade: bindVerb(deps, feedbackOfTrade),
    /** Rates the other party: once, replaceable for 30 days. */
    give: bindVerb(deps, giveFeedback),
    /** The person rated answers the feedback about them, once. */
    reply: bindVerb(deps, replyToFeedback),
    /** A person's feedback, newest first, one page of the chosen side and rating. */
    ofUser: bindVerb(deps, feedbackOfUser),
    /** The feature-request form: stored for the team, a few a day. */
    featureRequest: bindVerb(deps, featureRequest),
  };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;
