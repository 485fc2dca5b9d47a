import { bindVerb } from '../context.ts';
import { changePassword } from './change.ts';
import { inspectReset } from './inspect-reset.ts';
import { requestReset } from './request-reset.ts';
import { resetPassword } from './reset.ts';
import type { PasswordsDeps } from './types.ts';

// Changing a password while signed in, and resetting a forgotten one through a mailed link
// (docs/decisions/028-password-change-and-reset.md, "Password change and reset"). Both are privilege changes: every session of
// the account ends. The reset link is the credential, so only its SHA-256 is stored, it works once
// and for an hour, and asking for one never tells whether an address has an account.
// One verb per file; this wires them to their deps.

export {
  MAX_RESET_MAILS_PER_ACCOUNT,
  MAX_RESET_REQUESTS_PER_IP,
  RESET_REDIRECT,
  RESET_TOKEN_TTL_MS,
  RESET_WINDOW_MS,
} from './limits.ts';
export { maskEmail } from './reset-link.ts';
export type { ChangePasswordInput, ForgotPasswordInput, PasswordsDeps, ResetPasswordInput } from './types.ts';

/** The verbs with their deps bound: what callers see is `verb(ctx, input)`. */
export function createPasswordService(deps: PasswordsDeps) {
  return {
    /** Proves the current password (and the second factor); answers this browser's new session. */
    change: bindVerb(deps, changePassword),
    /** "Forgot password": the same answer and work for any address. */
    requestReset: bindVerb(deps, requestReset),
    /** What the reset page shows before the person types. */
    inspectReset: bindVerb(deps, inspectReset),
    /** Sets a new password through a live link; every session ends. */
    reset: bindVerb(deps, resetPassword),
  };
}

export type PasswordService = ReturnType<typeof createPasswordService>;
