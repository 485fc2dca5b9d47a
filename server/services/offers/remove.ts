import { and, eq } from 'drizzle-orm';
import { offers } from '../../../db/schema/index.ts';
import type { PersonContext } from '../context.ts';
import type { OffersParts } from './types.ts';
import { ownOffer } from './vendor-guard.ts';

/** Deleting keeps the row (trades point at it) and takes it out of every list. */
export function removeOffer({ repo, searches, now }: OffersParts, ctx: PersonContext, { hash }: { hash: string }) {
  const { auth } = ctx;
  ownOffer(repo, auth, hash);
  repo.db
    .update(offers)
    .set({ status: 'deleted', updatedAt: now() })
    .where(and(eq(offers.hash, hash), eq(offers.ownerId, auth.user.id)))
    .run();
  searches.invalidate();
}
