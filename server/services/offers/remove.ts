import type { PersonContext } from '../context.ts';
import type { OffersParts } from './types.ts';
import { ownOffer } from './vendor-guard.ts';

/** Deleting keeps the row (trades point at it) and takes it out of every list. */
export async function removeOffer(
  { repo, searches, now }: OffersParts,
  ctx: PersonContext,
  { hash }: { hash: string },
): Promise<void> {
  const { auth } = ctx;
  // Check and write need no transaction: the write is limited to the owner's row, and deleting twice is deleting.
  await ownOffer(repo, auth, hash);
  await repo.remove(hash, auth.user.id, now());
  searches.invalidate();
}
