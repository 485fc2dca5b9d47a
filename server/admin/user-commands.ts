import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { users } from '../../db/schema/index.ts';
import { isValidEmail } from '../../src/lib/shared/input-patterns.ts';
import { failedPasswordChecks } from '../../src/lib/shared/password-policy.ts';
import { normalizeEmail } from '../services/accounts/accounts.ts';
import { hashPassword, isCompromisedPassword } from '../services/accounts/password.ts';
import { createAccountsRepository } from '../services/accounts/repository.ts';
import { createSessionService } from '../services/accounts/sessions.ts';
import { immediate, systemContext } from '../services/context.ts';
import { createTwoFactorRepository } from '../services/two-factor/repository.ts';

// Operator commands on accounts (`npm run admin -- user:…`). They change the database directly,
// through the same rules and repositories the API uses, and say in one line what they did.
// They run in another process than the server: the sessions they end reach the server's sockets
// through the end log it polls (server/realtime/session-ends.ts), within about a second.

export class CommandError extends Error {}

export const ROLE_FLAGS = {
  vendor: 'isVendor',
  affiliate: 'isAffiliate',
  merchant: 'isMerchant',
  kiosk: 'isKiosk',
} as const;
const STAFF_ROLES = ['moderator', 'admin'] as const;
export const ROLES = [...Object.keys(ROLE_FLAGS), ...STAFF_ROLES] as const;

export function userCommands(db: Db, now: () => number = Date.now) {
  const repo = createAccountsRepository(db);
  const sessions = createSessionService({ repo, now });
  // Who acts in the audit's terms: the operator at the console.
  const operator = systemContext('admin', 'operator');
  const twoFactor = createTwoFactorRepository(db);

  const find = (email: string) => {
    const user = repo.userByEmail(normalizeEmail(email));
    if (!user) throw new CommandError(`No account with the e-mail address ${email}.`);
    return user;
  };
  const update = (id: number, values: Partial<typeof users.$inferInsert>) =>
    db.update(users).set(values).where(eq(users.id, id)).run();

  return {
    async create(email: string, password: string, username?: string): Promise<string> {
      const address = normalizeEmail(email);
      if (!isValidEmail(address)) throw new CommandError(`Not a valid e-mail address: ${email}`);
      if (repo.userByEmail(address)) throw new CommandError(`An account with ${address} exists already.`);
      const failed = failedPasswordChecks(password);
      if (failed.length > 0) throw new CommandError(`The password needs: ${failed.join(', ')}.`);
      if (isCompromisedPassword(password)) throw new CommandError('That password is on leaked-password lists.');
      const name = username ?? `${address.split('@')[0]?.replace(/[^A-Za-z0-9]/g, '') || 'user'}${now() % 10000}`;
      if (repo.usernameTaken(name)) throw new CommandError(`The username ${name} is taken.`);
      const at = now();
      repo.insertUser({
        publicId: newId('usr'),
        username: name,
        email: address,
        passwordHash: await hashPassword(password),
        referralCode: newId('usr').slice(4, 14).toLowerCase(),
        isEmailVerified: true,
        lastSeenAt: at,
        createdAt: at,
      });
      return `Created ${address} (username ${name}, e-mail verified).`;
    },

    verifyEmail(email: string): string {
      const user = find(email);
      repo.markEmailVerified(user.id);
      return `${user.email}: e-mail marked verified.`;
    },

    /**
     * The identity counts as verified (spec section 3 `isIdVerified`): converting bitcoin, selling
     * to offers that ask for it, the gray-country rule, verification level 3. Moderators approve
     * documents in the review queue; this is the operator's way around it (identity checked elsewhere).
     */
    verifyId(email: string): string {
      const user = find(email);
      update(user.id, { idVerifiedAt: now() });
      return `${user.email}: identity marked verified.`;
    },

    /** The address counts as verified (`isAddressVerified`, verification level 4), as verifyId. */
    verifyAddress(email: string): string {
      const user = find(email);
      update(user.id, { addressVerifiedAt: now() });
      return `${user.email}: address marked verified.`;
    },

    role(email: string, role: string, state = 'on'): string {
      if (state !== 'on' && state !== 'off') throw new CommandError('The last argument must be on or off.');
      const user = find(email);
      const on = state === 'on';
      if (role in ROLE_FLAGS) {
        update(user.id, { [ROLE_FLAGS[role as keyof typeof ROLE_FLAGS]]: on });
      } else if ((STAFF_ROLES as readonly string[]).includes(role)) {
        update(user.id, { role: on ? (role as 'moderator' | 'admin') : 'user' });
      } else {
        throw new CommandError(`Unknown role ${role}; one of: ${ROLES.join(', ')}.`);
      }
      // A privilege change ends the sessions: the next sign-in carries the new rights (no fixation).
      const ended = sessions.invalidateAll(operator, { userId: user.id });
      return `${user.email}: ${role} ${state}; ${ended} session(s) ended.`;
    },

    ban(email: string): string {
      const user = find(email);
      // One transaction: no moment where the account is banned and a session still works.
      const ended = immediate(db, () => {
        update(user.id, { status: 'banned' });
        return sessions.invalidateAll(operator, { userId: user.id });
      });
      return `${user.email}: banned; ${ended} session(s) ended.`;
    },

    /**
     * A restriction like a privilege change: the sessions end, so no open page or socket keeps
     * what the account had. The person may sign in again and then has what a suspended account
     * may do: read, and finish the trades already open, but start none and send nothing out.
     */
    suspend(email: string): string {
      const user = find(email);
      const ended = immediate(db, () => {
        update(user.id, { status: 'suspended' });
        return sessions.invalidateAll(operator, { userId: user.id });
      });
      return `${user.email}: suspended (can sign in, cannot trade); ${ended} session(s) ended.`;
    },

    reinstate(email: string): string {
      const user = find(email);
      update(user.id, { status: 'active' });
      return `${user.email}: active again.`;
    },

    /**
     * For a person who lost both the authenticator and the recovery codes, once support has
     * established who they are: the second factor goes (the account is as if never set up) and
     * every session ends, so whoever holds one must sign in again with the password.
     */
    resetTwoFactor(email: string): string {
      const user = find(email);
      if (!twoFactor.remove(user.id)) return `${user.email}: no two-factor authentication to remove; nothing changed.`;
      const ended = sessions.invalidateAll(operator, { userId: user.id });
      return `${user.email}: two-factor authentication removed; ${ended} session(s) ended.`;
    },
  };
}
