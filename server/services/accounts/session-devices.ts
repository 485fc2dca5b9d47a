import type { SessionDevice } from '../../../src/lib/shared/views/sessions.ts';
import type { PersonContext } from '../context.ts';
import { parseUserAgent } from '../devices/user-agent.ts';
import { AppError } from '../errors.ts';
import type { SessionParts } from './session-parts.ts';

/** The user's live sessions, most recently used first, `current` marking the asking one. */
export async function listDevices({ repo, now }: SessionParts, ctx: PersonContext): Promise<SessionDevice[]> {
  const { user, session } = ctx.auth;
  return (await repo.liveSessionsOfUser(user.id, now())).map((row) => ({
    id: row.publicId,
    ...parseUserAgent(row.userAgent),
    ip: row.ip,
    createdAt: new Date(row.createdAt).toISOString(),
    lastUsedAt: new Date(row.lastUsedAt).toISOString(),
    current: row.id === session.id,
  }));
}

/**
 * Signs one of the user's own sessions out by its public id. Another person's id, an ended
 * session and an unknown id are all 404: the answer says nothing about other accounts.
 */
export async function revokeDevice(
  { repo, ending }: SessionParts,
  ctx: PersonContext,
  { id }: { id: string },
): Promise<void> {
  if ((await ending(() => repo.deleteSessionByPublicId(ctx.auth.user.id, id))) === 0) {
    throw new AppError('NOT_FOUND', 'This device is not signed in to your account.');
  }
}
