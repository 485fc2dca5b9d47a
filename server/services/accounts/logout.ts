import type { PersonContext } from '../context.ts';
import type { AccountsDeps } from './types.ts';

/** Ends the session the person signed in with. */
export async function logout({ sessions }: AccountsDeps, ctx: PersonContext): Promise<void> {
  await sessions.invalidate(ctx, { sessionId: ctx.auth.session.id });
}
