import { and, asc, desc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import { gated } from '../../../db/access.ts';
import type { Db } from '../../../db/client.ts';
import { priceHistory } from '../../../db/schema/index.ts';
import type { CryptoCode, PricePoint } from '../price-feed/price-feed.ts';
import type { Resolution } from './buckets.ts';

// price_history, prepared once per database; every method answers a promise (`gated`, db/access.ts).

const p = sql.placeholder;

// Types, not interfaces: prepared statements want index-signature-compatible records.
export type PriceHistoryRow = {
  crypto: CryptoCode;
  resolution: Resolution;
  at: number;
  usd: number;
};

export type SeriesQuery = {
  crypto: CryptoCode;
  resolution: Resolution;
  /** Seconds between points: a multiple of `resolution`. */
  step: number;
  from: number;
  to: number;
};

export function createMarketRepository(db: Db) {
  const upsert = db
    .insert(priceHistory)
    .values({
      crypto: sql`${p('crypto')}`,
      resolution: sql`${p('resolution')}`,
      at: sql`${p('at')}`,
      usd: sql`${p('usd')}`,
    })
    .onConflictDoUpdate({
      target: [priceHistory.crypto, priceHistory.resolution, priceHistory.at],
      set: { usd: sql`excluded.usd` },
    })
    .prepare();
  const prune = db
    .delete(priceHistory)
    .where(and(eq(priceHistory.resolution, p('resolution')), lt(priceHistory.at, p('before'))))
    .prepare();
  // One point per step: the close of its last bucket. SQLite takes a bare column (usd) from the
  // row that gave max(); `at - at % step` stays integer even when step is bound as a real.
  const date = sql<number>`${priceHistory.at} - ${priceHistory.at} % ${p('step')}`;
  const series = db
    .select({ date, usd: priceHistory.usd, last: sql<number>`max(${priceHistory.at})` })
    .from(priceHistory)
    .where(
      and(
        eq(priceHistory.crypto, p('crypto')),
        eq(priceHistory.resolution, p('resolution')),
        gte(priceHistory.at, p('from')),
        lte(priceHistory.at, p('to')),
      ),
    )
    .groupBy(date)
    .orderBy(date)
    .prepare();
  // The finest bucket wins a tie: it is the one the last tick wrote most precisely.
  const latest = db
    .select({ at: priceHistory.at, usd: priceHistory.usd })
    .from(priceHistory)
    .where(eq(priceHistory.crypto, p('crypto')))
    .orderBy(desc(priceHistory.at), asc(priceHistory.resolution))
    .limit(1)
    .prepare();
  const anyRow = db.select({ at: priceHistory.at }).from(priceHistory).limit(1).prepare();
  // One synchronous immediate transaction (a savepoint inside the caller's): nothing waits between its statements.
  const writeAll = db.$client.transaction(
    (rows: readonly PriceHistoryRow[], pruneBefore: readonly { resolution: Resolution; before: number }[]) => {
      for (const row of rows) upsert.run(row);
      for (const cutoff of pruneBefore) prune.run(cutoff);
    },
  );

  return gated(db, {
    /** Upserts the bucket closes and deletes old buckets, in one transaction. */
    write(rows: readonly PriceHistoryRow[], pruneBefore: readonly { resolution: Resolution; before: number }[] = []) {
      writeAll.immediate(rows, pruneBefore);
    },
    series: (query: SeriesQuery): PricePoint[] =>
      series.all(query).map((row) => ({ date: Number(row.date), usd: row.usd })),
    /** The most recent bucket close of `crypto`, at its bucket start. */
    latest: (crypto: CryptoCode) => latest.get({ crypto }),
    isEmpty: () => anyRow.get() === undefined,
  });
}

export type MarketRepository = ReturnType<typeof createMarketRepository>;
