// The bounds of an offer a vendor may publish, shared by the create-offer form (instant feedback)
// and the offers service (the rule). Spec section 9 leaves them open; docs/decisions/046-offers-sides-prices-open-fields.md says why.

/** Margin band: a discount of at most 50 %, a premium of at most 150 % (gift cards trade high). */
export const MARGIN_MIN_PERCENT = -50;
export const MARGIN_MAX_PERCENT = 150;
/** Margins are typed with at most two decimals (basis points). */
export const MARGIN_DECIMALS = 2;

/** Minutes the buyer has to pay; the trade is cancelled when the window passes unpaid. */
export const PAYMENT_WINDOWS = [15, 30, 45, 60, 90, 120, 180, 240] as const;
export const DEFAULT_PAYMENT_WINDOW = 30;

export const TERMS_MAX_LENGTH = 3000;
export const TRADE_INSTRUCTIONS_MAX_LENGTH = 3000;
export const PAYMENT_METHOD_LABEL_MAX_LENGTH = 40;
export const PREDEFINED_AMOUNTS_MAX = 10;
export const MIN_PAST_TRADES_MAX = 1000;
export const COUNTRY_LIST_MAX = 60;

/** Tags a vendor may put on an offer (shown as chips in the listing). */
export const OFFER_TAGS = [
  'no-verification-needed',
  'receipt-required',
  'photo-id-required',
  'no-third-parties',
  'same-bank-only',
  'cash-only',
  'online-payments',
  'instant',
] as const;
export const OFFER_TAGS_MAX = 3;

/**
 * The tags of `tags` a vendor may set. Rows written before the list was closed (a trade's copy of
 * its offer's tags) may hold others, which have no words in any language: they are left out
 * rather than shown as a raw message key.
 */
export const knownOfferTags = (tags: readonly string[]): string[] =>
  tags.filter((tag) => (OFFER_TAGS as readonly string[]).includes(tag));

/**
 * An offer tagged "no third parties" takes payment only from the buyer's own account: on a sell
 * offer the person who starts the trade pays, and says in whose name (`payer_name`, spec section 5),
 * which the seller compares with the buyer's verified name before releasing. Gift cards are paid
 * with codes, not from an account: no payer name there.
 */
export const PAYER_NAME_TAG = 'no-third-parties';

export function requiresPayerName(offer: {
  type: 'buy' | 'sell';
  tags: readonly string[];
  isGiftCard: boolean;
}): boolean {
  return offer.type === 'sell' && !offer.isGiftCard && offer.tags.includes(PAYER_NAME_TAG);
}

/** Default payment group of the create-offer screen (spec section 9: "default active payment group 5"). */
export const DEFAULT_PAYMENT_GROUP_ID = 5;

/** Payment groups whose offers meet in person and name a place (spec: location for cash offers). */
export const CASH_IN_PERSON_GROUP = 'cash-in-person';
/** Methods of cash sent by mail (spec: isCashInMail). */
export const CASH_BY_MAIL_METHODS: readonly string[] = ['cash-by-mail'];

/** Card and wallet methods a payer can reverse after the trade (spec section 4: chargeback warning). */
export const CHARGEBACK_RISKY_GROUPS: readonly string[] = ['debitcredit-cards'];
export const CHARGEBACK_RISKY_METHODS: readonly string[] = ['paypal', 'venmo', 'cash-app', 'apple-cash'];
