import { every, type JobObserver } from '../../jobs/every.ts';
import { immediate, type ServiceContext, systemContext } from '../context.ts';
import { systemLine } from './chat.ts';
import type { TradesParts } from './deps.ts';
import { counterpartOf, DEFAULT_DISPUTE_DEADLINES, TOP_DISPUTE_LEVEL } from './dispute-clock.ts';
import { announceDispute } from './dispute-events.ts';
import type { TradeRow } from './repository.ts';

// The dispute clocks' job on the jobs leader (issue 24; docs/decisions/155-dispute-escalation.md):
// a missed moderator deadline (take or decision) raises the dispute a level — back to every
// moderator, then to the administrators — and a missed counterpart answer is noted once. Each
// step is one transaction whose UPDATE names what it read, so a second run, or a second process
// that read the same row, changes nothing and tells nobody twice.

export const ESCALATION_BATCH = 100;

/** The counterpart let the answer's deadline pass: noted once, with a chat line; they are reminded. */
async function noteMissedAnswer({ repo, bus, now }: TradesParts, hash: string): Promise<boolean> {
  return immediate(repo.db, async (tx) => {
    const row = await repo.byHash(hash);
    if (!row) return false;
    const at = Math.max(now(), row.updatedAt);
    if (!(await repo.markAnswerLate({ id: row.id, at }))) return false;
    await systemLine(repo, row.id, 'trade.system.dispute_answer_missed', at);
    const updated = (await repo.byHash(hash)) as TradeRow;
    const counterpartId = counterpartOf(row)?.id ?? null;
    tx.afterCommit(() =>
      announceDispute(bus, updated, { kind: 'answer_missed', counterpartId, moderatorId: null, staffIds: [] }),
    );
    return true;
  });
}

/** One level up: nobody has it any more, a fresh take deadline, a trail row and the calls. */
async function escalate(parts: TradesParts, hash: string): Promise<boolean> {
  const { repo, bus, now, disputeDeadlines = DEFAULT_DISPUTE_DEADLINES } = parts;
  return immediate(repo.db, async (tx) => {
    const row = await repo.byHash(hash);
    if (!row || row.disputeLevel >= TOP_DISPUTE_LEVEL) return false;
    const at = Math.max(now(), row.updatedAt);
    const to = row.disputeLevel + 1;
    const step = { id: row.id, from: row.disputeLevel, to, at, takeDueAt: at + disputeDeadlines.takeMs };
    if (!(await repo.escalateDispute(step))) return false;
    await repo.insertTransition({
      tradeId: row.id,
      action: 'dispute_escalated',
      fromStatus: 'dispute_open',
      toStatus: 'dispute_open',
      actorId: null,
      actorRole: 'system',
      ledgerTransactionId: null,
      note: String(to),
      at,
    });
    await systemLine(repo, row.id, `trade.system.dispute_escalated_${to}`, at);
    const staffIds = await repo.staffIds(to >= TOP_DISPUTE_LEVEL);
    const updated = (await repo.byHash(hash)) as TradeRow;
    const moderatorId = row.disputeModeratorId;
    tx.afterCommit(() =>
      announceDispute(bus, updated, { kind: 'escalated', counterpartId: null, moderatorId, staffIds }),
    );
    return true;
  });
}

/** One pass over what is due now: how many answers were found missing and disputes escalated. */
export async function escalateDue(parts: TradesParts, _ctx: ServiceContext) {
  const at = parts.now();
  let answersMissed = 0;
  let escalated = 0;
  for (const hash of await parts.repo.disputesDueForAnswer(at, ESCALATION_BATCH)) {
    if (await noteMissedAnswer(parts, hash)) answersMissed += 1;
  }
  for (const hash of await parts.repo.disputesDueForEscalation(at, ESCALATION_BATCH)) {
    if (await escalate(parts, hash)) escalated += 1;
  }
  return { answersMissed, escalated };
}

/**
 * Runs escalateDue at once and every `intervalMs` as the system's `disputes` job (a pass still in
 * progress when the next is due lets that one go); returns the stop, which awaits the pass.
 */
export function startEscalationJob(
  parts: TradesParts,
  intervalMs: number,
  onError: (error: unknown) => void,
  observer?: JobObserver,
): () => Promise<void> {
  const ctx = systemContext('disputes');
  return every('dispute-escalation', intervalMs, () => escalateDue(parts, ctx), { onError, observer });
}
