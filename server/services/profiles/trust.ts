import type { PersonContext } from '../context.ts';
import { invalidInput } from '../errors.ts';
import type { Relation } from './profile.ts';
import type { ProfilesDeps } from './types.ts';
import { visibleUser } from './visible-user.ts';

/**
 * Trust, block or neither. Blocking hides both people's offers from each other and refuses
 * trades between them (offers search, start gate); one relation per pair and direction.
 */
export async function setTrust(
  { repo, now, onTrustChanged }: ProfilesDeps,
  ctx: PersonContext,
  { username, kind }: { username: string; kind: Relation },
) {
  const { auth } = ctx;
  const other = await visibleUser(repo, username);
  if (other.id === auth.user.id) {
    throw invalidInput([{ field: 'username', message: 'You cannot trust or block yourself.', key: 'trust_self' }]);
  }
  if (kind === 'none') await repo.clearTrust(auth.user.id, other.id);
  else await repo.setTrust(auth.user.id, other.id, kind, now());
  await onTrustChanged?.();
  const counts = await repo.trustCounts(other.id);
  return { relation: kind, trustedCount: counts.trusted, blockedCount: counts.blocked };
}
