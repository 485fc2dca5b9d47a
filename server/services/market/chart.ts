import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import { roundDecimal } from '../../../src/lib/shared/money.ts';
import type { ServiceContext } from '../context.ts';
import type { CryptoCode } from '../price-feed/price-feed.ts';
import { bucketStart, CHART_RANGES, type ChartRange } from './buckets.ts';
import { type CalculatorView, type ChartInput, type ChartPoint, type MarketParts, seconds } from './deps.ts';

/** Fiat prices print with 2 decimals; a tether's fiat price moves in the 4th. */
const CHART_DECIMALS: Record<CryptoCode, number> = { BTC: 2, USDT: 4 };

export async function chart(
  { repo, priceFeed, reference, now }: MarketParts,
  ctx: ServiceContext,
  { crypto, range, code, field }: ChartInput,
): Promise<ChartPoint[]> {
  const perUsd = await reference.fiatPerUsd(ctx, { code, ...(field ? { field } : {}) });
  const { span, resolution, step } = CHART_RANGES[range];
  const at = seconds(now());
  const end = bucketStart(at, step);
  const points = await repo.series({ crypto, resolution, step, from: end - span, to: at });
  // The chart ends at the price people see now, even between ticks or before the first one.
  if (points[points.length - 1]?.date === end) points.pop();
  points.push({ date: end, usd: priceFeed.usdPrice(crypto) });
  return points.map((p) => ({ date: p.date, rate: roundDecimal(p.usd * perUsd, CHART_DECIMALS[crypto]) }));
}

/** What the calculator page needs in one call: the currency with its rate, and the BTC chart. */
export async function calculator(
  parts: MarketParts,
  ctx: ServiceContext,
  { locale, code, range, field }: { locale: Locale; code: string; range: ChartRange; field?: string },
) {
  // The chart first: its history read may wait, and the price it ends at, the currency's rate and
  // the time below are then read together (an unknown code fails either way, with the same 404).
  const points = await chart(parts, ctx, { crypto: 'BTC', range, code, ...(field ? { field } : {}) });
  const currency = await parts.reference.getCurrency(ctx, { locale, code, ...(field ? { field } : {}) });
  return {
    currency,
    range,
    price: currency.rate.btc,
    chart: points,
    updatedAt: seconds(parts.priceFeed.updatedAt()),
  } satisfies CalculatorView;
}
