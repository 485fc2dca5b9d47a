import { and, eq, ne } from 'drizzle-orm';
import { offers } from '../../../db/schema/index.ts';
import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import type { PersonContext } from '../context.ts';
import type { OfferInput } from './offer-input.ts';
import type { OfferView } from './offer-view.ts';
import type { OfferRow } from './repository.ts';
import type { OffersParts } from './types.ts';
import { checkedOffer, ownOffer, requireVendor } from './vendor-guard.ts';

/** A vendor replaces every field of their offer. */
export function updateOffer(
  { repo, catalogue, searches, views, now }: OffersParts,
  ctx: PersonContext,
  { hash, offer, locale }: { hash: string; offer: OfferInput; locale: Locale },
): OfferView {
  const { auth } = ctx;
  requireVendor(auth);
  const before = ownOffer(repo, auth, hash);
  const values = checkedOffer(offer, catalogue);
  // `updated_at` changes, so a trade started from what the buyer saw before notices (originalData).
  repo.db
    .update(offers)
    .set({ ...values, updatedAt: Math.max(now(), before.updatedAt + 1) })
    .where(and(eq(offers.hash, hash), eq(offers.ownerId, auth.user.id), ne(offers.status, 'deleted')))
    .run();
  searches.invalidate();
  return views.view(repo.byHash(hash) as OfferRow, locale, true);
}
