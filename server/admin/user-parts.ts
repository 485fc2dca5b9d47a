import { userInfo } from 'node:os';
import { eq } from 'drizzle-orm';
import { asDatabase, type DatabaseLike } from '../../db/database.ts';
import { users } from '../../db/schema/index.ts';
import { createInProcessBus } from '../realtime/bus.ts';
import { normalizeEmail } from '../services/accounts/accounts.ts';
import { createAccountsRepository } from '../services/accounts/repository.ts';
import { createSessionService } from '../services/accounts/sessions.ts';
import { systemContext } from '../services/context.ts';
import { createNotificationsService } from '../services/notifications/notifications.ts';
import { createNotificationsRepository } from '../services/notifications/repository.ts';
import type { AccountActionDeps } from '../services/operators/account-actions.ts';
import { type AuditActor, createAuditLog } from '../services/operators/audit.ts';
import { createTwoFactorRepository } from '../services/two-factor/repository.ts';

// What the user commands (user-commands.ts) share: the repositories, the operator, and the lookup.

export class CommandError extends Error {}

export const ROLE_FLAGS = {
  vendor: 'isVendor',
  affiliate: 'isAffiliate',
  // An affiliate who also earns on their referrals' sales (docs/decisions/114-affiliate-shares.md).
  'affiliate-sell-side': 'isAffiliatePayForSellSide',
  merchant: 'isMerchant',
  kiosk: 'isKiosk',
} as const;
export const STAFF_ROLES = ['moderator', 'admin'] as const;
export const ROLES = [...Object.keys(ROLE_FLAGS), ...STAFF_ROLES] as const;

/**
 * Who the operators' audit log names for a command: the operating-system user who ran it
 * (docs/decisions/150-operator-console-access.md); `unknown` where the system names none.
 */
export function cliActor(): AuditActor {
  let name = 'unknown';
  try {
    name = userInfo().username || name;
  } catch {
    // No passwd entry for this uid (a bare container): the row still says it came from the CLI.
  }
  return { type: 'cli', name };
}

export function createUserCommandParts(db: DatabaseLike, now: () => number) {
  const database = asDatabase(db);
  const repo = createAccountsRepository(database);
  const sessions = createSessionService({ repo, now });
  const twoFactor = createTwoFactorRepository(database);
  const audit = createAuditLog(database, now);
  // The notice reaches the person's list; a server's open pages see it at their next read (this
  // process has no sockets, and its bus reaches none).
  const notifications = createNotificationsService({
    repo: createNotificationsRepository(database),
    bus: createInProcessBus(),
    now,
  });
  const actions: AccountActionDeps = {
    db: database,
    now,
    audit,
    endSessions: (ctx, userId) => sessions.invalidateAll(ctx, { userId }),
    removeTwoFactor: (userId) => twoFactor.remove(userId),
    notify: (ctx, input) => notifications.notify(ctx, input),
  };
  return {
    db: database,
    now,
    repo,
    sessions,
    // Who acts in the audit's terms: the operator at the console.
    operator: systemContext('admin', 'operator'),
    /** The operators' audit log, and the row's actor: the command line's user. */
    audit,
    actor: cliActor(),
    /** The account actions the console's API runs too (server/services/operators/account-actions.ts). */
    actions,
    twoFactor,
    find: async (email: string) => {
      const user = await repo.userByEmail(normalizeEmail(email));
      if (!user) throw new CommandError(`No account with the e-mail address ${email}.`);
      return user;
    },
    update: (id: number, values: Partial<typeof users.$inferInsert>) =>
      database.run(database.orm.update(users).set(values).where(eq(users.id, id))),
  };
}

export type UserCommandParts = ReturnType<typeof createUserCommandParts>;
