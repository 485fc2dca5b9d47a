import type { VerificationQueueItem } from '../../../src/lib/shared/views/verification.ts';
import type { PersonContext } from '../context.ts';
import { isModerator, moderatorsOnly, toView } from './documents.ts';
import type { VerificationDeps } from './types.ts';

/** The review queue: documents waiting, the longest waiting first. */
export async function reviewQueue(
  { repo }: VerificationDeps,
  ctx: PersonContext,
  { limit = 100 }: { limit?: number } = {},
): Promise<VerificationQueueItem[]> {
  if (!isModerator(ctx.auth.user)) throw moderatorsOnly();
  return (await repo.pending(limit)).map(({ document, owner }) => ({
    ...toView(document),
    user: { id: owner.publicId, username: owner.username, email: owner.email, fullName: owner.fullName },
  }));
}
