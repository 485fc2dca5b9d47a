import type { EventBus } from '../../realtime/bus.ts';
import type { LedgerService } from '../ledger/ledger.ts';
import type { OffersService } from '../offers/offers.ts';
import type { TwoFactorService } from '../two-factor/two-factor.ts';
import type { TradeAccess } from './access.ts';
import type { TradesRepository } from './repository.ts';
import type { TradeTransition } from './transition.ts';

/** What every verb of the trades service (trades.ts wires them) is made from. */
export interface TradesDeps {
  repo: TradesRepository;
  offers: OffersService;
  ledger: LedgerService;
  twoFactor: TwoFactorService;
  bus: EventBus;
  now: () => number;
  /** How long after marking paid a dispute may be opened. */
  disputeWaitMs: number;
  /** Trading limits of the verification levels: throws when a trade this size would exceed one. */
  checkTradingLimit?: (userId: number, usdCents: number) => Promise<void> | void;
}

/** What every verb is given: the deps, who may read a trade, and the transition. */
export interface TradesParts extends TradesDeps, TradeAccess, TradeTransition {}
