import { CONVERSION_SPREAD_BASIS_POINTS } from '../../../src/lib/shared/fees.ts';
import { CRYPTO_DECIMALS } from '../../../src/lib/shared/money.ts';
import type { CryptoCode } from '../price-feed/price-feed.ts';

// Prices are USDT per BTC with 2 decimals (USDT cents), kept as integers: the numbers a client is
// shown are exactly the numbers its conversion is computed with. The spread
// (CONVERSION_SPREAD_BASIS_POINTS) is split between the sides around the market's mid price, each
// side rounded away from the mid (ask up, bid down). Amounts convert in integer minor units
// (BTC 8 decimals, USDT 6) with bigint arithmetic, rounded down: never more than the rate gives.

/** Price decimals: USDT per BTC in cents, as exchanges quote BTC/USDT. */
const PRICE_DECIMALS = 2;
const BASIS = 10_000n;

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/**
 * Ask and bid in USDT cents per BTC for a mid price: half the spread each side (the odd basis
 * point, if any, on the ask), rounded away from the mid.
 */
export function quotePrices(midUsdtPerBtc: number, spreadBasisPoints = CONVERSION_SPREAD_BASIS_POINTS) {
  if (!Number.isFinite(midUsdtPerBtc) || midUsdtPerBtc <= 0) throw new RangeError('no usable price');
  const mid = BigInt(Math.round(midUsdtPerBtc * 10 ** PRICE_DECIMALS));
  const spread = BigInt(spreadBasisPoints);
  const askSide = ceilDiv(spread, 2n);
  const bidSide = spread - askSide;
  const askCents = ceilDiv(mid * (BASIS + askSide), BASIS);
  const bidCents = (mid * (BASIS - bidSide)) / BASIS;
  if (bidCents <= 0n) throw new RangeError('no usable price');
  return { askCents, bidCents };
}

/**
 * Minor units of `to` for `amountFrom` minor units of `from` at a price in USDT cents per BTC,
 * rounded down. BTC → USDT: sats × cents × 10^6 / (10^8 × 10^2); USDT → BTC: the inverse.
 */
export function convertMinor(from: CryptoCode, amountFrom: bigint, priceCents: bigint): bigint {
  const scale = 10n ** BigInt(CRYPTO_DECIMALS.BTC + PRICE_DECIMALS - CRYPTO_DECIMALS.USDT);
  return from === 'BTC' ? (amountFrom * priceCents) / scale : (amountFrom * scale) / priceCents;
}

export const centsToNumber = (cents: bigint) => Number(cents) / 10 ** PRICE_DECIMALS;
