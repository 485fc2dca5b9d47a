import { eq } from 'drizzle-orm';
import { asDatabase, type DatabaseLike } from '../../db/database.ts';
import { users } from '../../db/schema/index.ts';
import { normalizeEmail } from '../services/accounts/accounts.ts';
import { createAccountsRepository } from '../services/accounts/repository.ts';
import { createSessionService } from '../services/accounts/sessions.ts';
import { systemContext } from '../services/context.ts';
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

export function createUserCommandParts(db: DatabaseLike, now: () => number) {
  const database = asDatabase(db);
  const repo = createAccountsRepository(database);
  return {
    db: database,
    now,
    repo,
    sessions: createSessionService({ repo, now }),
    // Who acts in the audit's terms: the operator at the console.
    operator: systemContext('admin', 'operator'),
    twoFactor: createTwoFactorRepository(database),
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
