import { and, asc, desc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import { priceHistory } from '../../../db/schema/index.ts';
import type { CryptoCode, PricePoint } from '../price-feed/price-feed.ts';
import type { Resolution } from './buckets.ts';

// price_history on either engine (db/database.ts); every method answers a promise.

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

// One point per step: the close of its last bucket (the row with the greatest `at` in each step).
// `at - at % step` stays integer even when step is bound as a real (SQLite).
const SERIES = `SELECT bucket, usd FROM (
    SELECT at - at % @step AS bucket, usd, row_number() OVER (PARTITION BY at - at % @step ORDER BY at DESC) AS rn
    FROM price_history
    WHERE crypto = @crypto AND resolution = @resolution AND at >= @from AND at <= @to
  ) closes
  WHERE rn = 1
  ORDER BY bucket`;

/** Rows per INSERT: 4 parameters each, well under either engine's limit (SQLite 32,766, PostgreSQL 65,535). */
const WRITE_CHUNK = 500;

export function createMarketRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const { orm } = database;
  // The finest bucket wins a tie: it is the one the last tick wrote most precisely.
  const latest = database.prepare(
    orm
      .select({ at: priceHistory.at, usd: priceHistory.usd })
      .from(priceHistory)
      .where(eq(priceHistory.crypto, p('crypto')))
      .orderBy(desc(priceHistory.at), asc(priceHistory.resolution))
      .limit(1),
  );
  // The minute close nearest before a moment, within a window (the 24 h change's reference price).
  const closeBefore = database.prepare(
    orm
      .select({ at: priceHistory.at, usd: priceHistory.usd })
      .from(priceHistory)
      .where(
        and(
          eq(priceHistory.crypto, p('crypto')),
          eq(priceHistory.resolution, 60),
          lte(priceHistory.at, p('at')),
          gte(priceHistory.at, p('since')),
        ),
      )
      .orderBy(desc(priceHistory.at))
      .limit(1),
  );
  const anyRow = database.prepare(orm.select({ at: priceHistory.at }).from(priceHistory).limit(1));

  return {
    /** Upserts the bucket closes and deletes old buckets, in one transaction (a savepoint inside the caller's). */
    write(
      rows: readonly PriceHistoryRow[],
      pruneBefore: readonly { resolution: Resolution; before: number }[] = [],
    ): Promise<void> {
      // The last row of a bucket wins, as one upsert after another did: PostgreSQL refuses one
      // INSERT … ON CONFLICT DO UPDATE that names the same key twice.
      const unique = [...new Map(rows.map((row) => [`${row.crypto}/${row.resolution}/${row.at}`, row])).values()];
      return database.sql.transaction(async () => {
        for (let i = 0; i < unique.length; i += WRITE_CHUNK) {
          await database.run(
            orm
              .insert(priceHistory)
              .values(unique.slice(i, i + WRITE_CHUNK))
              .onConflictDoUpdate({
                target: [priceHistory.crypto, priceHistory.resolution, priceHistory.at],
                set: { usd: sql`excluded.usd` },
              }),
          );
        }
        for (const { resolution, before } of pruneBefore) {
          await database.run(
            orm.delete(priceHistory).where(and(eq(priceHistory.resolution, resolution), lt(priceHistory.at, before))),
          );
        }
      });
    },
    series: async (query: SeriesQuery): Promise<PricePoint[]> =>
      (await database.sql.all<{ bucket: number; usd: number }>(SERIES, [query])).map((row) => ({
        date: Number(row.bucket),
        usd: row.usd,
      })),
    /** The most recent bucket close of `crypto`, at its bucket start. */
    latest: (crypto: CryptoCode) => latest.get({ crypto }),
    /** The last minute close of `crypto` at or before `at` and not before `since`, if any. */
    closeBefore: (crypto: CryptoCode, at: number, since: number) => closeBefore.get({ crypto, at, since }),
    isEmpty: async () => (await anyRow.get()) === undefined,
  };
}

export type MarketRepository = ReturnType<typeof createMarketRepository>;
