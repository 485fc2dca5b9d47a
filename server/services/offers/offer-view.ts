import { escrowFeeBasisPoints } from '../../../src/lib/shared/fees.ts';
import { minorToMajor, roundDecimal as round } from '../../../src/lib/shared/money.ts';
import {
  CASH_BY_MAIL_METHODS,
  CASH_IN_PERSON_GROUP,
  CHARGEBACK_RISKY_GROUPS,
  CHARGEBACK_RISKY_METHODS,
} from '../../../src/lib/shared/offer-rules.ts';
import type { OfferTradeRequirement } from '../../../src/lib/shared/trade-requirements.ts';
import type { OfferRow } from './repository.ts';

// An offer as clients read it: the "Offer (viewed)" of spec section 3. The price follows the
// market as it is now (margin offers) or stays where the vendor set it (fixed offers); limits and
// prices are in the offer currency's major units, rounded to its minor units.

export interface MarketRates {
  /** Price of one unit of `crypto` in `fiat`, as of the latest tick. */
  fiatPerCrypto(crypto: string, fiat: string): number;
  /** Units of `fiat` per US dollar. */
  fiatPerUsd(fiat: string): number;
}

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
  newBuyerMaxFiatLimit: number | null;
  allowedCountries: string[];
  blockedCountries: string[];
  /** Crypto the owner holds for a sell offer; the wallet issue fills it, null until then. */
  balance: number | null;
  noCoins: boolean;
  isPubliclyVisible: boolean;
  isBlocked: boolean;
  isSkipWarnings: boolean;
  status: OfferRow['status'];
  location: OfferLocationView | null;
  /** What the viewer saw (price, limits, version); the trade start compares it with the offer now. */
  originalData: string;
  /** Seconds since the owner was last seen: lower ranks first (docs/decisions.md). */
  score: number;
  createdAt: number;
  updatedAt: number;
}

/** Price of one crypto unit in the offer's currency, rounded to its minor units. */
export function offerPrice(row: OfferRow, rates: MarketRates): number {
  if (row.priceType === 'fixed' && row.fixedPriceMinor !== null) {
    return minorToMajor(row.fixedPriceMinor, row.fiatMinorUnits);
  }
  const market = rates.fiatPerCrypto(row.cryptoCode, row.fiatCode);
  return round(market * (1 + row.marginBasisPoints / 10_000), row.fiatMinorUnits);
}

export function toOfferView(
  row: OfferRow,
  {
    rates,
    now,
    index = 0,
    countryName,
    forOwner = false,
  }: {
    rates: MarketRates;
    now: number;
    index?: number;
    countryName: (iso: string, fallback: string) => string;
    /** The owner reads what only they may see (the trade instructions). */
    forOwner?: boolean;
  },
): OfferView {
  const price = offerPrice(row, rates);
  const market = rates.fiatPerCrypto(row.cryptoCode, row.fiatCode);
  const margin =
    row.priceType === 'fixed' && market > 0 ? round((price / market - 1) * 100, 2) : row.marginBasisPoints / 100;
  const major = (minor: number) => minorToMajor(minor, row.fiatMinorUnits);
  const isChargebackRisky =
    CHARGEBACK_RISKY_GROUPS.includes(row.paymentGroupSlug) || CHARGEBACK_RISKY_METHODS.includes(row.paymentMethodSlug);
  const location: OfferLocationView | null =
    row.locationId !== null && row.locationCity !== null
      ? (() => {
          const country = countryName(row.locationCountryIso ?? '', row.locationCountryName ?? '');
          const subdivision = row.locationSubdivision === row.locationCity ? '' : (row.locationSubdivision ?? '');
          return {
            id: row.locationId,
            countryIso: row.locationCountryIso ?? '',
            countryName: country,
            cityName: row.locationCity,
            subdivisionName: row.locationSubdivision ?? '',
            prettyName: [row.locationCity, subdivision, country].filter(Boolean).join(', '),
          };
        })()
      : null;

  return {
    id: row.hash,
    hash: row.hash,
    index,
    url: `/offers/${row.hash}`,
    type: row.type,
    offerType: row.type,
    cryptoCurrency: row.cryptoCode,
    cryptoCurrencyId: row.cryptoCurrencyId,
    isFeatured: row.isFeatured === 1,
    fiatCurrency: row.fiatCode,
    fiatDecimals: row.fiatMinorUnits,
    fiatLimitMin: major(row.fiatMinMinor),
    fiatLimitMax: major(row.fiatMaxMinor),
    predefinedAmount: (JSON.parse(row.predefinedAmountsMinor) as number[]).map(major),
    priceType: row.priceType,
    margin,
    fiatPricePerCrypto: price,
    fiatPricePerBtc: price,
    fiatUSDPricePerBtc: round(price / rates.fiatPerUsd(row.fiatCode), 2),
    paymentMethod: row.paymentMethodName,
    paymentMethodSlug: row.paymentMethodSlug,
    paymentGroup: row.paymentGroupSlug,
    paymentMethodLabel: row.paymentMethodLabel,
    paymentWindowTime: row.paymentWindowMinutes,
    paxfulFee: escrowFeeBasisPoints(row.paymentGroupSlug) / 100,
    offerTerms: row.terms,
    ...(forOwner ? { tradeInstructions: row.tradeInstructions } : {}),
    tags: JSON.parse(row.tags) as string[],
    tradeRequirements: JSON.parse(row.tradeRequirements) as OfferTradeRequirement[],
    isGiftCard: row.paymentGroupSlug === 'gift-cards',
    isGold: row.isGold === 1,
    isCashInPerson: row.paymentGroupSlug === CASH_IN_PERSON_GROUP,
    isCashInMail: CASH_BY_MAIL_METHODS.includes(row.paymentMethodSlug),
    isChargebackRisky,
    owner: {
      username: row.ownerUsername,
      lastSeen: Math.floor(row.ownerLastSeenAt / 1000),
      avatarUrl: row.ownerAvatarUrl,
      isDeferredEscrow: false,
      feedbackPositive: row.ownerFeedbackPositive,
      feedbackNegative: row.ownerFeedbackNegative,
      completedTrades: row.ownerCompletedTrades,
    },
    bond: { isRequired: row.bondRequired === 1 },
    showOnlyTrustedUser: row.showOnlyTrustedUser === 1,
    requireMinPastTrades: row.requireMinPastTrades,
    requireVerifiedId: row.requireVerifiedId === 1,
    requireOfferCurrencyMatchBuyerCountry: row.requireOfferCurrencyMatchBuyerCountry === 1,
    newBuyerMaxFiatLimit: row.newBuyerMaxFiatMinor === null ? null : major(row.newBuyerMaxFiatMinor),
    allowedCountries: JSON.parse(row.allowedCountries) as string[],
    blockedCountries: JSON.parse(row.blockedCountries) as string[],
    balance: null,
    noCoins: false,
    isPubliclyVisible: row.isPubliclyVisible === 1,
    isBlocked: row.status === 'blocked',
    isSkipWarnings: row.isSkipWarnings === 1,
    status: row.status,
    location,
    originalData: JSON.stringify({
      v: row.updatedAt,
      price,
      min: major(row.fiatMinMinor),
      max: major(row.fiatMaxMinor),
    }),
    score: Math.max(0, Math.floor((now - row.ownerLastSeenAt) / 1000)),
    createdAt: Math.floor(row.createdAt / 1000),
    updatedAt: Math.floor(row.updatedAt / 1000),
  };
}
