import type { UserCommandParts } from './user-parts.ts';

export async function verifyEmail({ repo, find }: UserCommandParts, email: string): Promise<string> {
  const user = await find(email);
  await repo.markEmailVerified(user.id);
  return `${user.email}: e-mail marked verified.`;
}

/**
 * The identity counts as verified (spec section 3 `isIdVerified`): converting bitcoin, selling
 * to offers that ask for it, the gray-country rule, verification level 3. Moderators approve
 * documents in the review queue; this is the operator's way around it (identity checked elsewhere).
 */
export async function verifyId({ find, update, now }: UserCommandParts, email: string): Promise<string> {
  const user = await find(email);
  await update(user.id, { idVerifiedAt: now() });
  return `${user.email}: identity marked verified.`;
}

/** The address counts as verified (`isAddressVerified`, verification level 4), as verifyId. */
export async function verifyAddress({ find, update, now }: UserCommandParts, email: string): Promise<string> {
  const user = await find(email);
  await update(user.id, { addressVerifiedAt: now() });
  return `${user.email}: address marked verified.`;
}
