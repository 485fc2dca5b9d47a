import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import { immediate, type PersonContext } from '../context.ts';
import type { OfferInput } from './offer-input.ts';
import type { OfferView } from './offer-view.ts';
import type { OfferRow } from './repository.ts';
import type { OffersParts } from './types.ts';
import { checkedOffer, ownOffer, requireVendor } from './vendor-guard.ts';

/** A vendor replaces every field of their offer. */
export async function updateOffer(
  { repo, catalogue, searches, views, now }: OffersParts,
  ctx: PersonContext,
  { hash, offer, locale }: { hash: string; offer: OfferInput; locale: Locale },
): Promise<OfferView> {
  const { auth } = ctx;
  requireVendor(auth);
  const names = await catalogue;
  // One transaction from the owner check to the row read back: an offer deleted in between is
  // neither written nor shown as the vendor's, and `updated_at` grows past the version read.
  const row = await immediate(repo.db, async () => {
    const before = await ownOffer(repo, auth, hash);
    const values = checkedOffer(offer, names);
    // `updated_at` changes, so a trade started from what the buyer saw before notices (originalData).
    await repo.replace(hash, auth.user.id, { ...values, updatedAt: Math.max(now(), before.updatedAt + 1) });
    return (await repo.byHash(hash)) as OfferRow;
  });
  searches.invalidate();
  return views.view(row, locale, true);
}
