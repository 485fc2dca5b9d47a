import type { ServiceContext } from '../context.ts';
import type { OffersRepository } from './repository.ts';
import type { Viewer } from './start-gate.ts';

/**
 * What the start gate knows of the person looking at an offer of `ownerId`; null for a visitor.
 * `shownCountry` is the listing's country when the page names one; the request's own country
 * (`ctx.visitorCountryIso`) is never replaced by what a client sends.
 */
export async function viewerOf(
  repo: OffersRepository,
  { auth, visitorCountryIso: requestCountry }: ServiceContext,
  ownerId: number,
  shownCountry?: string,
): Promise<Viewer | null> {
  if (!auth) return null;
  const { user } = auth;
  const ownerThinks = await repo.trust(ownerId, user.id);
  const viewerThinks = await repo.trust(user.id, ownerId);
  return {
    id: user.id,
    username: user.username,
    status: user.status,
    isEmailVerified: user.isEmailVerified,
    // Set by an operator until the verification issue brings documents (user:verify-id).
    isIdVerified: user.idVerifiedAt !== null,
    countryIso: auth.profile.countryIso ?? shownCountry ?? requestCountry ?? null,
    requestCountryIso: requestCountry ?? null,
    completedTrades: user.completedTrades,
    trustedByOwner: ownerThinks === 'trusted',
    blockedEitherWay: ownerThinks === 'blocked' || viewerThinks === 'blocked',
  };
}
