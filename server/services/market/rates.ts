import { roundDecimal } from '../../../src/lib/shared/money.ts';
import type { ServiceContext } from '../context.ts';
import type { CryptoCode } from '../price-feed/price-feed.ts';
import { type CryptoFiatRates, type MarketParts, seconds } from './deps.ts';

const DAY_SECONDS = 86_400;
/**
 * How far before "24 hours ago" the reference price may be: a gap in the history (the server was
 * down and nothing filled it) longer than this gives no change rather than a wrong one.
 */
const REFERENCE_WINDOW_SECONDS = 3_600;

/**
 * The 24 h change of a coin's dollar price as a fraction (0.0123 is +1.23 %), from the stored
 * minute closes (decision 136); null when the history holds no price near 24 hours ago.
 */
async function change24h({ repo, priceFeed, now }: MarketParts, crypto: CryptoCode): Promise<number | null> {
  const dayAgo = seconds(now()) - DAY_SECONDS;
  const then = await repo.closeBefore(crypto, dayAgo, dayAgo - REFERENCE_WINDOW_SECONDS);
  if (!then || !(then.usd > 0)) return null;
  // Four decimals, a hundredth of a percent: what a page shows, so a change shown as 0.00 % is 0 here.
  return roundDecimal(priceFeed.usdPrice(crypto) / then.usd - 1, 4);
}

export async function cryptoFiatRates(parts: MarketParts, _ctx: ServiceContext): Promise<CryptoFiatRates> {
  const { priceFeed } = parts;
  const btc = priceFeed.usdPrice('BTC');
  const usdt = priceFeed.usdPrice('USDT');
  const [btcChange24h, usdtChange24h] = await Promise.all([change24h(parts, 'BTC'), change24h(parts, 'USDT')]);
  return {
    btcToUsd: roundDecimal(btc, 2),
    usdtToUsd: roundDecimal(usdt, 4),
    usdtToBtc: roundDecimal(usdt / btc, 8),
    btcToUsdt: roundDecimal(btc / usdt, 2),
    updatedAt: seconds(priceFeed.updatedAt()),
    btcChange24h,
    usdtChange24h,
  };
}
