import type { DatabaseLike } from '../../../db/database.ts';
import type { SessionService } from '../accounts/sessions.ts';
import type { ChainService } from '../chain/chain.ts';
import type { NotificationsService } from '../notifications/notifications.ts';
import { createTwoFactorRepository } from '../two-factor/repository.ts';
import type { TwoFactorService } from '../two-factor/two-factor.ts';
import type { VerificationService } from '../verification/verification.ts';
import { createAuditLog } from './audit.ts';
import { createOperatorsService } from './operators.ts';
import { createPeopleRepository } from './people-repository.ts';

/** The operators' service over the services it acts through (server/services/container.ts). */
export function createOperators(parts: {
  db: DatabaseLike;
  now: () => number;
  sessions: SessionService;
  twoFactor: TwoFactorService;
  verification: VerificationService;
  chain: ChainService;
  notifications: NotificationsService;
}) {
  const { db, now, sessions, notifications } = parts;
  const audit = createAuditLog(db, now);
  const twoFactorRepo = createTwoFactorRepository(db);
  return createOperatorsService({
    ...parts,
    audit,
    people: createPeopleRepository(db),
    actions: {
      db,
      now,
      audit,
      endSessions: (ctx, userId) => sessions.invalidateAll(ctx, { userId }),
      removeTwoFactor: (userId) => twoFactorRepo.remove(userId),
      notify: (ctx, input) => notifications.notify(ctx, input),
    },
  });
}
