import type { TradeStatus } from '../../../db/schema/index.ts';
import type { EventBus } from '../../realtime/bus.ts';
import { invalidInput } from '../errors.ts';
import type { WebhookRecorder } from '../webhooks/recorder.ts';
import type { FeedbackRepository } from './repository.ts';

// The rules of feedback every verb shares: what can be rated, for how long, how much text.

/** The internal bus channel the notifications service follows (the trades service's too). */
export const FEEDBACK_CHANNEL = 'trades';
/** Statuses that can be rated: coins moved to the buyer, or a moderator decided the dispute. */
export const RATEABLE_STATUSES: readonly TradeStatus[] = ['released', 'dispute_won_buyer', 'dispute_won_seller'];
/** How long after the first rating it may still be replaced. */
export const FEEDBACK_EDIT_WINDOW_MS = 30 * 86_400_000;
export const FEEDBACK_MESSAGE_MAX = 500;
export const FEATURE_REQUEST_MAX = 2000;
/** Feature requests per person and day: the form is for ideas, not for a flood. */
export const FEATURE_REQUESTS_PER_DAY = 10;
/** Spec section 9: page size 50. */
export const FEEDBACK_PAGE_SIZE = 50;

export interface FeedbackDeps {
  repo: FeedbackRepository;
  bus: EventBus;
  now: () => number;
  /** Merchants' webhooks: `feedback.received` joins the outbox in the rating's transaction. */
  webhooks?: WebhookRecorder;
}

/** Trimmed text within 1…max characters, or the field's validation error. */
export function boundedText(field: string, value: string, max: number, key: string): string {
  const text = value.trim();
  if (text.length === 0 || text.length > max) {
    throw invalidInput([{ field, message: `Write 1 to ${max} characters.`, key, params: { max } }]);
  }
  return text;
}
