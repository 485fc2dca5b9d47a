import type { TradeStatus } from '../../../db/schema/index.ts';
import type { TradeBankAccountView } from '../../../src/lib/shared/views/bank-accounts.ts';
import type { EventBus } from '../../realtime/bus.ts';
import type { ReleasedTrade } from '../affiliates/earn.ts';
import type { ServiceContext } from '../context.ts';
import type { LedgerService } from '../ledger/ledger.ts';
import type { OffersService } from '../offers/offers.ts';
import type { TwoFactorService } from '../two-factor/two-factor.ts';
import type { WebhookRecorder } from '../webhooks/recorder.ts';
import type { TradeAccess } from './access.ts';
import type { DisputeDeadlines } from './dispute-clock.ts';
import type { TradeRow, TradesRepository } from './repository.ts';
import type { TradeAction } from './state-machine.ts';
import type { TradeTransition, TransitionActor } from './transition.ts';

/** The payment group whose trades are paid with gift cards (issue 18). */
export const GIFT_CARDS_GROUP = 'gift-cards';

/**
 * What a gift-card trade's transitions do to its cards (server/services/gift-cards/settlement.ts),
 * inside the transition's transaction: `check` may refuse (a revealed card cannot be cancelled
 * back silently), `apply` moves the cards once the status changed.
 */
export interface GiftCardSettlement {
  check(row: TradeRow, action: TradeAction, actor: TransitionActor): Promise<void>;
  apply(row: TradeRow, to: TradeStatus, action: TradeAction, actor: TransitionActor, at: number): Promise<void>;
}

/**
 * The affiliate programme's part in a trade (server/services/affiliates/earn.ts): the affiliate a
 * new trade is credited to, and at a release the fee shares, moved inside the release's transaction.
 */
export interface AffiliateShares {
  affiliateOf(buyerId: number, sellerId: number): Promise<number | null>;
  earn(ctx: ServiceContext, trade: ReleasedTrade, outcome: 'released' | 'dispute_won_buyer'): Promise<void>;
}

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
  /** A dispute's deadlines (dispute-clock.ts); the defaults when left out. */
  disputeDeadlines?: DisputeDeadlines;
  /** Trading limits of the verification levels: throws when a trade this size would exceed one. */
  checkTradingLimit?: (userId: number, usdCents: number) => Promise<void> | void;
  /** Gift-card trades' cards; the container wires it, tests of other areas may leave it out. */
  giftCardSettlement?: GiftCardSettlement;
  /** The bank account the seller shared into the trade (server/services/bank-accounts/), or null. */
  bankAccountOf?: (tradeId: number) => Promise<TradeBankAccountView | null>;
  /** Affiliate shares of the fee; the container wires it, tests of other areas may leave it out. */
  affiliates?: AffiliateShares;
  /** Merchants' webhooks: each change's deliveries join the outbox in its transaction (issue 21). */
  webhooks?: WebhookRecorder;
}

/** What every verb is given: the deps, who may read a trade, and the transition. */
export interface TradesParts extends TradesDeps, TradeAccess, TradeTransition {}
