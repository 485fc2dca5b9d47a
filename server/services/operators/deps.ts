import type { DatabaseLike } from '../../../db/database.ts';
import type { ChainService } from '../chain/chain.ts';
import type { TwoFactorService } from '../two-factor/two-factor.ts';
import type { VerificationService } from '../verification/verification.ts';
import type { AccountActionDeps } from './account-actions.ts';
import type { AuditLog } from './audit.ts';
import type { PeopleRepository } from './people-repository.ts';

/** What every verb of the operators' service (operators.ts wires them) is made from. */
export interface OperatorsDeps {
  db: DatabaseLike;
  now: () => number;
  audit: AuditLog;
  people: PeopleRepository;
  /** The account actions, shared with the admin CLI (account-actions.ts). */
  actions: AccountActionDeps;
  twoFactor: TwoFactorService;
  verification: VerificationService;
  chain: ChainService;
}
