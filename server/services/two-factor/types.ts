import type { DatabaseLike } from '../../../db/database.ts';
import type { CodeThrottle } from '../shared/account-types.ts';
import type { TwoFactorRepository } from './repository.ts';

// The shapes the two-factor verbs share.

export type TwoFactorPurpose = 'login' | 'sendout' | 'release';
/** Spec section 3, "Check results": `disabled` = no second factor is required for this purpose. */
export type TwoFactorCheck = 'passed' | 'failed' | 'disabled';
export interface TwoFactorDeps {
  db: DatabaseLike;
  now: () => number;
  /** The sign-in limits: wrong codes have their own count per account (server/services/accounts/throttle.ts). */
  throttle: CodeThrottle;
}

/** What every verb is given: the deps and the area's statements. */
export interface TwoFactorParts extends TwoFactorDeps {
  repo: TwoFactorRepository;
}
