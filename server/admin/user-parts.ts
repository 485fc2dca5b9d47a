import { eq } from 'drizzle-orm';
import { access } from '../../db/access.ts';
import type { Db } from '../../db/client.ts';
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
  merchant: 'isMerchant',
  kiosk: 'isKiosk',
} as const;
export const STAFF_ROLES = ['moderator', 'admin'] as const;
export const ROLES = [...Object.keys(ROLE_FLAGS), ...STAFF_ROLES] as const;

export function createUserCommandParts(db: Db, now: () => number) {
  const repo = createAccountsRepository(db);
  return {
    db,
    now,
    repo,
    sessions: createSessionService({ repo, now }),
    // Who acts in the audit's terms: the operator at the console.
    operator: systemContext('admin', 'operator'),
    twoFactor: createTwoFactorRepository(db),
    find: async (email: string) => {
      const user = await repo.userByEmail(normalizeEmail(email));
      if (!user) throw new CommandError(`No account with the e-mail address ${email}.`);
      return user;
    },
    update: (id: number, values: Partial<typeof users.$inferInsert>) =>
      access(db, () => db.update(users).set(values).where(eq(users.id, id)).run()),
  };
}

export type UserCommandParts = ReturnType<typeof createUserCommandParts>;
