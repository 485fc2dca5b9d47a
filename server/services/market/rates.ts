import { roundDecimal } from '../../../src/lib/shared/money.ts';
import type { ServiceContext } from '../context.ts';
import { type CryptoFiatRates, type MarketParts, seconds } from './deps.ts';

export function cryptoFiatRates({ priceFeed }: MarketParts, _ctx: ServiceContext): CryptoFiatRates {
  const btc = priceFeed.usdPrice('BTC');
  const usdt = priceFeed.usdPrice('USDT');
  return {
    btcToUsd: roundDecimal(btc, 2),
    usdtToUsd: roundDecimal(usdt, 4),
    usdtToBtc: roundDecimal(usdt / btc, 8),
    btcToUsdt: roundDecimal(btc / usdt, 2),
    updatedAt: seconds(priceFeed.updatedAt()),
  };
}
