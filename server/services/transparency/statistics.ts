import type {
  DisputeFigures,
  GroupFigures,
  TransparencyMonth,
  TransparencyWindow,
} from '../../../src/lib/shared/views/transparency.ts';

// The arithmetic of the public dispute statistics (issue 24), kept apart from the SQL so it can be
// checked on made-up histories. A dispute is one opening (a party's `open_dispute` or a moderator's
// `reopen`); what follows it on the same trade, up to the next opening, is its story: the first
// moderator's word (a chat message or any act) answers it, a `resolve_for_*` decides it, and a
// release or cancel out of the open dispute means the parties settled it themselves.

/** Figures drawn from fewer disputes than this are withheld (decision 162). */
export const MINIMUM_DISPUTES = 5;
export const WINDOW_DAYS = [30, 365] as const;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

export interface DisputeOpening {
  /** The opening transition's row id: events after it belong to this dispute. */
  id: number;
  tradeId: number;
  at: number;
  group: string;
}

export interface TradeEvent {
  id: number;
  tradeId: number;
  action: string;
  actorRole: string;
  fromStatus: string | null;
  toStatus: string;
  at: number;
}

export interface ModeratorMessage {
  tradeId: number;
  at: number;
}

/** Trades started per group: in each window (by its days) and in each of the twelve months. */
export interface TradeCounts {
  group: string;
  byWindow: Record<(typeof WINDOW_DAYS)[number], number>;
  byMonth: number[];
}

export interface DisputeStory {
  at: number;
  group: string;
  firstResponseAt: number | null;
  decidedAt: number | null;
  winner: 'buyer' | 'seller' | null;
  settledByParties: boolean;
}

const isOpening = (e: TradeEvent) => e.toStatus === 'dispute_open' && e.fromStatus !== 'dispute_open';

/** Each opening's story, from the trade's later transitions and its moderators' messages. */
export function disputeStories(
  openings: DisputeOpening[],
  events: TradeEvent[],
  messages: ModeratorMessage[],
): DisputeStory[] {
  const eventsOf = groupBy(events, (e) => e.tradeId);
  const messagesOf = groupBy(messages, (m) => m.tradeId);
  return openings.map((opening) => {
    const later = (eventsOf.get(opening.tradeId) ?? []).filter((e) => e.id > opening.id).sort((a, b) => a.id - b.id);
    const next = later.findIndex(isOpening);
    const own = next === -1 ? later : later.slice(0, next);
    const until = next === -1 ? Number.POSITIVE_INFINITY : (later[next]?.at ?? Number.POSITIVE_INFINITY);
    const end = own.find((e) => e.fromStatus === 'dispute_open' && e.toStatus !== 'dispute_open');
    const decided = end?.action === 'resolve_for_buyer' || end?.action === 'resolve_for_seller' ? end : undefined;
    const responses = [
      ...own.filter((e) => e.actorRole === 'moderator').map((e) => e.at),
      ...(messagesOf.get(opening.tradeId) ?? []).filter((m) => m.at >= opening.at && m.at < until).map((m) => m.at),
    ];
    return {
      at: opening.at,
      group: opening.group,
      firstResponseAt: responses.length ? Math.min(...responses) : null,
      decidedAt: decided?.at ?? null,
      winner: decided ? (decided.action === 'resolve_for_buyer' ? 'buyer' : 'seller') : null,
      settledByParties: Boolean(end && !decided),
    };
  });
}

/** The figures of some disputes against the trades they came from. */
export function figuresOf(stories: DisputeStory[], trades: number): DisputeFigures {
  const disputes = stories.length;
  const withheld = disputes < MINIMUM_DISPUTES;
  const decided = stories.filter((s) => s.winner !== null);
  const forBuyer = decided.filter((s) => s.winner === 'buyer').length;
  const minutes = (times: number[]) => (withheld ? null : median(times.map((ms) => ms / MINUTE_MS)));
  const share = (n: number) => (withheld || decided.length === 0 ? null : round(n / decided.length, 3));
  return {
    trades,
    disputes,
    perThousandTrades: trades > 0 ? round((disputes * 1000) / trades, 1) : null,
    medianFirstResponseMinutes: minutes(
      stories.flatMap((s) => (s.firstResponseAt === null ? [] : [s.firstResponseAt - s.at])),
    ),
    medianDecisionMinutes: minutes(decided.map((s) => (s.decidedAt as number) - s.at)),
    decided: decided.length,
    forBuyerShare: share(forBuyer),
    forSellerShare: share(decided.length - forBuyer),
    settledByParties: stories.filter((s) => s.settledByParties).length,
    open: stories.filter((s) => s.winner === null && !s.settledByParties).length,
    withheld,
  };
}

/** Both windows, overall and per group (every group that had a trade or a dispute in the window). */
export function windowsOf(stories: DisputeStory[], counts: TradeCounts[], now: number): TransparencyWindow[] {
  return WINDOW_DAYS.map((days) => {
    const since = now - days * DAY_MS;
    const inWindow = stories.filter((s) => s.at >= since);
    const tradesOf = (group: string) => counts.find((c) => c.group === group)?.byWindow[days] ?? 0;
    const groups = [
      ...new Set([...counts.filter((c) => c.byWindow[days] > 0).map((c) => c.group), ...inWindow.map((s) => s.group)]),
    ]
      .sort()
      .map(
        (group): GroupFigures => ({
          group,
          ...figuresOf(
            inWindow.filter((s) => s.group === group),
            tradesOf(group),
          ),
        }),
      );
    const total = counts.reduce((sum, c) => sum + c.byWindow[days], 0);
    return { days, since, overall: figuresOf(inWindow, total), groups };
  });
}

/** The first instant (UTC) of each of the twelve calendar months ending with the current one, and the next. */
export function monthStarts(now: number): number[] {
  const today = new Date(now);
  return Array.from({ length: 13 }, (_, i) => Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 11 + i, 1));
}

/** Trades and disputes per calendar month, the current month last. */
export function monthsOf(stories: DisputeStory[], counts: TradeCounts[], now: number): TransparencyMonth[] {
  const starts = monthStarts(now);
  return starts.slice(0, 12).map((start, i) => {
    const end = starts[i + 1] as number;
    const trades = counts.reduce((sum, c) => sum + (c.byMonth[i] ?? 0), 0);
    const disputes = stories.filter((s) => s.at >= start && s.at < end).length;
    return {
      month: new Date(start).toISOString().slice(0, 7),
      trades,
      disputes,
      perThousandTrades: trades > 0 ? round((disputes * 1000) / trades, 1) : null,
    };
  });
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const value =
    sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  return round(value, 1);
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

function groupBy<T>(items: T[], key: (item: T) => number): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const item of items) {
    const list = map.get(key(item));
    if (list) list.push(item);
    else map.set(key(item), [item]);
  }
  return map;
}
