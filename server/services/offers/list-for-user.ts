import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import type { ServiceContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { OffersParts } from './types.ts';

/** A person's offers: all but deleted ones for the owner, the public ones for anyone else. */
export async function listOffersOfUser(
  { repo, views }: OffersParts,
  ctx: ServiceContext,
  { username, locale }: { username: string; locale: Locale },
) {
  const owner = await repo.ownerByUsername(username);
  if (!owner || owner.status === 'banned') throw notFound('User', 'username');
  const isOwner = ctx.auth?.user.id === owner.id;
  const rows = isOwner ? await repo.byOwner(owner.id) : await repo.publicByOwner(owner.id);
  return views.viewAll(rows, locale, { forOwner: isOwner });
}
