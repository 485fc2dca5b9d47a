import type { UserCommandParts } from './user-parts.ts';

export function verifyEmail({ repo, find }: UserCommandParts, email: string): string {
  const user = find(email);
  repo.markEmailVerified(user.id);
  return `${user.email}: e-mail marked verified.`;
}

/**
 * The identity counts as verified (spec section 3 `isIdVerified`): converting bitcoin, selling
 * to offers that ask for it, the gray-country rule, verification level 3. Moderators approve
 * documents in the review queue; this is the operator's way around it (identity checked elsewhere).
 */
export function verifyId({ find, update, now }: UserCommandParts, email: string): string {
  const user = find(email);
  update(user.id, { idVerifiedAt: now() });
  return `${user.email}: identity marked verified.`;
}

/** The address counts as verified (`isAddressVerified`, verification level 4), as verifyId. */
export function verifyAddress({ find, update, now }: UserCommandParts, email: string): string {
  const user = find(email);
  update(user.id, { addressVerifiedAt: now() });
  return `${user.email}: address marked verified.`;
}
