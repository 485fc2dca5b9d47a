import { immediate } from '../services/context.ts';
import { CommandError, ROLE_FLAGS, ROLES, STAFF_ROLES, type UserCommandParts } from './user-parts.ts';

// What an account may do: roles, bans and suspensions, and the second factor's reset.

export async function setRole(
  { db, find, update, sessions, operator }: UserCommandParts,
  email: string,
  role: string,
  state = 'on',
): Promise<string> {
  if (state !== 'on' && state !== 'off') throw new CommandError('The last argument must be on or off.');
  const user = await find(email);
  const on = state === 'on';
  // A privilege change ends the sessions: the next sign-in carries the new rights (no fixation).
  // One transaction: no request of a session still open runs with the new rights meanwhile.
  const ended = await immediate(db, async () => {
    if (role in ROLE_FLAGS) {
      await update(user.id, { [ROLE_FLAGS[role as keyof typeof ROLE_FLAGS]]: on });
    } else if ((STAFF_ROLES as readonly string[]).includes(role)) {
      await update(user.id, { role: on ? (role as 'moderator' | 'admin') : 'user' });
    } else {
      throw new CommandError(`Unknown role ${role}; one of: ${ROLES.join(', ')}.`);
    }
    return sessions.invalidateAll(operator, { userId: user.id });
  });
  return `${user.email}: ${role} ${state}; ${ended} session(s) ended.`;
}

export async function ban({ db, find, update, sessions, operator }: UserCommandParts, email: string): Promise<string> {
  const user = await find(email);
  // One transaction: no moment where the account is banned and a session still works.
  const ended = await immediate(db, async () => {
    await update(user.id, { status: 'banned' });
    return sessions.invalidateAll(operator, { userId: user.id });
  });
  return `${user.email}: banned; ${ended} session(s) ended.`;
}

/**
 * A restriction like a privilege change: the sessions end, so no open page or socket keeps
 * what the account had. The person may sign in again and then has what a suspended account
 * may do: read, and finish the trades already open, but start none and send nothing out.
 */
export async function suspend(
  { db, find, update, sessions, operator }: UserCommandParts,
  email: string,
): Promise<string> {
  const user = await find(email);
  const ended = await immediate(db, async () => {
    await update(user.id, { status: 'suspended' });
    return sessions.invalidateAll(operator, { userId: user.id });
  });
  return `${user.email}: suspended (can sign in, cannot trade); ${ended} session(s) ended.`;
}

export async function reinstate({ find, update }: UserCommandParts, email: string): Promise<string> {
  const user = await find(email);
  await update(user.id, { status: 'active' });
  return `${user.email}: active again.`;
}

/**
 * For a person who lost both the authenticator and the recovery codes, once support has
 * established who they are: the second factor goes (the account is as if never set up) and
 * every session ends, so whoever holds one must sign in again with the password.
 */
export async function resetTwoFactor(
  { db, find, twoFactor, sessions, operator }: UserCommandParts,
  email: string,
): Promise<string> {
  const user = await find(email);
  // One transaction: the second factor goes and every session ends together.
  const ended = await immediate(db, async () =>
    (await twoFactor.remove(user.id)) ? sessions.invalidateAll(operator, { userId: user.id }) : undefined,
  );
  if (ended === undefined) return `${user.email}: no two-factor authentication to remove; nothing changed.`;
  return `${user.email}: two-factor authentication removed; ${ended} session(s) ended.`;
}
