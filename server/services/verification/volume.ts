import { asDatabase, type DatabaseLike } from '../../../db/database.ts';

// How much a person traded, in US cents, since a moment: the trading limit's "used" part. The
// trades service records each trade's USD value at its start (`trades.usd_amount_cents`); every
// trade counts for both its buyer and its seller, except those cancelled before completing.

/** `(userId, sinceMs) → US cents` traded since then; injected, so tests and other sources can replace it. */
export type UsedVolumeSource = (userId: number, sinceMs: number) => number | Promise<number>;

const CANCELLED = "('cancelled_buyer', 'cancelled_seller', 'cancelled_system')";
// Two sums, one per side, so each reads its own (party, started_at) index of trades.
const USED_SQL = `SELECT (
  (SELECT coalesce(sum(usd_amount_cents), 0) FROM trades
    WHERE buyer_id = :userId AND started_at >= :since AND status NOT IN ${CANCELLED})
+ (SELECT coalesce(sum(usd_amount_cents), 0) FROM trades
    WHERE seller_id = :userId AND started_at >= :since AND status NOT IN ${CANCELLED})
) AS used`;

const HAS_TRADES = "SELECT 1 AS present FROM sqlite_master WHERE type = 'table' AND name = 'trades'";

/**
 * The default source: the `trades` table when the database has one (it is looked up once, on
 * first use), else nothing traded. A SQLite database from before the trades migration still
 * answers; a PostgreSQL one is created by one migration set, trades included.
 */
export function tradesVolumeSource(db: DatabaseLike): UsedVolumeSource {
  const database = asDatabase(db);
  let hasTrades: Promise<boolean> | undefined;
  const tradesExist = (): Promise<boolean> => {
    hasTrades ??=
      database.dialect === 'postgres'
        ? Promise.resolve(true)
        : database.sql.get(HAS_TRADES).then(
            (row) => row !== undefined,
            (error: unknown) => {
              hasTrades = undefined;
              throw error;
            },
          );
    return hasTrades;
  };
  return async (userId, sinceMs) => {
    if (!(await tradesExist())) return 0;
    const row = await database.sql.get<{ used: number | null }>(USED_SQL, [{ userId, since: sinceMs }]);
    return Number(row?.used ?? 0);
  };
}
