import type { Database } from '../../../db/database.ts';

// The SQL of a dispute's clocks (dispute-clock.ts, take.ts, escalation.ts), portable to SQLite and
// PostgreSQL. Every change names what it read (the status, the level, who took it, the deadline
// passed), so a second process or a second run of the job that read the same row changes nothing.

/** The party who did not open the dispute, in SQL. */
const COUNTERPART = 'CASE WHEN t.dispute_opened_by = t.buyer_id THEN t.seller_id ELSE t.buyer_id END';
/** The counterpart wrote (or sent a file, which writes a line) since the dispute opened. */
const ANSWERED = `EXISTS (SELECT 1 FROM trade_messages m
  WHERE m.trade_id = t.id AND m.author_id = ${COUNTERPART} AND m.created_at >= t.disputed_at)`;
/** The moderators' deadline now running: the decision's once taken, else the take's. */
const MODERATOR_DUE = 'COALESCE(t.dispute_decision_due_at, t.dispute_take_due_at)';

const START_CLOCK = `UPDATE trades SET dispute_answer_due_at = @answerDueAt, dispute_answer_late_at = NULL,
    dispute_take_due_at = @takeDueAt, dispute_decision_due_at = @decisionDueAt,
    dispute_moderator_id = @moderatorId, dispute_taken_at = @takenAt, dispute_level = 0
  WHERE id = @id AND status = 'dispute_open'`;
const TAKE = `UPDATE trades SET dispute_moderator_id = @moderatorId, dispute_taken_at = @at,
    dispute_decision_due_at = @decisionDueAt, version = version + 1, updated_at = @at
  WHERE id = @id AND status = 'dispute_open' AND dispute_moderator_id IS NULL AND dispute_level = @level`;
const ESCALATE = `UPDATE trades SET dispute_level = @to, dispute_moderator_id = NULL, dispute_taken_at = NULL,
    dispute_take_due_at = @takeDueAt, dispute_decision_due_at = NULL, version = version + 1, updated_at = @at
  WHERE id = @id AND status = 'dispute_open' AND dispute_level = @from
    AND COALESCE(dispute_decision_due_at, dispute_take_due_at) <= @at`;
const ANSWER_LATE = `UPDATE trades SET dispute_answer_late_at = @at, version = version + 1, updated_at = @at
  WHERE id = @id AND id IN (SELECT t.id FROM trades t WHERE t.id = @id AND t.status = 'dispute_open'
    AND t.dispute_answer_late_at IS NULL AND t.dispute_answer_due_at <= @at AND NOT ${ANSWERED})`;

const DUE_ANSWERS = `SELECT t.hash FROM trades t
  WHERE t.status = 'dispute_open' AND t.dispute_answer_late_at IS NULL AND t.dispute_answer_due_at <= @at
    AND NOT ${ANSWERED}
  ORDER BY t.dispute_answer_due_at LIMIT @limit`;
const DUE_ESCALATIONS = `SELECT t.hash FROM trades t
  WHERE t.status = 'dispute_open' AND t.dispute_level < 2 AND ${MODERATOR_DUE} <= @at
  ORDER BY ${MODERATOR_DUE} LIMIT @limit`;
const ANSWERED_AT = `SELECT MIN(created_at) AS at FROM trade_messages
  WHERE trade_id = @tradeId AND author_id = @authorId AND created_at >= @since`;
const STAFF = `SELECT id FROM users WHERE status = 'active' AND role IN ('moderator', 'admin')
  AND (@adminsOnly = 0 OR role = 'admin') ORDER BY id`;
const STAFF_ROLE = "SELECT role FROM users WHERE id = ? AND status = 'active' AND role IN ('moderator', 'admin')";

/** The queue's order: overdue first, then escalated, then the nearest deadline, then the oldest. */
export const DISPUTE_QUEUE_ORDER = `CASE WHEN ${MODERATOR_DUE} <= @now THEN 0 ELSE 1 END, t.dispute_level DESC,
  COALESCE(${MODERATOR_DUE}, t.disputed_at), t.disputed_at, t.id`;

export interface ClockStart {
  id: number;
  answerDueAt: number | null;
  takeDueAt: number | null;
  decisionDueAt: number | null;
  moderatorId: number | null;
  takenAt: number | null;
}

export function disputeClockStatements({ sql }: Database) {
  const changed = async (text: string, args: Record<string, unknown>) => (await sql.run(text, [args])).changes === 1;
  const hashes = async (text: string, at: number, limit: number) =>
    (await sql.all<{ hash: string }>(text, [{ at, limit }])).map((row) => row.hash);
  return {
    /** Inside the transition that opened (or reopened) the dispute. */
    startClock: (start: ClockStart) => sql.run(START_CLOCK, [start]),
    /** False when someone took it first, it was escalated meanwhile, or it is no longer open. */
    takeDispute: (take: { id: number; moderatorId: number; at: number; decisionDueAt: number; level: number }) =>
      changed(TAKE, take),
    /** False when the deadline is no longer passed at this level (another run escalated it). */
    escalateDispute: (step: { id: number; from: number; to: number; at: number; takeDueAt: number }) =>
      changed(ESCALATE, step),
    /** False when the counterpart answered, or the miss was already noted. */
    markAnswerLate: (mark: { id: number; at: number }) => changed(ANSWER_LATE, mark),
    disputesDueForAnswer: (at: number, limit: number) => hashes(DUE_ANSWERS, at, limit),
    disputesDueForEscalation: (at: number, limit: number) => hashes(DUE_ESCALATIONS, at, limit),
    /** When `authorId` first wrote in the trade since `since` (unix ms), or null. */
    answeredAt: async (tradeId: number, authorId: number, since: number): Promise<number | null> => {
      const row = await sql.get<{ at: number | string | null }>(ANSWERED_AT, [{ tradeId, authorId, since }]);
      return row?.at === null || row?.at === undefined ? null : Number(row.at);
    },
    /** Active moderators and administrators, or the administrators only. */
    staffIds: async (adminsOnly: boolean): Promise<number[]> =>
      (await sql.all<{ id: number }>(STAFF, [{ adminsOnly: adminsOnly ? 1 : 0 }])).map((row) => Number(row.id)),
    /** `admin` or `moderator` for active staff, else null. */
    staffRole: async (userId: number): Promise<'admin' | 'moderator' | null> =>
      (await sql.get<{ role: 'admin' | 'moderator' }>(STAFF_ROLE, [userId]))?.role ?? null,
  };
}
