// The sessions API's answer shape: the contract between server/services/accounts/sessions.ts, which
// builds it, and the settings page's device list (src/components/settings/DevicesSection.tsx).

/**
 * GET /rest/v1/users/sessions, one per signed-in browser. `id` is the session's public id
 * (`ses_…`), random and unrelated to the token, so listing it gives nothing away.
 */
export interface SessionDevice {
  id: string;
  browser: string | null;
  version: string | null;
  os: string | null;
  /** The address the session signed in from. */
  ip: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601, to LAST_USED_PRECISION_MS (server/services/accounts/sessions.ts). */
  lastUsedAt: string;
  /** The session of the request that asked. */
  current: boolean;
}
