import type { PersonContext } from '../context.ts';
import type { AccountsDeps } from './types.ts';

/** Ends the session the person signed in with. */
export function logout({ sessions }: AccountsDeps, ctx: PersonContext): void {
  sessions.invalidate(ctx, { sessionId: ctx.auth.session.id });
}
