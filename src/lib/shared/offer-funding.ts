import { escrowFeeBasisPoints } from './fees.ts';

// What a sell offer's vendor must hold for the offer to be tradable: the crypto of its smallest
// trade at its price, plus the escrow fee the seller pays on it (src/lib/shared/fees.ts), exactly
// as the trade start locks it (server/services/trades/start.ts). An offer whose owner's wallet
// holds less is `noCoins`: nobody could start a trade on it, so listings leave it out
// (docs/decisions/121-unfunded-sell-offers.md). The offer editor asks the same before publishing.

/** Crypto minor units for a fiat amount at a price (both in the fiat's minor units), rounded half up. */
export function cryptoForFiat(fiatMinor: number, priceMinor: number, cryptoDecimals: number): number {
  const numerator = BigInt(fiatMinor) * 10n ** BigInt(cryptoDecimals) * 2n + BigInt(priceMinor);
  return Number(numerator / (2n * BigInt(priceMinor)));
}

/** The seller's escrow fee on `cryptoAmount` (minor units), rounded up as the ledger takes it. */
export function escrowFeeOf(cryptoAmount: number, feeBasisPoints: number): number {
  return Math.ceil((cryptoAmount * feeBasisPoints) / 10_000);
}

export interface FundingInput {
  /** The offer's smallest trade, in minor units of its currency. */
  fiatMinMinor: number;
  /** The offer's price per coin, in minor units of its currency; 0 or less when no price is known. */
  priceMinor: number;
  cryptoDecimals: number;
  /** The payment group's slug: gift cards carry a higher fee. */
  groupSlug: string;
}

/**
 * Crypto minor units the seller's wallet needs for the offer's smallest trade, fee included;
 * undefined without a price (nothing can be said, and nothing could be traded either).
 */
export function minimumToFund({ fiatMinMinor, priceMinor, cryptoDecimals, groupSlug }: FundingInput) {
  if (!(priceMinor > 0)) return undefined;
  const crypto = cryptoForFiat(fiatMinMinor, priceMinor, cryptoDecimals);
  return crypto + escrowFeeOf(crypto, escrowFeeBasisPoints(groupSlug));
}
