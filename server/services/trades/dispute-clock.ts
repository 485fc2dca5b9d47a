import type { DisputeClocksView, DisputeClockView, TradeActorRole } from '../../../src/lib/shared/views/trades.ts';
import type { TradeRow, TradesRepository } from './repository.ts';

// A dispute's three deadlines (issue 24; docs/decisions/154-dispute-deadlines.md, 155 for the
// ladder): the counterpart answers within `answerMs` of the opening, a moderator takes it within
// `takeMs`, and the one who took it decides within `decisionMs` of taking it. What the clocks are
// when a dispute opens, and how they read in the trade view.

export interface DisputeDeadlines {
  answerMs: number;
  takeMs: number;
  decisionMs: number;
}

/** DISPUTE_ANSWER_MINUTES, DISPUTE_TAKE_MINUTES and DISPUTE_DECISION_MINUTES as they default. */
export const DEFAULT_DISPUTE_DEADLINES: DisputeDeadlines = {
  answerMs: 720 * 60_000,
  takeMs: 240 * 60_000,
  decisionMs: 1440 * 60_000,
};

/** The highest level: with the administrators, where a missed deadline escalates no further. */
export const TOP_DISPUTE_LEVEL = 2;

/**
 * The clocks of a dispute that just opened, inside its transition: a party's opening gives the
 * other party `answerMs` and the moderators `takeMs`; a moderator's reopening is taken by them at
 * once (no counterpart: both parties were called back by the moderator) and runs to a decision.
 */
export function startDisputeClock(
  repo: Pick<TradesRepository, 'startClock'>,
  deadlines: DisputeDeadlines,
  start: { tradeId: number; actorId: number | null; actorRole: TradeActorRole; at: number },
) {
  const { tradeId: id, at } = start;
  if (start.actorRole === 'moderator') {
    const decisionDueAt = at + deadlines.decisionMs;
    return repo.startClock({
      id,
      answerDueAt: null,
      takeDueAt: null,
      decisionDueAt,
      moderatorId: start.actorId,
      takenAt: at,
    });
  }
  return repo.startClock({
    id,
    answerDueAt: at + deadlines.answerMs,
    takeDueAt: at + deadlines.takeMs,
    decisionDueAt: null,
    moderatorId: null,
    takenAt: null,
  });
}

const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

/** The party who must answer: the one who did not open it; null when a moderator reopened it. */
export function counterpartOf(row: TradeRow): { id: number; username: string } | null {
  if (row.disputeAnswerDueAt === null || row.disputeOpenedBy === null) return null;
  return row.disputeOpenedBy === row.buyerId
    ? { id: row.sellerId, username: row.sellerUsername }
    : { id: row.buyerId, username: row.buyerUsername };
}

/** What an open dispute waits for now, most pressing first within each step. */
function runningClocks(row: TradeRow, answeredAt: number | null, now: number): DisputeClockView[] {
  if (row.status !== 'dispute_open') return [];
  const clocks: DisputeClockView[] = [];
  const clock = (
    step: DisputeClockView['step'],
    waitingOn: DisputeClockView['waitingOn'],
    username: string | null,
    due: number,
  ) => clocks.push({ step, waitingOn, username, dueAt: Math.floor(due / 1000), overdue: now >= due });
  const counterpart = counterpartOf(row);
  if (counterpart && answeredAt === null && row.disputeAnswerDueAt !== null) {
    clock(
      'answer',
      row.disputeOpenedBy === row.buyerId ? 'seller' : 'buyer',
      counterpart.username,
      row.disputeAnswerDueAt,
    );
  }
  if (row.disputeTakenAt === null && row.disputeTakeDueAt !== null) {
    clock('take', row.disputeLevel >= TOP_DISPUTE_LEVEL ? 'administrators' : 'moderators', null, row.disputeTakeDueAt);
  }
  if (row.disputeTakenAt !== null && row.disputeDecisionDueAt !== null) {
    clock('decision', 'moderator', row.disputeModeratorUsername, row.disputeDecisionDueAt);
  }
  return clocks;
}

/** The dispute's deadlines as the trade view carries them (src/lib/shared/views/trades.ts). */
export function disputeClocksView(row: TradeRow, answeredAt: number | null, now: number): DisputeClocksView {
  return {
    counterpart: counterpartOf(row)?.username ?? null,
    answerDueAt: seconds(row.disputeAnswerDueAt),
    answeredAt: seconds(answeredAt),
    answerMissed: row.disputeAnswerLateAt !== null,
    takeDueAt: seconds(row.disputeTakeDueAt),
    takenAt: seconds(row.disputeTakenAt),
    moderator: row.disputeModeratorUsername,
    decisionDueAt: seconds(row.disputeDecisionDueAt),
    escalationLevel: row.disputeLevel,
    clocks: runningClocks(row, answeredAt, now),
  };
}

/** The counterpart's first line since the dispute opened (the view's `answeredAt`), or null. */
export async function answeredAtOf(repo: Pick<TradesRepository, 'answeredAt'>, row: TradeRow): Promise<number | null> {
  const counterpart = counterpartOf(row);
  if (!counterpart || row.disputedAt === null) return null;
  return repo.answeredAt(row.id, counterpart.id, row.disputedAt);
}

/**
 * May this staff member decide (or take) the dispute as it stands: at the top level only an
 * administrator; once taken, only the one who took it, or an administrator.
 */
export function staffMayDecide(row: TradeRow, userId: number, staffRole: 'admin' | 'moderator' | null): boolean {
  if (staffRole === null) return false;
  if (staffRole === 'admin') return true;
  if (row.disputeLevel >= TOP_DISPUTE_LEVEL) return false;
  return row.disputeModeratorId === null || row.disputeModeratorId === userId;
}
