import { access } from '../../../db/access.ts';
import type { Db } from '../../../db/client.ts';

// How much a person traded, in US cents, since a moment: the trading limit's "used" part. The
// trades service records each trade's USD value at its start (`trades.usd_amount_cents`); every
// trade counts for both its buyer and its seller, except those cancelled before completing.

/** `(userId, sinceMs) → US cents` traded since then; injected, so tests and other sources can replace it. */
export type UsedVolumeSource = (userId: number, sinceMs: number) => number | Promise<number>;

const CANCELLED = "('cancelled_buyer', 'cancelled_seller', 'cancelled_system')";
// Two sums, one per side, so each reads its own (party, started_at) index of trades.
const USED_SQL = `SELECT
  (SELECT coalesce(sum(usd_amount_cents), 0) FROM trades
    WHERE buyer_id = :userId AND started_at >= :since AND status NOT IN ${CANCELLED})
+ (SELECT coalesce(sum(usd_amount_cents), 0) FROM trades
    WHERE seller_id = :userId AND started_at >= :since AND status NOT IN ${CANCELLED})`;

/**
 * The default source: the `trades` table when the database has one (it is looked up once, on
 * first use), else nothing traded. A database from before the trades migration still answers.
 */
export function tradesVolumeSource(db: Db): UsedVolumeSource {
  let read: ((userId: number, since: number) => number) | undefined;
  const lookUp = (userId: number, sinceMs: number): number => {
    if (!read) {
      const hasTrades = db.$client
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'trades'")
        .get();
      if (hasTrades) {
        const statement = db.$client.prepare<{ userId: number; since: number }, number>(USED_SQL).pluck();
        read = (id, since) => statement.get({ userId: id, since }) ?? 0;
      } else {
        read = () => 0;
      }
    }
    return read(userId, sinceMs);
  };
  return (userId, sinceMs) => access(db, () => lookUp(userId, sinceMs));
}
