// Months of statements: `YYYY-MM` in UTC, from the first millisecond of the month to the first of
// the next. A month's statement is given once the month has ended and SETTLE_MS more have passed.

/**
 * How long after a month's end its statement waits. A ledger transaction carries the time its
 * writer read before committing; on PostgreSQL a transaction retried after losing a race (decision
 * 096) commits a moment later than that time. Past this margin every transaction dated inside the
 * month has committed, so the month's numbers can no longer change.
 */
export const SETTLE_MS = 5 * 60_000;

export interface Month {
  period: string;
  /** Unix ms of the month's first instant, inclusive. */
  from: number;
  /** Unix ms of the next month's first instant, exclusive. */
  to: number;
}

export const PERIOD_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

const monthAt = (year: number, monthIndex: number): Month => {
  const from = Date.UTC(year, monthIndex, 1);
  const start = new Date(from);
  return {
    period: `${String(start.getUTCFullYear()).padStart(4, '0')}-${String(start.getUTCMonth() + 1).padStart(2, '0')}`,
    from,
    to: Date.UTC(year, monthIndex + 1, 1),
  };
};

/** The month `YYYY-MM` names, or undefined. */
export function parsePeriod(period: string): Month | undefined {
  const match = PERIOD_PATTERN.exec(period);
  if (!match) return undefined;
  return monthAt(Number(match[1]), Number(match[2]) - 1);
}

/** The month `at` falls in. */
export function monthOf(at: number): Month {
  const date = new Date(at);
  return monthAt(date.getUTCFullYear(), date.getUTCMonth());
}

/** The month before the one `at` falls in. */
export function previousMonth(at: number): Month {
  const date = new Date(at);
  return monthAt(date.getUTCFullYear(), date.getUTCMonth() - 1);
}

/** Whether the month's statement is final at `now`: ended, and settled (SETTLE_MS). */
export const isSettled = (month: Month, now: number) => now >= month.to + SETTLE_MS;

export const isoTime = (at: number) => new Date(at).toISOString();
