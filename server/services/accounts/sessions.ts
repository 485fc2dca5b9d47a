import { createHash, randomBytes } from 'node:crypto';
import type { AccountsRepository, SessionRow, UserProfileRow, UserRow } from './repository.ts';

// Sessions as in Lucia's guide: a 256-bit random token lives only in the browser's HttpOnly
// cookie; the database keeps its SHA-256. Expiry slides: a session used in its second half is
// extended, so active people stay signed in and abandoned sessions die.

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
const RENEW_WHEN_LEFT_MS = SESSION_LIFETIME_MS / 2;

export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export interface ValidSession {
  session: SessionRow;
  user: UserRow;
  profile: UserProfileRow;
  /** True when this request extended the expiry: the cookie must be sent again. */
  renewed: boolean;
}

export function createSessionService({ repo, now }: { repo: AccountsRepository; now: () => number }) {
  return {
    /** A brand-new session (and token): called at every sign-in and privilege change. */
    create(userId: number, client: { ip: string; userAgent: string }): { token: string; session: SessionRow } {
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
      };
      repo.insertSession(session);
      return { token, session };
    },

    validate(token: string): ValidSession | null {
      if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
      const found = repo.sessionWithUser(sessionIdOf(token));
      if (!found) return null;
      const at = now();
      if (found.session.expiresAt <= at) {
        repo.deleteSession(found.session.id);
        return null;
      }
      let renewed = false;
      if (found.session.expiresAt - at < RENEW_WHEN_LEFT_MS) {
        found.session.expiresAt = at + SESSION_LIFETIME_MS;
        repo.extendSession(found.session.id, found.session.expiresAt);
        renewed = true;
      }
      return { ...found, renewed };
    },

    invalidate(sessionId: string): void {
      repo.deleteSession(sessionId);
    },

    /** Deletes sessions past their expiry; returns how many. */
    purgeExpired(): number {
      return repo.deleteExpiredSessions(now());
    },

    /** Ends every session of the user (password change, ban, reported device). */
    invalidateAll(userId: number): number {
      return repo.deleteUserSessions(userId);
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
