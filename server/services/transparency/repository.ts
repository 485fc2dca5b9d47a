import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import {
  type DisputeOpening,
  type ModeratorMessage,
  monthStarts,
  type TradeCounts,
  type TradeEvent,
  WINDOW_DAYS,
} from './statistics.ts';

// What the public dispute statistics read (issue 24): trades per payment-method group, and the
// dispute openings of the last year with what followed them. Portable SQL for both engines; each
// question is one scan, and the service asks them at most once per cache period.

const DAY_MS = 86_400_000;
const GROUP_OF_TRADE = `JOIN payment_methods pm ON pm.id = t.payment_method_id JOIN payment_groups g ON g.id = pm.group_id`;
const OPENING = `tt.to_status = 'dispute_open' AND (tt.from_status IS NULL OR tt.from_status <> 'dispute_open')`;
/** The trades with an opening since the first parameter. */
const DISPUTED_TRADES = `SELECT tt.trade_id FROM trade_transitions tt WHERE ${OPENING} AND tt.at >= ?`;

export interface TransparencyData {
  counts: TradeCounts[];
  openings: DisputeOpening[];
  events: TradeEvent[];
  messages: ModeratorMessage[];
}

export function createTransparencyRepository(db: DatabaseLike) {
  const { sql } = asDatabase(db);

  /** One scan of the year's trades, counted into both windows and the twelve months. */
  async function tradeCounts(now: number, since: number): Promise<TradeCounts[]> {
    const months = monthStarts(now);
    const monthColumns = months
      .slice(0, 12)
      .map((_, i) => `sum(CASE WHEN t.started_at >= ? AND t.started_at < ? THEN 1 ELSE 0 END) AS m${i}`);
    const windowColumns = WINDOW_DAYS.map((days) => `sum(CASE WHEN t.started_at >= ? THEN 1 ELSE 0 END) AS w${days}`);
    const rows = await sql.all<Record<string, number | string>>(
      `SELECT g.slug AS slug, ${[...windowColumns, ...monthColumns].join(', ')}
       FROM trades t ${GROUP_OF_TRADE} WHERE t.started_at >= ? GROUP BY g.slug`,
      [
        ...WINDOW_DAYS.map((days) => now - days * DAY_MS),
        ...months.slice(0, 12).flatMap((start, i) => [start, months[i + 1] as number]),
        Math.min(since, months[0] as number),
      ],
    );
    return rows.map((row) => ({
      group: String(row.slug),
      byWindow: { 30: Number(row.w30 ?? 0), 365: Number(row.w365 ?? 0) },
      byMonth: months.slice(0, 12).map((_, i) => Number(row[`m${i}`] ?? 0)),
    }));
  }

  return {
    /** Everything the statistics need since `since` (the longest window's start). */
    async read(now: number, since: number): Promise<TransparencyData> {
      return sql.transaction(async () => {
        const counts = await tradeCounts(now, since);
        const openings = await sql.all<DisputeOpening>(
          `SELECT tt.id AS id, tt.trade_id AS tradeId, tt.at AS at, g.slug AS "group"
           FROM trade_transitions tt JOIN trades t ON t.id = tt.trade_id ${GROUP_OF_TRADE}
           WHERE ${OPENING} AND tt.at >= ? ORDER BY tt.id`,
          [since],
        );
        const events = await sql.all<TradeEvent>(
          `SELECT id, trade_id AS tradeId, action, actor_role AS actorRole, from_status AS fromStatus,
             to_status AS toStatus, at
           FROM trade_transitions WHERE trade_id IN (${DISPUTED_TRADES}) AND at >= ? ORDER BY trade_id, id`,
          [since, since],
        );
        const messages = await sql.all<ModeratorMessage>(
          `SELECT trade_id AS tradeId, created_at AS at FROM trade_messages
           WHERE author_role = 'moderator' AND trade_id IN (${DISPUTED_TRADES}) AND created_at >= ?`,
          [since, since],
        );
        const numbers = <T extends object>(rows: T[], keys: (keyof T)[]) =>
          rows.map((row) => {
            const copy = { ...row };
            for (const key of keys) copy[key] = Number(row[key]) as T[keyof T];
            return copy;
          });
        return {
          counts,
          openings: numbers(openings, ['id', 'tradeId', 'at']),
          events: numbers(events, ['id', 'tradeId', 'at']),
          messages: numbers(messages, ['tradeId', 'at']),
        };
      });
    },
  };
}

export type TransparencyRepository = ReturnType<typeof createTransparencyRepository>;
