// The events other services publish on the in-process bus (server/realtime/bus.ts) after their
// commits, as the notifications subscriber reads them. The trades service imports these types for
// what it publishes on the internal channel `trades`; the verification service for `verification`.
// Internal channels: no socket may join them (server/realtime/channels.ts grants only public,
// personal and trade channels).

/** Internal bus channels the notifications subscriber listens on. */
export const TRADES_BUS_CHANNEL = 'trades';
export const VERIFICATION_BUS_CHANNEL = 'verification';
export const DEVICES_BUS_CHANNEL = 'devices';
export const AFFILIATES_BUS_CHANNEL = 'affiliates';

export type TradeRole = 'buyer' | 'seller' | 'moderator' | 'system';

export type TradeAction =
  | 'started'
  | 'paid'
  | 'released'
  | 'cancelled'
  | 'expired'
  | 'disputed'
  | 'resolved'
  | 'reopened';

export interface TradeChangedPayload {
  tradeHash: string;
  action: TradeAction;
  status: string;
  previousStatus: string | null;
  /** Row id of who acted; null for the system (expiry). */
  actorId: number | null;
  actorRole: TradeRole;
  buyerId: number;
  sellerId: number;
  /** The offer's owner: the vendor who receives a started trade. */
  ownerId: number;
  /** Who started the trade from the offer. */
  responderId: number;
  buyerUsername: string;
  sellerUsername: string;
  /** `/trade/<hash>`. */
  link: string;
  /** Major units as text: `"150.00"`. */
  fiatAmount: string;
  currency: string;
  cryptoAmount: string;
  cryptoCurrency: string;
  /** Unix ms. */
  at: number;
}

export interface TradeMessagePayload {
  tradeHash: string;
  messageId: number | string;
  authorId: number | null;
  authorRole: TradeRole;
  /** Who should hear of it (the author excluded by the publisher). */
  recipientIds: number[];
  hasAttachment: boolean;
  /** A message only moderators read (spec section 7: `is_for_moderator`). */
  isForModerator: boolean;
  link: string;
  at: number;
}

/**
 * A trade's payment details (where the buyer pays): `missing` when a trade started without them
 * (the seller is asked to write them), `added` or `changed` when the seller wrote them in the trade.
 */
export interface TradePaymentDetailsPayload {
  tradeHash: string;
  state: 'missing' | 'added' | 'changed';
  buyerId: number;
  sellerId: number;
  buyerUsername: string;
  sellerUsername: string;
  link: string;
  at: number;
}

/**
 * A dispute's clock moved (issue 24, server/services/trades/dispute-events.ts): a moderator took
 * it, a missed moderator deadline escalated it, or the counterpart let the answer's deadline pass.
 */
export interface TradeDisputePayload {
  tradeHash: string;
  kind: 'taken' | 'escalated' | 'answer_missed';
  /** The escalation level after the change (0 as opened, 1 every moderator, 2 the administrators). */
  level: number;
  buyerId: number;
  sellerId: number;
  buyerUsername: string;
  sellerUsername: string;
  /** The party who did not answer in time (answer_missed), else null. */
  counterpartId: number | null;
  /** Who took it (taken), or who had it and missed the decision's deadline (escalated), else null. */
  moderatorId: number | null;
  /** The staff an escalation calls: moderators and administrators at level 1, administrators at 2. */
  staffIds: number[];
  link: string;
  at: number;
}

export interface TradeFeedbackPayload {
  tradeHash: string;
  fromId: number;
  toId: number;
  fromUsername: string;
  rating: 'positive' | 'negative';
  link: string;
  at: number;
}

export interface VerificationReviewedPayload {
  userId: number;
  userPublicId: string;
  kind: string;
  decision: 'approved' | 'rejected';
  reason: string | null;
}

/** Published by the device review service once a sign-in from a new device is committed. */
export interface DeviceReviewRequestedPayload {
  userId: number;
  browser: string | null;
  os: string | null;
  ip: string;
  at: number;
}

export type TradeBusEvent =
  | { type: 'trade.changed'; payload: TradeChangedPayload }
  | { type: 'trade.message'; payload: TradeMessagePayload }
  | { type: 'trade.feedback'; payload: TradeFeedbackPayload }
  | { type: 'trade.dispute'; payload: TradeDisputePayload };

export type VerificationBusEvent = { type: 'verification.reviewed'; payload: VerificationReviewedPayload };

export type DeviceBusEvent = { type: 'device.review_requested'; payload: DeviceReviewRequestedPayload };

/** One affiliate's share of a released trade's fee. */
export interface AffiliateShareNotice {
  affiliateId: number;
  /** Decimal text in the currency's decimals. */
  amount: string;
  currency: 'BTC' | 'USDT';
  tier: 1 | 2;
  /** The referred person whose trade it was. */
  traderUsername: string;
}

/** Published by the affiliates service once a release that shared its fee is committed: all its shares. */
export interface AffiliateEarnedPayload {
  shares: AffiliateShareNotice[];
}

/** Published by registration once a person signed up with someone's referral code. */
export interface ReferralJoinedPayload {
  referrerId: number;
  username: string;
}

export type AffiliateBusEvent =
  | { type: 'affiliate.earned'; payload: AffiliateEarnedPayload }
  | { type: 'affiliate.referral_joined'; payload: ReferralJoinedPayload };
