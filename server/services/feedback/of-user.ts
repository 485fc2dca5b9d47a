import type { ServiceContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { FeedbackType, Rating } from './repository.ts';
import { FEEDBACK_PAGE_SIZE, type FeedbackDeps } from './rules.ts';
import { toFeedbackView } from './view.ts';

/**
 * A person's feedback, newest first (spec section 7, users/{username}/feedbacks): the totals
 * of the chosen side (`offer_type`) and one page of the chosen rating.
 */
export async function feedbackOfUser(
  { repo }: FeedbackDeps,
  _ctx: ServiceContext,
  {
    username,
    page,
    offerType,
    rating,
  }: { username: string; page: number; offerType: FeedbackType | 'all'; rating: Rating | 'all' },
) {
  const user = await repo.userByName(username);
  if (!user || user.status === 'banned') throw notFound('User', 'username');
  const type = offerType === 'all' ? null : offerType;
  const rows = await repo.list(
    user.id,
    type,
    rating === 'all' ? null : rating,
    FEEDBACK_PAGE_SIZE + 1,
    (page - 1) * FEEDBACK_PAGE_SIZE,
  );
  const hasMore = rows.length > FEEDBACK_PAGE_SIZE;
  const query = new URLSearchParams({ f_page: String(page + 1), offer_type: offerType, feedback: rating });
  return {
    ...(await repo.totals(user.id, type)),
    data: rows.slice(0, FEEDBACK_PAGE_SIZE).map(toFeedbackView),
    nextPageUrl: hasMore ? `/rest/v1/users/${encodeURIComponent(user.username)}/feedbacks?${query}` : null,
  };
}
