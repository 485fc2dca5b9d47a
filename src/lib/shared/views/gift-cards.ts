// Gift cards (spec sections 3 and 4; docs/gift-cards.md): what the API answers about a person's
// cards and a trade's cards. Codes are secrets: a view carries one only for whoever has revealed it.

/** Spec section 4: free → in_use (a trade holds it) → revealed (its seller opened it) → used; deleted by its owner. */
export const GIFT_CARD_STATES = ['free', 'in_use', 'revealed', 'used', 'deleted'] as const;
export type GiftCardState = (typeof GIFT_CARD_STATES)[number];

/** Spec section 3: physical or e-card. */
export const GIFT_CARD_KINDS = ['physical', 'ecard'] as const;
export type GiftCardKind = (typeof GIFT_CARD_KINDS)[number];

/** At most this many images (card front and back, receipt) per card. */
export const GIFT_CARD_MAX_IMAGES = 4;
/** A code, once spaces and dashes are taken out: what printed and e-mailed codes fit in. */
export const GIFT_CODE_MIN_LENGTH = 4;
export const GIFT_CODE_MAX_LENGTH = 64;
/** Cards a person may keep (not deleted, not used) at once. */
export const GIFT_CARDS_PER_PERSON = 100;
/** The largest value of one card, in major units of its currency: a bound against typos, wide enough for currencies of small units. */
export const GIFT_CARD_MAX_VALUE = 1_000_000;

export interface GiftCardImageView {
  id: string;
  /** `/uploads/gift-cards/<gci_…>`: served to the card's owner, the seller of its trade and moderators in a dispute. */
  url: string;
}

export interface GiftCardView {
  /** `gcd_…`. */
  id: string;
  value: number;
  fiatCurrency: { id: number; code: string };
  paymentMethod: { id: number; name: string; slug: string };
  receipt: boolean;
  type: GiftCardKind;
  state: GiftCardState;
  images: GiftCardImageView[];
  /** The trade holding it (in_use, revealed, used), else null. */
  tradeHash: string | null;
  createdAt: number;
}

/** A card as a trade's reader sees it: the code only once revealed, and only to the seller. */
export interface TradeGiftCardView extends GiftCardView {
  /** The code, for the seller of a revealed or used card and for a moderator who revealed it; else null. */
  code: string | null;
  revealedAt: number | null;
}

/** The gift code check of a trade (spec section 3 "Gift-code check"). */
export interface GiftCodeCheckView {
  tradeInfo: {
    amount: number;
    currency: { id: number; code: string };
    paymentMethod: { id: number; name: string; slug: string };
    /** Why the cards do not make up the trade, or null when they do. */
    error: string | null;
  };
  /** The cards' total in the trade's currency. */
  cardsTotal: number;
  /** The reader's side: buyer (owns the cards), seller (reveals them) or moderator. */
  role: 'buyer' | 'seller' | 'moderator';
  opponentUser: { username: string; avatarUrl: string | null } | null;
  cards: TradeGiftCardView[];
  /** What the reader may do now. */
  can: { add: boolean; remove: boolean; reveal: boolean; returnCards: boolean };
}
