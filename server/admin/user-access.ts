import { immediate } from '../services/context.ts';
import { CommandError, ROLE_FLAGS, ROLES, STAFF_ROLES, type UserCommandParts } from './user-parts.ts';

// What an account may do: roles, bans and suspensions, and the second factor's reset.

export function setRole(
  { find, update, sessions, operator }: UserCommandParts,
  email: string,
  role: string,
  state = 'on',
): string {
  if (state !== 'on' && state !== 'off') throw new CommandError('The last argument must be on or off.');
  const user = find(email);
  const on = state === 'on';
  if (role in ROLE_FLAGS) {
    update(user.id, { [ROLE_FLAGS[role as keyof typeof ROLE_FLAGS]]: on });
  } else if ((STAFF_ROLES as readonly string[]).includes(role)) {
    update(user.id, { role: on ? (role as 'moderator' | 'admin') : 'user' });
  } else {
    throw new CommandError(`Unknown role ${role}; one of: ${ROLES.join(', ')}.`);
  }
  // A privilege change ends the sessions: the next sign-in carries the new rights (no fixation).
  const ended = sessions.invalidateAll(operator, { userId: user.id });
  return `${user.email}: ${role} ${state}; ${ended} session(s) ended.`;
}

export function ban({ db, find, update, sessions, operator }: UserCommandParts, email: string): string {
  const user = find(email);
  // One transaction: no moment where the account is banned and a session still works.
  const ended = immediate(db, () => {
    update(user.id, { status: 'banned' });
    return sessions.invalidateAll(operator, { userId: user.id });
  });
  return `${user.email}: banned; ${ended} session(s) ended.`;
}

/**
 * A restriction like a privilege change: the sessions end, so no open page or socket keeps
 * what the account had. The person may sign in again and then has what a suspended account
 * may do: read, and finish the trades already open, but start none and send nothing out.
 */
export function suspend({ db, find, update, sessions, operator }: UserCommandParts, email: string): string {
  const user = find(email);
  const ended = immediate(db, () => {
    update(user.id, { status: 'suspended' });
    return sessions.invalidateAll(operator, { userId: user.id });
  });
  return `${user.email}: suspended (can sign in, cannot trade); ${ended} session(s) ended.`;
}

export function reinstate({ find, update }: UserCommandParts, email: string): string {
  const user = find(email);
  update(user.id, { status: 'active' });
  return `${user.email}: active again.`;
}

/**
 * For a person who lost both the authenticator and the recovery codes, once support has
 * established who they are: the second factor goes (the account is as if never set up) and
 * every session ends, so whoever holds one must sign in again with the password.
 */
export function resetTwoFactor({ find, twoFactor, sessions, operator }: UserCommandParts, email: string): string {
  const user = find(email);
  if (!twoFactor.remove(user.id)) return `${user.email}: no two-factor authentication to remove; nothing changed.`;
  const ended = sessions.invalidateAll(operator, { userId: user.id });
  return `${user.email}: two-factor authentication removed; ${ended} session(s) ended.`;
}
