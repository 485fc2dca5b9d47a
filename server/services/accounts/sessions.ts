import { hash, randomBytes } from 'node:crypto';
import { newId } from '../../../db/ids.ts';
import type { SessionDevice } from '../../../src/lib/shared/views/sessions.ts';
import type { EventBus } from '../../realtime/bus.ts';
import { SESSIONS_CHANNEL, sessionEndedEvent } from '../../realtime/session-ends.ts';
import type { PersonContext, ServiceContext } from '../context.ts';
import { parseUserAgent } from '../devices/user-agent.ts';
import { AppError } from '../errors.ts';
import type { ClientInfo, SessionRow, UserProfileRow, UserRow } from '../shared/account-types.ts';
import type { AccountsRepository } from './repository.ts';
import { createSessionEndLog, type EndedSession } from './session-end-log.ts';

// Sessions as in Lucia's guide: a 256-bit random token lives only in the browser's HttpOnly
// cookie; the database keeps its SHA-256. Expiry slides: a session used in its second half is
// extended, so active people stay signed in and abandoned sessions die.
//
// Every end of a session goes through this service (logout, password change and reset, second
// factor changes, privilege changes, ban and suspension, "end other sessions", a device signed out
// from the list or reported): the trigger on `sessions` logs it durably, and `ending` announces it
// on the bus, so the realtime hub cuts the sockets it authorised on every process
// (server/realtime/session-ends.ts).

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
const RENEW_WHEN_LEFT_MS = SESSION_LIFETIME_MS / 2;
/** "Last used" is this precise: a session in steady use costs one write per interval, not per request. */
export const LAST_USED_PRECISION_MS = 5 * 60 * 1000;

export function sessionIdOf(token: string): string {
  // One-shot: a third of createHash's cost, on every signed-in request.
  return hash('sha256', token);
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

export function createSessionService({
  repo,
  now,
  bus,
}: {
  repo: AccountsRepository;
  now: () => number;
  /** Where ends are announced; without one (the admin CLI) other processes find them by polling. */
  bus?: EventBus;
}) {
  const ends = createSessionEndLog(repo.db);

  /** What the log recorded after `from`, published once the caller's transaction committed. */
  const announce = (from: number) => {
    if (!bus) return;
    const publish = () => {
      for (let seq = from; ; ) {
        const ended: EndedSession[] = ends.since(seq);
        const last = ended.at(-1);
        if (!last) return;
        bus.publish(SESSIONS_CHANNEL, sessionEndedEvent(ended));
        seq = last.seq;
      }
    };
    // Inside a caller's transaction the log rows exist only if it commits: read them afterwards
    // (transactions are synchronous, so a microtask runs after the commit or the rollback).
    if (repo.db.$client.inTransaction) queueMicrotask(publish);
    else publish();
  };

  /** Runs a delete from `sessions` and announces the sessions it ended. */
  const ending = <T>(remove: () => T): T => {
    const from = ends.lastSeq();
    const result = remove();
    announce(from);
    return result;
  };

  return {
    /** A brand-new session (and token): called at every sign-in and privilege change. */
    create(
      _ctx: ServiceContext,
      { userId, client }: { userId: number; client: ClientInfo },
    ): { token: string; session: SessionRow } {
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
      repo.insertSession(session);
      return { token, session };
    },

    /** The auth middleware's lookup of a cookie (infrastructure: no context, the token is the input). */
    validate(token: string): ValidSession | null {
      if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
      const found = repo.sessionWithUser(sessionIdOf(token));
      if (!found) return null;
      const at = now();
      if (found.session.expiresAt <= at) {
        ending(() => repo.deleteSession(found.session.id));
        return null;
      }
      const renewed = found.session.expiresAt - at < RENEW_WHEN_LEFT_MS;
      if (renewed || at - found.session.lastUsedAt >= LAST_USED_PRECISION_MS) {
        if (renewed) found.session.expiresAt = at + SESSION_LIFETIME_MS;
        found.session.lastUsedAt = at;
        repo.touchSession(found.session.id, at, found.session.expiresAt);
      }
      return { ...found, renewed };
    },

    /** Ends one session by its id (the token's hash): logout, a privilege change of this browser. */
    invalidate(_ctx: ServiceContext, { sessionId }: { sessionId: string }): void {
      ending(() => repo.deleteSession(sessionId));
    },

    /** Ends these sessions (ids are the tokens' hashes): a reported device's; returns how many. */
    invalidateMany(_ctx: ServiceContext, { sessionIds }: { sessionIds: readonly string[] }): number {
      return ending(() => ends.deleteSessions(sessionIds));
    },

    /** Deletes sessions past their expiry, and old entries of the end log; returns how many sessions. */
    purgeExpired(_ctx: ServiceContext): number {
      ends.prune();
      return ending(() => repo.deleteExpiredSessions(now()));
    },

    /** Ends every session of the user (password change, ban, suspension, role change). */
    invalidateAll(_ctx: ServiceContext, { userId }: { userId: number }): number {
      return ending(() => repo.deleteUserSessions(userId));
    },

    /**
     * Whether a session (by public id) is still signed in: a push key of an ended one grants
     * nothing. Infrastructure of the realtime hub, like `validate` and the end log's position below.
     */
    isLive(sessionPublicId: string): boolean {
      return ends.isLive(sessionPublicId, now());
    },

    /** The end log's position, and the ends after one (server/realtime/session-ends.ts polls them). */
    lastEndSeq: (): number => ends.lastSeq(),
    endedSince: (seq: number): EndedSession[] => ends.since(seq),

    /** The user's live sessions, most recently used first, `current` marking the asking one. */
    listDevices(ctx: PersonContext): SessionDevice[] {
      const { user, session } = ctx.auth;
      return repo.liveSessionsOfUser(user.id, now()).map((row) => ({
        id: row.publicId,
        ...parseUserAgent(row.userAgent),
        ip: row.ip,
        createdAt: new Date(row.createdAt).toISOString(),
        lastUsedAt: new Date(row.lastUsedAt).toISOString(),
        current: row.id === session.id,
      }));
    },

    /**
     * Signs one of the user's own sessions out by its public id. Another person's id, an ended
     * session and an unknown id are all 404: the answer says nothing about other accounts.
     */
    revokeDevice(ctx: PersonContext, { id }: { id: string }): void {
      if (ending(() => repo.deleteSessionByPublicId(ctx.auth.user.id, id)) === 0) {
        throw new AppError('NOT_FOUND', 'This device is not signed in to your account.');
      }
    },

    /** Ends every session of the person except the one that asks; returns how many ended. */
    invalidateOthers(ctx: PersonContext): number {
      return ending(() => repo.deleteOtherSessions(ctx.auth.user.id, ctx.auth.session.id));
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
