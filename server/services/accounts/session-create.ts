import { newId } from '../../../db/ids.ts';
import type { ServiceContext } from '../context.ts';
import type { ClientInfo, SessionRow } from '../shared/account-types.ts';
import type { SessionParts } from './session-parts.ts';
import { newToken, SESSION_LIFETIME_MS, sessionIdOf } from './session-tokens.ts';

/**
 * A brand-new session (and token): called at every sign-in and privilege change. A signed-in
 * `ctx` is a browser whose session this one replaces (session-replaced.ts).
 */
export async function createSession(
  { repo, now, replaced }: SessionParts,
  ctx: ServiceContext,
  { userId, client }: { userId: number; client: ClientInfo },
): Promise<{ token: string; session: SessionRow }> {
  await replaced.remember(ctx);
  const token = newToken();
  const at = now();
  const session: SessionRow = {
    id: sessionIdOf(token),
    userId,
    csrfToken: newToken(),
    createdAt: at,
    expiresAt: at + SESSION_LIFETIME_MS,
    ip: client.ip,
    userAgent: client.userAgent.slice(0, 512),
    publicId: newId('ses'),
    lastUsedAt: at,
  };
  await repo.insertSession(session);
  return { token, session };
}
