import { escrowFeeBasisPoints } from '../../../src/lib/shared/fees.ts';
import { CRYPTO_DECIMALS, minorToMajor, roundDecimal as round } from '../../../src/lib/shared/money.ts';
import { minimumToFund } from '../../../src/lib/shared/offer-funding.ts';
import {
  CASH_BY_MAIL_METHODS,
  CASH_IN_PERSON_GROUP,
  CHARGEBACK_RISKY_GROUPS,
  CHARGEBACK_RISKY_METHODS,
  requiresPayerName,
} from '../../../src/lib/shared/offer-rules.ts';
import type { OfferTradeRequirement } from '../../../src/lib/shared/trade-requirements.ts';
import type { OfferLocationView, OfferOwnerView, OfferView } from '../../../src/lib/shared/views/offers.ts';
import type { OfferRow } from './repository.ts';

// An offer as clients read it: the "Offer (viewed)" of spec section 3, whose shape (OfferView) is
// the API's contract in src/lib/shared/views/offers.ts. The price follows the market as it is now
// (margin offers) or stays where the vendor set it (fixed offers); limits and prices are in the
// offer currency's major units, rounded to its minor units.

export type { OfferLocationView, OfferOwnerView, OfferView };

export interface MarketRates {
  /** Price of one unit of `crypto` in `fiat`, as of the latest tick. */
  fiatPerCrypto(crypto: string, fiat: string): number;
  /** Units of `fiat` per US dollar. */
  fiatPerUsd(fiat: string): number;
}

/** Price of one crypto unit in the offer's currency, rounded to its minor units. */
export function offerPrice(row: OfferRow, rates: MarketRates): number {
  if (row.priceType === 'fixed' && row.fixedPriceMinor !== null) {
    return minorToMajor(row.fixedPriceMinor, row.fiatMinorUnits);
  }
  const market = rates.fiatPerCrypto(row.cryptoCode, row.fiatCode);
  return round(market * (1 + row.marginBasisPoints / 10_000), row.fiatMinorUnits);
}

/**
 * Whether the owner's wallet covers the smallest trade of a sell offer (src/lib/shared/offer-funding.ts),
 * at the price shown; the owner alone reads their balance and what the offer needs (crypto, major
 * units). Buy offers need nothing: the person who sells to them funds the trade.
 */
function fundingView(row: OfferRow, price: number, forOwner: boolean) {
  if (row.type !== 'sell') return { balance: null, noCoins: false, ...(forOwner ? { balanceNeeded: null } : {}) };
  const decimals = CRYPTO_DECIMALS[row.cryptoCode as 'BTC' | 'USDT'] ?? 8;
  const need = minimumToFund({
    fiatMinMinor: row.fiatMinMinor,
    priceMinor: Math.round(price * 10 ** row.fiatMinorUnits),
    cryptoDecimals: decimals,
    groupSlug: row.paymentGroupSlug,
  });
  return {
    balance: forOwner ? minorToMajor(row.ownerWalletBalance, decimals) : null,
    // Without a price nothing can be said (and the trade start refuses for that reason).
    noCoins: need !== undefined && row.ownerWalletBalance < need,
    ...(forOwner ? { balanceNeeded: need === undefined ? null : minorToMajor(need, decimals) } : {}),
  };
}

/** Where a cash-in-person trade meets, named in the reader's language. */
function locationView(row: OfferRow, countryName: (iso: string, fallback: string) => string): OfferLocationView | null {
  if (row.locationId === null || row.locationCity === null) return null;
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
}

function ownerView(row: OfferRow): OfferOwnerView {
  return {
    username: row.ownerUsername,
    lastSeen: Math.floor(row.ownerLastSeenAt / 1000),
    avatarUrl: row.ownerAvatarUrl,
    isDeferredEscrow: false,
    feedbackPositive: row.ownerFeedbackPositive,
    feedbackNegative: row.ownerFeedbackNegative,
    completedTrades: row.ownerCompletedTrades,
  };
}

