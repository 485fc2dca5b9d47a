import type { DatabaseLike } from '../../db/database.ts';
import { ban, endSessions, reinstate, resetTwoFactor, setRole, suspend } from './user-access.ts';
import { createUser } from './user-create.ts';
import { createUserCommandParts } from './user-parts.ts';
import { verifyAddress, verifyEmail, verifyId } from './user-verify.ts';

// Operator commands on accounts (`npm run admin -- user:…`). They change the database directly,
// through the same rules and repositories the API uses, and say in one line what they did.
// They run in another process than the server: the sessions they end reach the server's sockets
// through the end log it polls (server/realtime/session-ends.ts), within about a second.
// One group of commands per file; this binds them to the shared parts (user-parts.ts). Each
// command that changes an account writes a row of the operators' audit log naming the
// operating-system user; the account actions are the console's own (services/operators/).

export { CommandError, ROLE_FLAGS, ROLES } from './user-parts.ts';

export function userCommands(db: DatabaseLike, now: () => number = Date.now) {
  const parts = createUserCommandParts(db, now);
  return {
    create: (email: string, password: string, username?: string): Promise<string> =>
      createUser(parts, email, password, username),
    verifyEmail: (email: string): Promise<string> => verifyEmail(parts, email),
    /** The identity counts as verified (spec section 3 `isIdVerified`): the operator's way around review. */
    verifyId: (email: string, fullName?: string): Promise<string> => verifyId(parts, email, fullName),
    /** The address counts as verified (`isAddressVerified`, verification level 4), as verifyId. */
    verifyAddress: (email: string, reason?: string): Promise<string> => verifyAddress(parts, email, reason),
    /** A privilege change ends the sessions: the next sign-in carries the new rights. */
    role: (email: string, role: string, state = 'on'): Promise<string> => setRole(parts, email, role, state),
    ban: (email: string, reason?: string): Promise<string> => ban(parts, email, reason),
    /** The sessions end; the person may sign in again, read and finish open trades, but start none. */
    suspend: (email: string, reason?: string): Promise<string> => suspend(parts, email, reason),
    reinstate: (email: string, reason?: string): Promise<string> => reinstate(parts, email, reason),
    /** Removes the second factor of a person who lost it (identity established) and ends every session. */
    resetTwoFactor: (email: string, reason?: string): Promise<string> => resetTwoFactor(parts, email, reason),
    /** Every session of the person ends; the account stays as it is. */
    endSessions: (email: string, reason?: string): Promise<string> => endSessions(parts, email, reason),
  };
}
