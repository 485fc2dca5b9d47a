import type { OfferTradeRequirement } from '../../lib/shared/trade-requirements.ts';

// The reference data and the offer the editor works with, as the page hands them to the island:
// only the fields the form reads, so the props serialized into the page stay small.

export interface EditorCurrency {
  code: string;
  name: string;
  minorUnits: number;
  rate: { btc: number; usdt: number };
}

export interface EditorMethod {
  slug: string;
  name: string;
  groupId: number;
  description: string;
  warningText: string | null;
}

export interface EditorGroup {
  id: number;
  slug: string;
  name: string;
  isSelectable: boolean;
}

export interface EditorCountry {
  iso: string;
  name: string;
}

/** The reference lists the editor picks from (src/lib/server/offer-editor-load.ts loads them). */
export interface EditorLists {
  currencies: EditorCurrency[];
  groups: EditorGroup[];
  methods: EditorMethod[];
  countries: EditorCountry[];
}

export interface EditorLocation {
  id: number;
  prettyName: string;
}

/** The subset of GET /rest/v1/offers/{hash} (server/services/offers/offer-view.ts) an edit starts from. */
export interface EditableOffer {
  hash: string;
  type: 'buy' | 'sell';
  cryptoCurrency: 'BTC' | 'USDT';
  fiatCurrency: string;
  paymentMethodSlug: string;
  priceType: 'margin' | 'fixed';
  margin: number;
  fiatPricePerCrypto: number;
  fiatLimitMin: number;
  fiatLimitMax: number;
  predefinedAmount: number[];
  paymentWindowTime: number;
  paymentMethodLabel: string | null;
  offerTerms: string;
  /** Only when the API tells the owner (the offer view does not carry it for everyone). */
  tradeInstructions?: string;
  tags: string[];
  requireVerifiedId: boolean;
  showOnlyTrustedUser: boolean;
  bond: { isRequired: boolean };
  requireOfferCurrencyMatchBuyerCountry: boolean;
  requireMinPastTrades: number;
  newBuyerMaxFiatLimit: number | null;
  isPubliclyVisible: boolean;
  isGold: boolean;
  isSkipWarnings: boolean;
  tradeRequirements: OfferTradeRequirement[];
  allowedCountries: string[];
  blockedCountries: string[];
  location: { id: number; prettyName: string } | null;
}
