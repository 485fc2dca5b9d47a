import type { AuthState } from '../context.ts';
import type { OffersRepository } from './repository.ts';
import type { Viewer } from './start-gate.ts';

/** What the start gate knows of the person looking at an offer of `ownerId`; null for a visitor. */
export async function viewerOf(
  repo: OffersRepository,
  auth: AuthState | undefined,
  ownerId: number,
  visitorCountryIso?: string,
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
    countryIso: auth.profile.countryIso ?? visitorCountryIso ?? null,
    completedTrades: user.completedTrades,
    trustedByOwner: ownerThinks === 'trusted',
    blockedEitherWay: ownerThinks === 'blocked' || viewerThinks === 'blocked',
  };
}
