import { every, type JobObserver, type JobTerm } from '../../jobs/every.ts';
import { buildStep, type StepResult } from './build.ts';
import type { ExportsDeps } from './deps.ts';

// The exports job on the jobs' leader (server/jobs/start-jobs.ts): each tick sweeps expired files,
// then builds the oldest open export step by step for up to a slice of time, giving the event
// loop back between steps. A step that throws counts an attempt; the third fails the export and
// drops its chunks. All state is in the rows, so a new leader simply continues.

const MAX_ATTEMPTS = 3;
const SWEEP_BATCH = 50;

/** Deletes the files of ready exports past their expiry and marks them expired; answers how many. */
export async function sweepExpired(deps: ExportsDeps): Promise<number> {
  const rows = await deps.repo.expiredReady(deps.now(), SWEEP_BATCH);
  for (const row of rows) {
    await deps.storage.remove(row.userPublicId, row.publicId, row.format);
    await deps.repo.markExpired(row.id, deps.now());
  }
  return rows.length;
}

/** One step of the oldest open export; undefined when there is nothing to build. */
export async function stepOnce(deps: ExportsDeps): Promise<StepResult | 'failed' | undefined> {
  const row = await deps.repo.nextOpen();
  if (!row) return undefined;
  try {
    return await buildStep(deps, row);
  } catch (error) {
    deps.log.error(`Exports: a step of ${row.publicId} failed (attempt ${row.attempts + 1})`, error);
    await deps.repo.failed(row.id, MAX_ATTEMPTS, deps.now());
    const after = await deps.repo.byId(row.id);
    if (after?.status === 'failed') await deps.repo.dropParts(row.id);
    return 'failed';
  }
}

/** Steps until nothing is open (tests, the admin CLI); answers the steps taken. */
export async function runUntilIdle(deps: ExportsDeps, maxSteps = 100_000): Promise<number> {
  let steps = 0;
  while (steps < maxSteps && (await stepOnce(deps)) !== undefined) steps += 1;
  return steps;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs at once and every `everyMs`, each tick for up to `sliceMs`; returns the stop (which awaits a tick). */
export function startExportsJob(
  deps: ExportsDeps,
  everyMs: number,
  sliceMs = 250,
  observer?: JobObserver,
): () => Promise<void> {
  const work = async (term: JobTerm) => {
    await sweepExpired(deps);
    const until = Date.now() + sliceMs;
    while (!term.stopped && Date.now() < until) {
      const step = await stepOnce(deps);
      if (step === undefined) break;
      if (step === 'ready') deps.log.info('Exports: an export is ready.');
      await yieldToLoop();
    }
  };
  const onError = (error: unknown) => deps.log.error('Exports: the job failed', error);
  return every('exports', everyMs, work, { onError, observer });
}
