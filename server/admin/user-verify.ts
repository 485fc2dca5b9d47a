import { nameIssue, normalizeName } from '../../src/lib/shared/person-name.ts';
import { CommandError, type UserCommandParts } from './user-parts.ts';

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
export async function verifyId(
  { find, update, now }: UserCommandParts,
  email: string,
  fullName?: string,
): Promise<string> {
  const user = await find(email);
  if (fullName !== undefined && nameIssue(fullName))
    throw new CommandError(`"${fullName}" is not a full name: letters, two at least.`);
  const name = fullName === undefined ? {} : { fullName: normalizeName(fullName) };
  await update(user.id, { idVerifiedAt: now(), ...name });
  return `${user.email}: identity marked verified${fullName === undefined ? '' : ` as ${normalizeName(fullName)}`}.`;
}

/** The address counts as verified (`isAddressVerified`, verification level 4), as verifyId. */
export async function verifyAddress({ find, update, now }: UserCommandParts, email: string): Promise<string> {
  const user = await find(email);
  await update(user.id, { addressVerifiedAt: now() });
  return `${user.email}: address marked verified.`;
}
