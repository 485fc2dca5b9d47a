import type { OfferTradeRequirement } from '../trade-requirements.ts';

// The offers API's answer shapes (spec section 3, "Offer (viewed)"): the contract between
// server/services/offers (which builds them) and the pages and islands that read them.

/** An offer's life: `blocked` is a moderator's stop, the owner cannot turn it on again. */
export const OFFER_STATUSES = ['active', 'paused', 'blocked', 'deleted'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export interface OfferOwnerView {
  username: string;
  /** Unix seconds. */
  lastSeen: number;
  avatarUrl: string | null;
  /** Escrow is always taken when the trade starts; deferred escrow is not offered. */
  isDeferredEscrow: false;
  feedbackPositive: number;
  feedbackNegative: number;
  completedTrades: number;
}

export interface OfferLocationView {
  id: number;
  countryIso: string;
  countryName: string;
  cityName: string;
  subdivisionName: string;
  prettyName: string;
}

export interface OfferView {
  id: string;
  hash: string;
  /** Position in the answer's list, from 0. */
  index: number;
  url: string;
  type: 'buy' | 'sell';
  offerType: 'buy' | 'sell';
  cryptoCurrency: string;
  cryptoCurrencyId: number;
  isFeatured: boolean;
  fiatCurrency: string;
  /** The currency's reference id: what a gift-card trade start names (spec section 7). */
  fiatCurrencyId: number;
  /** Decimals of the fiat currency (ISO 4217 minor units: 2, or 0 for JPY, 3 for KWD). */
  fiatDecimals: number;
  fiatLimitMin: number;
  fiatLimitMax: number;
  predefinedAmount: number[];
  priceType: 'margin' | 'fixed';
  /** Percent over the market (2.5 = 2.5 % above); for fixed prices, where the price stands now. */
  margin: number;
  fiatPricePerCrypto: number;
  /** The price per unit of the offer's crypto: per bitcoin for BTC offers, per tether for USDT. */
  fiatPricePerBtc: number;
  fiatUSDPricePerBtc: number;
  paymentMethod: string;
  paymentMethodSlug: string;
  /** The payment method's reference id (a gift card's brand). */
  paymentMethodId: number;
  paymentGroup: string;
  paymentMethodLabel: string | null;
  paymentWindowTime: number;
  /** The seller's escrow fee in percent (spec: `paxfulFee`). */
  paxfulFee: number;
  offerTerms: string;
  /** Revealed to the trade partner once a trade starts; in the offer only for its owner. */
  tradeInstructions?: string;
  tags: string[];
  /** Proofs the trade partner uploads before the payment details show, or before marking paid. */
  tradeRequirements: OfferTradeRequirement[];
  isGiftCard: boolean;
  isGold: boolean;
  isCashInPerson: boolean;
  isCashInMail: boolean;
  isChargebackRisky: boolean;
  owner: OfferOwnerView;
  bond: { isRequired: boolean };
  showOnlyTrustedUser: boolean;
  requireMinPastTrades: number;
  requireVerifiedId: boolean;
  requireOfferCurrencyMatchBuyerCountry: boolean;
  /** The person starting a trade pays and must say in whose name (`payer_name`; src/lib/shared/offer-rules.ts). */
  requirePayerName: boolean;
  newBuyerMaxFiatLimit: number | null;
  allowedCountries: string[];
  blockedCountries: string[];
  /**
   * The owner's wallet in the offer's crypto (major units), for a sell offer and its owner only;
   * null for anyone else and for buy offers (docs/decisions/121-unfunded-sell-offers.md).
   */
  balance: number | null;
  /**
   * What the owner's wallet must hold for the smallest trade, fee included (major units): in the
   * offer only for its owner, null for buy offers.
   */
  balanceNeeded?: number | null;
  /** A sell offer whose owner's wallet cannot cover its smallest trade: not listed, and no trade can start. */
  noCoins: boolean;
  isPubliclyVisible: boolean;
  isBlocked: boolean;
  isSkipWarnings: boolean;
  status: OfferStatus;
  location: OfferLocationView | null;
  /** What the viewer saw (price, limits, version); the trade start compares it with the offer now. */
  originalData: string;
  /** Seconds since the owner was last seen: lower ranks first (docs/decisions/047-presence-and-listing-filters.md). */
  score: number;
  createdAt: number;
  updatedAt: number;
}
