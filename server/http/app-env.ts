import type { AuthState } from '../services/context.ts';

/** What every Hono handler of the API may read: the session's person, and the raw socket's address. */
export interface AppEnv {
  /** `visitorCountry`: where the request comes from (server/http/visitor-country.ts). */
  Variables: { auth: AuthState | null; visitorCountry: string };
  Bindings: { incoming?: { socket?: { remoteAddress?: string } } };
}
