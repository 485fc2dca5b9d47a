import type { AuthState } from '../services/context.ts';

/** What every Hono handler of the API may read: the session's person, and the raw socket's address. */
export interface AppEnv {
  /**
   * `visitorCountry`: where the request comes from (server/http/visitor-country.ts). `rawBody`:
   * the body as received, before normalisation (server/http/request-body.ts), which an API key's
   * signature covers (server/http/api-key-auth.ts).
   */
  Variables: { auth: AuthState | null; visitorCountry: string; rawBody?: string };
  Bindings: { incoming?: { socket?: { remoteAddress?: string } } };
}
