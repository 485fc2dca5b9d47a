import type { TradeRequirementStage, TradeRequirementStatus } from '../trade-requirements.ts';
import type { TradeBankAccountView } from './bank-accounts.ts';

// The trades API's answer shapes (spec section 3, "Trade (lite)" and "Trade (chat)", the chat's
// lines, the proofs): the contract between server/services/trades, which builds them, and the
// trade pages that read them. The statuses and roles are the schema's too (db/schema/trades.ts).

/** Spec section 3, "Trade statuses". */
export const TRADE_STATUSES = [
  'active_funded',
  'cancelled_buyer',
  'cancelled_system',
  'dispute_open',
  'paid',
  'released',
  'not_funded',
  'funds_processing',
  'funds_processed',
  'cancelled_seller',
  'dispute_won_seller',
  'dispute_won_buyer',
] as const;
export type TradeStatus = (typeof TRADE_STATUSES)[number];

export const TRADE_ACTOR_ROLES = ['buyer', 'seller', 'moderator', 'system'] as const;
export type TradeActorRole = (typeof TRADE_ACTOR_ROLES)[number];

/** A proof's review: pending, then approved or rejected (spec section 4). */
export type TradeProofStatus = 'pending' | 'approved' | 'rejected';

export interface TradeRequirementView {
  id: number;
  kind: string;
  status: TradeRequirementStatus;
  optional: boolean;
}

export type FlowStep = 'before_reveal_payment_details' | 'before_mark_as_paid' | 'done';

export interface TradeView {
  id: string;
  hash: string;
  chatUrl: string;
  offerUrl: string;
  offerHash: string;
  /** Unix seconds. */
  startedAt: number;
  expiresAt: number;
  paidAt: number | null;
  cancelledAt: number | null;
  endedAt: number | null;
  /** The reader is the offer's owner. */
  isVendor: boolean;
  /** The reader started the trade (spec "isResponder"). */
  isResponder: boolean;
  role: TradeActorRole;
  buyer: { username: string; profile: string; avatarUrl: string | null };
  seller: { username: string; profile: string; avatarUrl: string | null };
  isOpponentsSameIp: boolean;
  paymentMethod: string;
  paymentMethodName: string;
  paymentMethodSlug: string;
  status: TradeStatus;
  tradeCompleted: boolean;
  /** A release or status change that failed half-way; every change here is one transaction, so never. */
  isReleaseError: false;
  isStatusChangeError: false;
  isFunded: boolean;
  isDisputed: boolean;
  isPaid: boolean;
  /** Paid with gift cards (the gift-cards payment group): the page shows the gift code check. */
  isGccTrade: boolean;
  /** Paid by bank transfer (the bank-transfers payment group): the seller may share a saved account. */
  isBankTransferTrade: boolean;
  /**
   * Where the buyer pays: the owner's trade instructions, or what the seller wrote in the trade
   * (decision 125); null until the requirements before reveal are met.
   */
  paymentDetails: string | null;
  /** The bank account the seller shared into a bank-transfer trade (issue 19), or null. */
  bankAccount: TradeBankAccountView | null;
  payerName: string | null;
  /** For the seller and moderators when the buyer gave a payer name (decision 112), else null. */
  payerCheck: PayerCheckView | null;
  cryptoCurrency: 'BTC' | 'USDT';
  /** What the buyer receives; `btcAmount` names it in both units for BTC trades. */
  cryptoAmount: string;
  btcAmount: { satoshi: number; btc: string } | null;
  fee: { amount: string; percentage: number; paidBy: 'seller' };
  feePercentage: number;
  fiatAmount: number;
  fiatAmountRequested: number;
  currency: string;
  fiatDecimals: number;
  fiatPricePerBtc: number;
  /** The public id (`usr_…`) of the affiliate credited with the trade, for moderators and the party they referred. */
  affiliateId: string | null;
  paymentWindowMinutes: number;
  info: { tags: string[]; offerTerms: string; isResponder: boolean; ownerUserName: string };
  flow: {
    step: FlowStep;
    state: { beforeRevealPaymentDetails: TradeRequirementView[]; beforeMarkAsPaid: TradeRequirementView[] };
  };
  dispute: {
    available: boolean;
    /** Unix seconds: from when a dispute may be opened on a paid trade. */
    availableAt: number | null;
    reasonId: string | null;
    text: string | null;
    openedBy: string | null;
  } & DisputeClocksView;
  /** What the reader may do now (the buttons of the trade page). */
  actions: {
    markPaid: boolean;
    release: boolean;
    cancel: boolean;
    dispute: boolean;
    resolve: boolean;
    reopen: boolean;
    /** A moderator may take the open dispute (POST /rest/v1/moderation/trades/{id}/take). */
    take: boolean;
    /** The seller may write the payment details (POST …/payment-details): until the trade is paid. */
    paymentDetails: boolean;
  };
  /** The release asks for a second-factor code. */
  releaseNeedsCode: boolean;
  /** Bumped by every change: a client that sees a higher one missed nothing else. */
  version: number;
}

/** Who a dispute's running clock waits on: a party, every moderator, the administrators, or the one who took it. */
export type DisputeWaitingOn = 'buyer' | 'seller' | 'moderators' | 'administrators' | 'moderator';

/** One running clock of an open dispute (docs/decisions/154-dispute-deadlines.md). */
export interface DisputeClockView {
  /** The counterpart's answer, a moderator's take, the decision of the one who took it. */
  step: 'answer' | 'take' | 'decision';
  waitingOn: DisputeWaitingOn;
  /** The party who must answer, or the moderator who must decide; null for a group. */
  username: string | null;
  /** Unix seconds. */
  dueAt: number;
  overdue: boolean;
}

/**
 * A dispute's deadlines and who has it (issue 24), beside the trade view's `dispute`: times in
 * unix seconds, null where a step does not apply (a moderator's reopening has no counterpart) or
 * has not come yet (the decision's, until someone takes the dispute). They stay after the dispute
 * ends; `clocks` lists only what an open dispute still waits for.
 */
export interface DisputeClocksView {
  /** The party who did not open the dispute and must answer it. */
  counterpart: string | null;
  answerDueAt: number | null;
  /** The counterpart's first chat line or file after the dispute opened. */
  answeredAt: number | null;
  /** The counterpart let the answer's deadline pass (shown to the moderator; they were reminded). */
  answerMissed: boolean;
  takeDueAt: number | null;
  takenAt: number | null;
  /** Who took the dispute (a moderator or an administrator), or null while nobody has. */
  moderator: string | null;
  decisionDueAt: number | null;
  /** 0 as opened, 1 back to every moderator, 2 with the administrators (decision 155). */
  escalationLevel: number;
  clocks: DisputeClockView[];
}

export interface TradeMessageView {
  id: number;
  author: string | null;
  role: TradeActorRole;
  /** Plain text (a `trade.system.*` key for system lines); never HTML. */
  text: string;
  isSystem: boolean;
  attachment: { id: string; url: string; contentType: string } | null;
  isForModerator: boolean;
  /** Unix seconds. */
  createdAt: number;
}

export interface TradeUploadView {
  /** The attachment's public id. */
  id: string;
  requirementId: number;
  kind: string;
  stage: TradeRequirementStage;
  /** The proof's review: pending, then approved or rejected (spec section 4). */
  status: TradeProofStatus;
  requirementStatus: TradeRequirementStatus;
  resource: { url: string; contentType: string };
}

/** The payer name beside the buyer's verified name; `matches` null while the identity is not verified. */
export interface PayerCheckView {
  payerName: string;
  verifiedName: string | null;
  matches: boolean | null;
}
