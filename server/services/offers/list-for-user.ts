import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import type { ServiceContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { OffersParts } from './types.ts';

/**
 * A person's offers: all but deleted ones for the owner; for anyone else the public ones that are
 * listed, so not a sell offer whose owner cannot cover its smallest trade (decision 121).
 */
export async function listOffersOfUser(
  { repo, views }: OffersParts,
  ctx: ServiceContext,
  { username, locale }: { username: string; locale: Locale },
) {
  const owner = await repo.ownerByUsername(username);
  if (!owner || owner.status === 'banned') throw notFound('User', 'username');
  const isOwner = ctx.auth?.user.id === owner.id;
  const rows = isOwner ? await repo.byOwner(owner.id) : await repo.publicByOwner(owner.id);
  const offers = await views.viewAll(rows, locale, { forOwner: isOwner });
  return isOwner ? offers : offers.filter((offer) => !offer.noCoins);
}
