import { bindVerb, immediate, type PersonContext, type ServiceContext } from '../context.ts';
import type { ClientInfo, SessionRow } from '../shared/account-types.ts';
import { createSession } from './session-create.ts';
import { listDevices, revokeDevice } from './session-devices.ts';
import type { EndedSession } from './session-end-log.ts';
import { type SessionDeps, sessionParts } from './session-parts.ts';
import { validateSession } from './session-validate.ts';

// Sessions as in Lucia's guide: a 256-bit random token lives only in the browser's HttpOnly
// cookie; the database keeps its SHA-256. Expiry slides: a session used in its second half is
// extended, so active people stay signed in and abandoned sessions die.
//
// Every end of a session goes through this service (logout, password change and reset, second
// factor changes, privilege changes, ban and suspension, "end other sessions", a device signed out
// from the list or reported): the trigger on `sessions` logs it durably, and `ending` announces it
// on the bus, so the realtime hub cuts the sockets it authorised on every process
// (server/realtime/session-ends.ts). One verb per file (session-*.ts); this wires them.

export type { SessionDeps } from './session-parts.ts';
export {
  LAST_USED_PRECISION_MS,
  newToken,
  SESSION_LIFETIME_MS,
  sessionIdOf,
} from './session-tokens.ts';
export type { ValidSession } from './session-validate.ts';

/** The verbs with their deps bound: what callers see is `verb(ctx, input)`. */
export function createSessionService(deps: SessionDeps) {
  const parts = sessionParts(deps);
  const { repo, now, ends, ending } = parts;
  return {
    /** A brand-new session (and token): called at every sign-in and privilege change. */
    create: bindVerb(parts, createSession),
    /** The auth middleware's lookup of a cookie (infrastructure: no context, the token is the input). */
    validate: (token: string) => validateSession(parts, token),
    /** Whether a cookie that no longer validates belonged to a session replaced a moment ago (auth.ts). */
    wasReplaced: (token: string) => parts.replaced.wasReplaced(token),

    /** Ends one session by its id (the token's hash): logout, a privilege change of this browser. */
    async invalidate(_ctx: ServiceContext, { sessionId }: { sessionId: string }): Promise<void> {
      await ending(() => repo.deleteSession(sessionId));
    },
    /** Ends these sessions (ids are the tokens' hashes): a reported device's; returns how many. */
    invalidateMany: (_ctx: ServiceContext, { sessionIds }: { sessionIds: readonly string[] }): Promise<number> =>
      ending(() => ends.deleteSessions(sessionIds)),
    /** Deletes sessions past their expiry, and old entries of the end log; returns how many sessions. */
    async purgeExpired(_ctx: ServiceContext): Promise<number> {
      await ends.prune();
      return ending(() => repo.deleteExpiredSessions(now()));
    },
    /** Ends every session of the user (password change, ban, suspension, role change). */
    invalidateAll: (_ctx: ServiceContext, { userId }: { userId: number }): Promise<number> =>
      ending(() => repo.deleteUserSessions(userId)),
    /**
     * Ends every session of the user, the asking one included, and answers this browser's new
     * one (a privilege change: second factor on or off), in one transaction.
     */
    rotate: (ctx: PersonContext, { client }: { client: ClientInfo }): Promise<{ token: string; session: SessionRow }> =>
      immediate(repo.db, async () => {
        await ending(() => repo.deleteUserSessions(ctx.auth.user.id));
        return createSession(parts, ctx, { userId: ctx.auth.user.id, client });
      }),

    /**
     * Whether a session (by public id) is still signed in: a push key of an ended one grants
     * nothing. Infrastructure of the realtime hub, like `validate` and the end log's position below.
     */
    isLive: (sessionPublicId: string): Promise<boolean> => ends.isLive(sessionPublicId, now()),
    /** The end log's position, and the ends after one (server/realtime/session-ends.ts polls them). */
    lastEndSeq: (): Promise<number> => ends.lastSeq(),
    endedSince: (seq: number): Promise<EndedSession[]> => ends.since(seq),

    /** The user's live sessions, most recently used first, `current` marking the asking one. */
    listDevices: (ctx: PersonContext) => listDevices(parts, ctx),
    /** Signs one of the user's own sessions out by its public id; 404 for anything else. */
    revokeDevice: bindVerb(parts, revokeDevice),
    /** Ends every session of the person except the one that asks; returns how many ended. */
    invalidateOthers: (ctx: PersonContext): Promise<number> =>
      ending(() => repo.deleteOtherSessions(ctx.auth.user.id, ctx.auth.session.id)),
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
