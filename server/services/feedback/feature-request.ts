import { immediate, type PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { boundedText, FEATURE_REQUEST_MAX, FEATURE_REQUESTS_PER_DAY, type FeedbackDeps } from './rules.ts';

/**
 * The feature-request form (spec sections 4 and 7): stored for the team, a few a day. Counted and
 * stored in one transaction: requests sent at once cannot all slip under the limit.
 */
export async function featureRequest(
  { repo, now }: FeedbackDeps,
  ctx: PersonContext,
  { text, locale }: { text: string; locale: string },
) {
  const { auth } = ctx;
  const body = boundedText('text', text, FEATURE_REQUEST_MAX, 'feature_request_length');
  const at = now();
  await immediate(repo.db, async () => {
    if ((await repo.featureRequestsSince(auth.user.id, at - 86_400_000)) >= FEATURE_REQUESTS_PER_DAY) {
      throw new AppError('RATE_LIMITED', 'You have sent many requests today. Try again tomorrow.', {
        key: 'feature_request_limit',
        retryAfterSeconds: 3600,
      });
    }
    await repo.insertFeatureRequest({ userId: auth.user.id, text: body, locale, at });
  });
  return { success: true };
}
