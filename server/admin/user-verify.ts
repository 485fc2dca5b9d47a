import { nameIssue, normalizeName } from '../../src/lib/shared/person-name.ts';
import { immediate } from '../services/context.ts';
import { applyAccountAction } from '../services/operators/account-actions.ts';
import { CommandError, type UserCommandParts } from './user-parts.ts';

export async function verifyEmail({ db, repo, find, audit, actor }: UserCommandParts, email: string): Promise<string> {
  const user = await find(email);
  await immediate(db, async () => {
    await repo.markEmailVerified(user.id);
    await audit.record(actor, { action: 'verify_email', targetType: 'user', targetId: user.publicId });
  });
  return `${user.email}: e-mail marked verified.`;
}

/**
 * The identity counts as verified (spec section 3 `isIdVerified`): converting bitcoin, selling
 * to offers that ask for it, the gray-country rule, verification level 3. Moderators approve
 * documents in the review queue; this is the operator's way around it (identity checked elsewhere),
 * the console's action too (server/services/operators/account-actions.ts).
 */
export async function verifyId(parts: UserCommandParts, email: string, fullName?: string): Promise<string> {
  const user = await parts.find(email);
  if (fullName !== undefined && nameIssue(fullName))
    throw new CommandError(`"${fullName}" is not a full name: letters, two at least.`);
  const name = fullName === undefined ? undefined : normalizeName(fullName);
  await applyAccountAction(parts.actions, parts.operator, {
    user,
    action: 'verify_identity',
    reason: null,
    fullName: name,
    by: parts.actor,
  });
  return `${user.email}: identity marked verified${name === undefined ? '' : ` as ${name}`}.`;
}

/** The address counts as verified (`isAddressVerified`, verification level 4), as verifyId. */
export async function verifyAddress(parts: UserCommandParts, email: string, reason?: string): Promise<string> {
  const user = await parts.find(email);
  await applyAccountAction(parts.actions, parts.operator, {
    user,
    action: 'verify_address',
    reason: reason?.trim() || null,
    by: parts.actor,
  });
  return `${user.email}: address marked verified.`;
}
