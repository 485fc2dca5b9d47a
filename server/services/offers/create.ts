import { newOfferHash } from '../../../db/ids.ts';
import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import { immediate, type PersonContext } from '../context.ts';
import type { OfferInput } from './offer-input.ts';
import type { OfferView } from './offer-view.ts';
import type { OfferRow } from './repository.ts';
import type { OffersParts } from './types.ts';
import { checkedOffer, requireVendor } from './vendor-guard.ts';

/** A vendor publishes a new offer, active at once. */
export async function createOffer(
  { repo, catalogue, searches, views, now }: OffersParts,
  ctx: PersonContext,
  { offer, locale }: { offer: OfferInput; locale: Locale },
): Promise<OfferView> {
  const { auth } = ctx;
  requireVendor(auth);
  const values = checkedOffer(offer, await catalogue);
  const at = now();
  const hash = newOfferHash();
  // One transaction: the row and the funding needs the listing reads come together.
  await immediate(repo.db, () =>
    repo.insert({ ...values, hash, ownerId: auth.user.id, status: 'active', createdAt: at, updatedAt: at }),
  );
  searches.invalidate();
  return views.view((await repo.byHash(hash)) as OfferRow, locale, true);
}
