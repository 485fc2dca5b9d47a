import type { AuthState } from '../services/context.ts';

/** What every Hono handler of the API may read: the session's person, and the raw socket's address. */
export interface AppEnv {
  Variables: { auth: AuthState | null };
  Bindings: { incoming?: { socket?: { remoteAddress?: string } } };
}
