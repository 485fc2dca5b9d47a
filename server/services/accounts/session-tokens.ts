import { hash, randomBytes } from 'node:crypto';

// A session's token and how long it lives (sessions.ts says why).

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
export const RENEW_WHEN_LEFT_MS = SESSION_LIFETIME_MS / 2;
/** "Last used" is this precise: a session in steady use costs one write per interval, not per request. */
export const LAST_USED_PRECISION_MS = 5 * 60 * 1000;

export function sessionIdOf(token: string): string {
  // One-shot: a third of createHash's cost, on every signed-in request.
  return hash('sha256', token);
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}