/** Who may trade on the offer: the conditions its owner set. */
function conditionsView(row: OfferRow, major: (minor: number) => number) {
  return {
    bond: { isRequired: row.bondRequired === 1 },
    showOnlyTrustedUser: row.showOnlyTrustedUser === 1,
    requireMinPastTrades: row.requireMinPastTrades,
    requireVerifiedId: row.requireVerifiedId === 1,
    requireOfferCurrencyMatchBuyerCountry: row.requireOfferCurrencyMatchBuyerCountry === 1,
    newBuyerMaxFiatLimit: row.newBuyerMaxFiatMinor === null ? null : major(row.newBuyerMaxFiatMinor),
    allowedCountries: JSON.parse(row.allowedCountries) as string[],
    blockedCountries: JSON.parse(row.blockedCountries) as string[],
  };
}

/** How the offer is paid: the method, its group, the fee, and the flags the start widget reads. */
function paymentView(row: OfferRow) {
  return {
    paymentMethod: row.paymentMethodName,
    paymentMethodSlug: row.paymentMethodSlug,
    paymentMethodId: row.paymentMethodId,
    paymentGroup: row.paymentGroupSlug,
    paymentMethodLabel: row.paymentMethodLabel,
    paxfulFee: escrowFeeBasisPoints(row.paymentGroupSlug) / 100,
    isGiftCard: row.paymentGroupSlug === 'gift-cards',
    isCashInPerson: row.paymentGroupSlug === CASH_IN_PERSON_GROUP,
    isCashInMail: CASH_BY_MAIL_METHODS.includes(row.paymentMethodSlug),
    isChargebackRisky:
      CHARGEBACK_RISKY_GROUPS.includes(row.paymentGroupSlug) ||
      CHARGEBACK_RISKY_METHODS.includes(row.paymentMethodSlug),
  };
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
    /** The owner reads what only they may see (the trade instructions, their balance). */
    forOwner?: boolean;
  },
): OfferView {
  const price = offerPrice(row, rates);
  const market = rates.fiatPerCrypto(row.cryptoCode, row.fiatCode);
  const margin =
    row.priceType === 'fixed' && market > 0 ? round((price / market - 1) * 100, 2) : row.marginBasisPoints / 100;
  const major = (minor: number) => minorToMajor(minor, row.fiatMinorUnits);
  const tags = JSON.parse(row.tags) as string[];
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
    fiatCurrencyId: row.fiatCurrencyId,
    fiatDecimals: row.fiatMinorUnits,
    fiatLimitMin: major(row.fiatMinMinor),
    fiatLimitMax: major(row.fiatMaxMinor),
    predefinedAmount: (JSON.parse(row.predefinedAmountsMinor) as number[]).map(major),
    priceType: row.priceType,
    margin,
    fiatPricePerCrypto: price,
    fiatPricePerBtc: price,
    fiatUSDPricePerBtc: round(price / rates.fiatPerUsd(row.fiatCode), 2),
    ...paymentView(row),
    paymentWindowTime: row.paymentWindowMinutes,
    offerTerms: row.terms,
    ...(forOwner ? { tradeInstructions: row.tradeInstructions } : {}),
    tags,
    requirePayerName: requiresPayerName({ type: row.type, tags, isGiftCard: row.paymentGroupSlug === 'gift-cards' }),
    tradeRequirements: JSON.parse(row.tradeRequirements) as OfferTradeRequirement[],
    isGold: row.isGold === 1,
    owner: ownerView(row),
    ...conditionsView(row, major),
    ...fundingView(row, price, forOwner),
    isPubliclyVisible: row.isPubliclyVisible === 1,
    isBlocked: row.status === 'blocked',
    isSkipWarnings: row.isSkipWarnings === 1,
    status: row.status,
    location: locationView(row, countryName),
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
