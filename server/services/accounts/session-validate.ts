import type { SessionRow, UserProfileRow, UserRow } from '../shared/account-types.ts';
import type { SessionParts } from './session-parts.ts';
import { LAST_USED_PRECISION_MS, RENEW_WHEN_LEFT_MS, SESSION_LIFETIME_MS, sessionIdOf } from './session-tokens.ts';

export interface ValidSession {
  session: SessionRow;
  user: UserRow;
  profile: UserProfileRow;
  /** True when this request extended the expiry: the cookie must be sent again. */
  renewed: boolean;
}

/** The auth middleware's lookup of a cookie (infrastructure: no context, the token is the input). */
export async function validateSession(
  { repo, now, ending }: SessionParts,
  token: string,
): Promise<ValidSession | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  // One read (one joined statement) in the common case; a write only when the session expired, is renewed or its
  // "last used" is out of date (at most once per LAST_USED_PRECISION_MS).
  const found = await repo.sessionWithUser(sessionIdOf(token));
  if (!found) return null;
  const at = now();
  if (found.session.expiresAt <= at) {
    await ending(() => repo.deleteSession(found.session.id));
    return null;
  }
  const renewed = found.session.expiresAt - at < RENEW_WHEN_LEFT_MS;
  if (renewed || at - found.session.lastUsedAt >= LAST_USED_PRECISION_MS) {
    if (renewed) found.session.expiresAt = at + SESSION_LIFETIME_MS;
    found.session.lastUsedAt = at;
    await repo.touchSession(found.session.id, at, found.session.expiresAt);
  }
  return { ...found, renewed };
}
