import { immediate } from '../services/context.ts';
import { type AccountAction, applyAccountAction } from '../services/operators/account-actions.ts';
import { CommandError, ROLE_FLAGS, ROLES, STAFF_ROLES, type UserCommandParts } from './user-parts.ts';

// What an account may do: roles, bans and suspensions, and the second factor's reset. The account
// actions are the console's own (server/services/operators/account-actions.ts): one transaction
// each with its row in the operators' audit log, which names the command line's user.

export async function setRole(
  { db, find, update, sessions, operator, audit, actor }: UserCommandParts,
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
    const count = await sessions.invalidateAll(operator, { userId: user.id });
    await audit.record(actor, {
      action: 'role',
      targetType: 'user',
      targetId: user.publicId,
      details: { role, state, sessionsEnded: count },
    });
    return count;
  });
  return `${user.email}: ${role} ${state}; ${ended} session(s) ended.`;
}

/** The account action on the account of `email`, with the operator's reason when given. */
async function act(parts: UserCommandParts, email: string, action: AccountAction, reason?: string) {
  const user = await parts.find(email);
  const result = await applyAccountAction(parts.actions, parts.operator, {
    user,
    action,
    reason: reason?.trim() || null,
    by: parts.actor,
  });
  return { ...result, account: user };
}

export async function ban(parts: UserCommandParts, email: string, reason?: string): Promise<string> {
  const { account, sessionsEnded } = await act(parts, email, 'ban', reason);
  return `${account.email}: banned; ${sessionsEnded} session(s) ended.`;
}

/**
 * A restriction like a privilege change: the sessions end, so no open page or socket keeps
 * what the account had. The person may sign in again and then has what a suspended account
 * may do: read, and finish the trades already open, but start none and send nothing out.
 */
export async function suspend(parts: UserCommandParts, email: string, reason?: string): Promise<string> {
  const { account, sessionsEnded } = await act(parts, email, 'suspend', reason);
  return `${account.email}: suspended (can sign in, cannot trade); ${sessionsEnded} session(s) ended.`;
}

export async function reinstate(parts: UserCommandParts, email: string, reason?: string): Promise<string> {
  const { account } = await act(parts, email, 'reinstate', reason);
  return `${account.email}: active again.`;
}

/**
 * For a person who lost both the authenticator and the recovery codes, once support has
 * established who they are: the second factor goes (the account is as if never set up) and
 * every session ends, so whoever holds one must sign in again with the password.
 */
export async function resetTwoFactor(parts: UserCommandParts, email: string, reason?: string): Promise<string> {
  const { account, changed, sessionsEnded } = await act(parts, email, 'reset_two_factor', reason);
  if (!changed) return `${account.email}: no two-factor authentication to remove; nothing changed.`;
  return `${account.email}: two-factor authentication removed; ${sessionsEnded} session(s) ended.`;
}

/** Every session of the person ends; the account stays as it is. */
export async function endSessions(parts: UserCommandParts, email: string, reason?: string): Promise<string> {
  const { account, sessionsEnded } = await act(parts, email, 'end_sessions', reason);
  return `${account.email}: ${sessionsEnded} session(s) ended.`;
}
