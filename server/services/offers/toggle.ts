import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import { immediate, type PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { OfferView } from './offer-view.ts';
import type { OfferRow } from './repository.ts';
import type { OffersParts } from './types.ts';
import { ownOffer, requireVendor } from './vendor-guard.ts';

/** On or off; `active` sets it, otherwise it flips. Blocked offers stay off. */
export async function toggleOffer(
  { repo, searches, views }: OffersParts,
  ctx: PersonContext,
  { hash, active, locale }: { hash: string; active?: boolean | undefined; locale: Locale },
): Promise<OfferView> {
  const { auth } = ctx;
  requireVendor(auth);
  // The flip reads the status it flips: read, write and read back in one transaction, so two
  // toggles at once flip twice and a moderator's block in between is seen.
  const row = await immediate(repo.db, async () => {
    const current = await ownOffer(repo, auth, hash);
    if (current.status === 'blocked') {
      throw new AppError('FORBIDDEN', 'A moderator stopped this offer; it cannot be turned on.', {
        key: 'offer_blocked',
      });
    }
    await repo.setActive(hash, auth.user.id, (active ?? current.status !== 'active') ? 'active' : 'paused');
    return (await repo.byHash(hash)) as OfferRow;
  });
  searches.invalidate();
  return views.view(row, locale, true);
}
