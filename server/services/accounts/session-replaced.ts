import type { SharedStore } from '../../shared-store.ts';
import type { ServiceContext } from '../context.ts';
import { sessionIdOf } from './session-tokens.ts';

// A browser whose session is replaced (vendor terms, second factor on or off, a new password) gets
// the new cookie with that answer, but requests it sent just before may still be on their way
// with the old one. Their answers must not clear the cookie (server/http/auth.ts), or a late one
// signs the person out. The old session is worth nothing all the same: it is deleted; only the
// fact that it was replaced is remembered, for a minute, in the shared store so every process
// knows it.

const REMEMBER_MS = 60_000;
const keyOf = (sessionId: string) => `session-replaced:${sessionId}`;

export function createReplacedSessions(store: SharedStore | undefined) {
  return {
    /** Called before a new session is made for `ctx`: a signed-in browser's old one is being replaced. */
    async remember(ctx: ServiceContext): Promise<void> {
      if (!store || !ctx.auth) return;
      await store.set(keyOf(ctx.auth.session.id), '1', REMEMBER_MS);
    },
    /** Whether this (no longer valid) cookie's session was replaced a moment ago. */
    async wasReplaced(token: string): Promise<boolean> {
      return store !== undefined && (await store.get(keyOf(sessionIdOf(token)))) !== undefined;
    },
  };
}

export type ReplacedSessions = ReturnType<typeof createReplacedSessions>;
