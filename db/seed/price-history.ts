import { createMarketRepository, type PriceHistoryRow } from '../../server/services/market/repository.ts';
import { historyRows, syntheticWalk } from '../../server/services/market/synthetic-history.ts';
import { cryptoCodes } from '../../server/services/price-feed/price-feed.ts';
import { SIMULATED_MARKET } from '../../server/services/price-feed/walk.ts';
import type { Db } from '../client.ts';
import { seededRandom } from './random.ts';

// A year of price history for a fresh install, so every chart range is full on the first page
// view: the simulated market walked backwards from today's anchor prices (one year of day buckets,
// 40 days of hour buckets, two days of minute buckets; ≈ 8,400 rows). Same seed, same walk.

const HISTORY_SECONDS = 365 * 86_400;
const SEEDS = { BTC: 0xb7c, USDT: 0x05d7 } as const;

export async function hasPriceHistory(db: Db): Promise<boolean> {
  return !(await createMarketRepository(db).isEmpty());
}

/** Writes the history ending at `nowMs` in one transaction; answers the number of rows. */
export async function seedPriceHistory(db: Db, nowMs: number = Date.now()): Promise<number> {
  const now = Math.floor(nowMs / 1000);
  const rows: PriceHistoryRow[] = cryptoCodes.flatMap((crypto) => {
    const model = SIMULATED_MARKET[crypto];
    const points = syntheticWalk({
      model,
      from: now - HISTORY_SECONDS,
      to: now,
      pinned: { side: 'to', usd: model.anchor },
      random: seededRandom(SEEDS[crypto]).next,
    });
    return historyRows(points, now).map((row) => ({ crypto, ...row }));
  });
  await createMarketRepository(db).write(rows);
  return rows.length;
}
