import { bindVerb, type ServiceContext } from '../context.ts';
import type { PriceTick } from '../price-feed/price-feed.ts';
import { calculator, chart } from './chart.ts';
import type { MarketDeps, MarketParts } from './deps.ts';
import { cryptoFiatRates } from './rates.ts';
import { recordTick } from './record-tick.ts';
import { resumeHistory } from './resume.ts';

// Market data: records every tick of the price feed as bucket closes, answers charts from them in
// any fiat currency, and lets a feed continue where the last run stopped. One verb per file; this
// wires them to the area's deps and to when old buckets were last dropped.

export type { CalculatorView, ChartInput, ChartPoint, CryptoFiatRates, MarketDeps, Resumed } from './deps.ts';

/** The verb with the area's parts bound: what callers see is `verb(ctx, input)`. */
export function createMarketService(deps: MarketDeps) {
  const parts: MarketParts = { ...deps, pruning: { lastPrunedAt: Number.NEGATIVE_INFINITY } };
  return {
    /** Writes the tick as the close of its minute, hour and day buckets; now and then drops old ones. */
    recordTick: (tick: PriceTick) => recordTick(parts, tick),
    /** Sets the feed to the last persisted prices; a simulated market also invents the time it was down. */
    resume: () => resumeHistory(parts),
    chart: bindVerb(parts, chart),
    /** What the calculator page needs in one call: the currency with its rate, and the BTC chart. */
    calculator: bindVerb(parts, calculator),
    /** The market's dollar rates with each coin's 24 h change. */
    cryptoFiatRates: (ctx: ServiceContext) => cryptoFiatRates(parts, ctx),
  };
}

export type MarketService = ReturnType<typeof createMarketService>;
