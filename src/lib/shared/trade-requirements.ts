// What an offer may ask of its trade partner before the payment details show ("before reveal") or
// before the trade can be marked paid (spec section 3, trade flow). Shared by the offer editor, the
// offers service and the trade page.

export const TRADE_REQUIREMENT_KINDS = ['photo_id', 'selfie', 'receipt', 'bank_statement', 'proof_of_address'] as const;
export type TradeRequirementKind = (typeof TRADE_REQUIREMENT_KINDS)[number];

export const TRADE_REQUIREMENT_STAGES = ['before_reveal', 'before_paid'] as const;
export type TradeRequirementStage = (typeof TRADE_REQUIREMENT_STAGES)[number];

export interface OfferTradeRequirement {
  kind: TradeRequirementKind;
  stage: TradeRequirementStage;
  optional: boolean;
}

/** At most this many per offer: a trade page with a dozen demands is not a trade. */
export const MAX_TRADE_REQUIREMENTS = 4;

export type TradeRequirementStatus = 'pending' | 'uploaded' | 'rejected';

/** A requirement that still holds progress back: not optional, and nothing accepted uploaded yet. */
export const isBlocking = (requirement: { optional: boolean; status: TradeRequirementStatus }): boolean =>
  !requirement.optional && requirement.status !== 'uploaded';
