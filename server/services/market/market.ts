import { seededRandom } from '../../../db/seed/random.ts';
import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import { roundDecimal } from '../../../src/lib/shared/money.ts';
import type { ServiceContext } from '../context.ts';
import { type CryptoCode, cryptoCodes, type PriceFeed, type PriceTick } from '../price-feed/price-feed.ts';
import { SIMULATED_MARKET } from '../price-feed/walk.ts';
import type { CurrencyView, ReferenceService } from '../reference/reference.ts';
import { bucketStart, CHART_RANGES, type ChartRange, pruneCutoffs, RESOLUTIONS } from './buckets.ts';
import type { MarketRepository, PriceHistoryRow } from './repository.ts';
import { historyRows, syntheticWalk } from './synthetic-history.ts';

// Market data: records every tick of the price feed as bucket closes, answers charts from them in
// any fiat currency, and lets a feed continue where the last run stopped.

export interface ChartPoint {
  /** Unix seconds. */
  date: number;
  /** Fiat per one unit of the crypto currency. */
  rate: number;
}

export interface CalculatorView {
  currency: CurrencyView;
  range: ChartRange;
  /** Price of 1 BTC in the currency. */
  price: number;
  chart: ChartPoint[];
  /** Unix seconds of the price's last confirmation by the feed. */
  updatedAt: number;
}

export interface CryptoFiatRates {
  btcToUsd: number;
  usdtToUsd: number;
  usdtToBtc: number;
  btcToUsdt: number;
  updatedAt: number;
}

export interface Resumed {
  /** Unix seconds of the last persisted price, or undefined on an empty history. */
  from: number | undefined;
  /** Seconds of invented history written to bridge the time the server was down. */
  filledSeconds: number;
}

/** Fiat prices print with 2 decimals; a tether's fiat price moves in the 4th. */
const CHART_DECIMALS: Record<CryptoCode, number> = { BTC: 2, USDT: 4 };
/** Deleting old buckets is a range scan: once every ten minutes is plenty. */
const PRUNE_EVERY_SECONDS = 600;
/** A gap shorter than a minute bucket is no gap. */
const MIN_GAP_SECONDS = 60;
const GAP_SEED: Record<CryptoCode, number> = { BTC: 0x6a9b, USDT: 0x7e7e };

const seconds = (ms: number) => Math.floor(ms / 1000);

export interface MarketDeps {
  repo: MarketRepository;
  priceFeed: PriceFeed;
  reference: ReferenceService;
  now: () => number;
}

/** A chart of `crypto` in the currency `code`; `field` names the input an unknown code blames. */
export interface ChartInput {
  crypto: CryptoCode;
  range: ChartRange;
  code: string;
  field?: string;
}

export function createMarketService({ repo, priceFeed, reference, now }: MarketDeps) {
  let lastPrunedAt = Number.NEGATIVE_INFINITY;

  const chart = (ctx: ServiceContext, { crypto, range, code, field }: ChartInput): ChartPoint[] => {
    const perUsd = reference.fiatPerUsd(ctx, { code, ...(field ? { field } : {}) });
    const { span, resolution, step } = CHART_RANGES[range];
    const at = seconds(now());
    const end = bucketStart(at, step);
    const points = repo.series({ crypto, resolution, step, from: end - span, to: at });
    // The chart ends at the price people see now, even between ticks or before the first one.
    if (points[points.length - 1]?.date === end) points.pop();
    points.push({ date: end, usd: priceFeed.usdPrice(crypto) });
    return points.map((p) => ({ date: p.date, rate: roundDecimal(p.usd * perUsd, CHART_DECIMALS[crypto]) }));
  };

  return {
    /** Writes the tick as the close of its minute, hour and day buckets; now and then drops old ones. */
    recordTick(tick: PriceTick) {
      const at = seconds(tick.at);
      const rows: PriceHistoryRow[] = cryptoCodes.flatMap((crypto) =>
        RESOLUTIONS.map((resolution) => ({
          crypto,
          resolution,
          at: bucketStart(at, resolution),
          usd: tick.usd[crypto],
        })),
      );
      const prune = at - lastPrunedAt >= PRUNE_EVERY_SECONDS;
      repo.write(rows, prune ? pruneCutoffs(at) : []);
      if (prune) lastPrunedAt = at;
    },

    /**
     * Sets the feed to the last persisted prices, so a restart continues the line instead of
     * jumping back to the built-in anchors. A simulated market also invents the time it was down
     * (a walk from the last price to now); a real one leaves the gap, because we do not know what
     * the market did, and the chart shows it as missing points.
     */
    resume(): Resumed {
      const last = cryptoCodes.map((crypto) => ({ crypto, row: repo.latest(crypto) }));
      const known = last.flatMap(({ crypto, row }) => (row ? [{ crypto, ...row }] : []));
      if (known.length === 0) return { from: undefined, filledSeconds: 0 };
      const at = seconds(now());
      const from = Math.min(...known.map((k) => k.at));
      const usd = { BTC: priceFeed.usdPrice('BTC'), USDT: priceFeed.usdPrice('USDT') };
      for (const k of known) usd[k.crypto] = k.usd;
      if (priceFeed.source !== 'simulated' || at - from < MIN_GAP_SECONDS) {
        priceFeed.resumeFrom({ at: from * 1000, usd });
        return { from, filledSeconds: 0 };
      }
      const rows: PriceHistoryRow[] = [];
      for (const k of known) {
        if (at - k.at < MIN_GAP_SECONDS) continue;
        const points = syntheticWalk({
          model: SIMULATED_MARKET[k.crypto],
          from: k.at,
          to: at,
          pinned: { side: 'from', usd: k.usd },
          // Seeded by where the gap starts: the same database resumes the same way.
          random: seededRandom(GAP_SEED[k.crypto] ^ k.at).next,
        });
        usd[k.crypto] = points[points.length - 1]?.usd ?? k.usd;
        for (const row of historyRows(points, at)) rows.push({ crypto: k.crypto, ...row });
      }
      repo.write(rows, pruneCutoffs(at));
      lastPrunedAt = at;
      priceFeed.resumeFrom({ at: at * 1000, usd });
      return { from, filledSeconds: at - from };
    },

    chart: (ctx: ServiceContext, input: ChartInput): ChartPoint[] => chart(ctx, input),

    /** What the calculator page needs in one call: the currency with its rate, and the BTC chart. */
    calculator(
      ctx: ServiceContext,
      { locale, code, range, field }: { locale: Locale; code: string; range: ChartRange; field?: string },
    ) {
      const currency = reference.getCurrency(ctx, { locale, code, ...(field ? { field } : {}) });
      return {
        currency,
        range,
        price: currency.rate.btc,
        chart: chart(ctx, { crypto: 'BTC', range, code, ...(field ? { field } : {}) }),
        updatedAt: seconds(priceFeed.updatedAt()),
      } satisfies CalculatorView;
    },

    cryptoFiatRates(_ctx: ServiceContext): CryptoFiatRates {
      const btc = priceFeed.usdPrice('BTC');
      const usdt = priceFeed.usdPrice('USDT');
      return {
        btcToUsd: roundDecimal(btc, 2),
        usdtToUsd: roundDecimal(usdt, 4),
        usdtToBtc: roundDecimal(usdt / btc, 8),
        btcToUsdt: roundDecimal(btc / usdt, 2),
        updatedAt: seconds(priceFeed.updatedAt()),
      };
    },
  };
}

export type MarketService = ReturnType<typeof createMarketService>;
