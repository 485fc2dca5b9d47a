import { and, eq, ne } from 'drizzle-orm';
import { offers } from '../../../db/schema/index.ts';
import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import type { PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { OfferView } from './offer-view.ts';
import type { OfferRow } from './repository.ts';
import type { OffersParts } from './types.ts';
import { ownOffer, requireVendor } from './vendor-guard.ts';

/** On or off; `active` sets it, otherwise it flips. Blocked offers stay off. */
export function toggleOffer(
  { repo, searches, views }: OffersParts,
  ctx: PersonContext,
  { hash, active, locale }: { hash: string; active?: boolean | undefined; locale: Locale },
): OfferView {
  const { auth } = ctx;
  requireVendor(auth);
  const row = ownOffer(repo, auth, hash);
  if (row.status === 'blocked') {
    throw new AppError('FORBIDDEN', 'A moderator stopped this offer; it cannot be turned on.', {
      key: 'offer_blocked',
    });
  }
  const next = (active ?? row.status !== 'active') ? 'active' : 'paused';
  repo.db
    .update(offers)
    .set({ status: next })
    .where(
      and(
        eq(offers.hash, hash),
        eq(offers.ownerId, auth.user.id),
        ne(offers.status, 'blocked'),
        ne(offers.status, 'deleted'),
      ),
    )
    .run();
  searches.invalidate();
  return views.view(repo.byHash(hash) as OfferRow, locale, true);
}
