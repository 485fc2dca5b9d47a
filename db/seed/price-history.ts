import { immediate } from '../../server/services/context.ts';
import type { PriceHistoryRow } from '../../server/services/market/repository.ts';
import { historyRows, syntheticWalk } from '../../server/services/market/synthetic-history.ts';
import { cryptoCodes } from '../../server/services/price-feed/price-feed.ts';
import { SIMULATED_MARKET } from '../../server/services/price-feed/walk.ts';
import { asDatabase, type DatabaseLike } from '../database.ts';
import { priceHistory } from '../schema/index.ts';
import { seededRandom } from './random.ts';

// A year of price history for a fresh install, so every chart range is full on the first page
// view: the simulated market walked backwards from today's anchor prices (one year of day buckets,
// 40 days of hour buckets, two days of minute buckets; ≈ 8,400 rows). Same seed, same walk.

const HISTORY_SECONDS = 365 * 86_400;
const SEEDS = { BTC: 0xb7c, USDT: 0x05d7 } as const;

/** Rows per statement: 4,000 parameters; every full chunk reuses one statement text. */
const ROWS_PER_INSERT = 1000;

/** An existing bucket takes the new close, as the market repository's write does. */
const upsertText = (count: number) =>
  `INSERT INTO price_history (crypto, resolution, at, usd) VALUES ${Array(count).fill('(?, ?, ?, ?)').join(', ')}
   ON CONFLICT (crypto, resolution, at) DO UPDATE SET usd = excluded.usd`;

export async function hasPriceHistory(db: DatabaseLike): Promise<boolean> {
  const database = asDatabase(db);
  return (await database.get(database.orm.select({ at: priceHistory.at }).from(priceHistory).limit(1))) !== undefined;
}

/** Writes the history ending at `nowMs` in one transaction, many rows to a statement; answers the number of rows. */
export async function seedPriceHistory(db: DatabaseLike, nowMs: number = Date.now()): Promise<number> {
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
  const database = asDatabase(db);
  await immediate(database, async () => {
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      const chunk = rows.slice(i, i + ROWS_PER_INSERT);
      const args = chunk.flatMap((row) => [row.crypto, row.resolution, row.at, row.usd]);
      await database.sql.run(upsertText(chunk.length), args);
    }
  });
  return rows.length;
}
