import { sql } from 'drizzle-orm';
import { users } from '../../../db/schema/index.ts';
import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import type { ServiceContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { OffersParts } from './types.ts';

/** A person's offers: all but deleted ones for the owner, the public ones for anyone else. */
export function listOffersOfUser(
  { repo, views }: OffersParts,
  ctx: ServiceContext,
  { username, locale }: { username: string; locale: Locale },
) {
  const owner = repo.db
    .select({ id: users.id, status: users.status })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .get();
  if (!owner || owner.status === 'banned') throw notFound('User', 'username');
  const isOwner = ctx.auth?.user.id === owner.id;
  const rows = isOwner ? repo.byOwner(owner.id) : repo.publicByOwner(owner.id);
  return views.viewAll(rows, locale, { forOwner: isOwner });
}
