import type { EventBus } from '../../realtime/bus.ts';
import type { SiteOrigin } from '../../site-origin.ts';
import type { LedgerService } from '../ledger/ledger.ts';
import type { AffiliatesRepository } from './repository.ts';

/** What every verb of the affiliates service (affiliates.ts wires them) is made from. */
export interface AffiliatesDeps {
  repo: AffiliatesRepository;
  ledger: LedgerService;
  /** The referral link is absolute, from the configured origin. */
  siteOrigin: SiteOrigin;
  /** Tells the notifications subscriber what each affiliate earned, after the release's commit. */
  bus: EventBus;
  now: () => number;
}
