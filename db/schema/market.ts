import { sql } from 'drizzle-orm';
import { check, integer, primaryKey, real, table, text } from './dialect.ts';

// Market data: the price of each crypto currency in US dollars over time. Fiat prices are derived
// with each fiat currency's USD rate (`fiat_currencies.usd_rate`), so one series per crypto
// serves all 154 currencies.
//
// One row per crypto, resolution and bucket: minute buckets for the last days, hour buckets for
// the last weeks, day buckets for ever. A tick writes the close of its bucket at each resolution
// (downsampling as it goes), and old fine-grained buckets are pruned.

export const priceHistory = table(
  'price_history',
  {
    /** `BTC` or `USDT`. */
    crypto: text('crypto').notNull(),
    /** Bucket length in seconds: 60, 3600 or 86400. */
    resolution: integer('resolution').notNull(),
    /** Bucket start, unix seconds, a multiple of `resolution`. */
    at: integer('at').notNull(),
    /** US dollars per unit at the bucket's last tick (its close). */
    usd: real('usd').notNull(),
  },
  (t) => [primaryKey({ columns: [t.crypto, t.resolution, t.at] }), check('price_history_usd_check', sql`${t.usd} > 0`)],
);
