import { bindVerb, type PersonContext } from '../context.ts';
import { login } from './login.ts';
import { logout } from './logout.ts';
import { readCurrentUser, readVisitor } from './read-current-user.ts';
import { register } from './register.ts';
import { setUsername } from './set-username.ts';
import type { AccountsDeps } from './types.ts';
import { resendVerification, verifyEmail } from './verify-email.ts';

// Accounts: opening one, signing in and out, confirming the address, the one username change and
// the current user's answer. One verb per file; this wires them to their deps.

export { normalizeEmail, safeRedirect } from './fields.ts';
export type {
  AccountsDeps,
  ChallengeCheck,
  ChallengeFields,
  ClientInfo,
  LoginInput,
  RegisterInput,
  SignInSecondFactor,
  SiteLinks,
} from './types.ts';

/** The verbs with their deps bound: what callers see is `verb(ctx, input)`. */
export function createAccountsService(deps: AccountsDeps) {
  return {
    /** A visitor opens an account and is signed in to it. */
    register: bindVerb(deps, register),
    /** A visitor signs in with e-mail, password and, when the account asks, a second-factor code. */
    login: bindVerb(deps, login),
    /** Ends the session the person signed in with. */
    logout: (ctx: PersonContext): Promise<void> => logout(deps, ctx),
    /** Confirms the address behind a link; a used, expired or unknown link changes nothing. */
    verifyEmail: bindVerb(deps, verifyEmail),
    resendVerification: (ctx: PersonContext) => resendVerification(deps, ctx),
    setUsername: bindVerb(deps, setUsername),
    /** The signed-in person as spec section 3 shows them; `profile` came with the session. */
    currentUser: bindVerb(deps, readCurrentUser),
    /** What a visitor's current user says: not signed in, and their country and currency. */
    visitor: bindVerb(deps, readVisitor),
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
