import { every, type JobObserver } from '../../jobs/every.ts';
import { immediate, type ServiceContext, systemContext } from '../context.ts';
import type { StatementsDeps } from './deps.ts';
import { isSettled, type Month, previousMonth } from './period.ts';

// The monthly job (server/backend.ts runs it on the jobs' leader only, server/jobs/leadership.ts):
// once the last month has ended and settled, it records the month as closed (one row, written
// once whichever process gets there first) and tells each person with something to state that
// their statement is ready, in batches. A batch's notifications and the month's cursor are one
// transaction, so a leader that dies half way leaves the next one to continue where it stopped,
// and nobody is told twice. Who is told: whoever had a balance at the month's end or a movement in
// it; someone whose money all left before the month hears nothing.

const BATCH = 100;

export interface MonthlyRun {
  /** The month this run closed, if it closed one. */
  closed?: string;
  notified: number;
}

/**
 * Tells the next batch after user id `from`: the batch's notifications and the cursor's move are
 * one transaction. The count told; 0 when nobody is left; undefined when another run moved first.
 */
async function notifyBatch(
  deps: StatementsDeps,
  ctx: ServiceContext,
  month: Month,
  from: number,
): Promise<number | undefined> {
  const people = await deps.repo.peopleToTell(from, month, BATCH);
  const last = people.at(-1);
  if (last === undefined) {
    await deps.repo.finishNotified(month.period, deps.now());
    return 0;
  }
  return immediate(deps.repo.db, async () => {
    if (!(await deps.repo.advanceNotified(month.period, from, last))) return undefined;
    for (const userId of people) {
      await deps.notify(ctx, {
        userId,
        type: 'statement_ready',
        link: '/wallet',
        message: { key: 'statement_ready', params: { month: month.period } },
      });
    }
    return people.length;
  });
}

/** One run: closes last month when it is due, then tells whoever is left to tell about it. */
export async function runMonthlyJob(deps: StatementsDeps): Promise<MonthlyRun> {
  const now = deps.now();
  const month = previousMonth(now);
  if (!isSettled(month, now)) return { notified: 0 };
  const ctx = systemContext('statements');
  const closed = await deps.repo.closeMonth(month.period, now);
  let notified = 0;
  for (;;) {
    const row = await deps.repo.month(month.period);
    if (!row || row.notifiedAt !== null) break;
    const told = await notifyBatch(deps, ctx, month, row.notifiedThrough);
    if (!told) break;
    notified += told;
  }
  return { ...(closed ? { closed: month.period } : {}), notified };
}

/** Runs the job at once and every `everyMs`; returns the function that stops it (and awaits a run). */
export function startMonthlyJob(deps: StatementsDeps, everyMs: number, observer?: JobObserver): () => Promise<void> {
  const work = async () => {
    const run = await runMonthlyJob(deps);
    if (run.closed) deps.log.info(`Statements: ${run.closed} closed; ${run.notified} people told.`);
  };
  const onError = (error: unknown) => deps.log.error('Statements: the monthly job failed', error);
  return every('monthly-statements', everyMs, work, { onError, observer });
}
