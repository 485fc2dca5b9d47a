// One runner for the jobs leader's periodic jobs (issue 25; docs/decisions/169-job-runner.md).
// Each job used to carry its own timer loop; this is that loop once: runs never overlap, the timer
// never keeps the process alive, stop() waits for the run in progress so the lead is handed over
// cleanly, and every run is reported to an observer (the metrics, server/observability/metrics.ts)
// by the job's name, so services count their runs without importing prom-client.

/** The jobs, a fixed set: the metrics' label values (never built from data). */
export const JOB_NAMES = [
  'chain',
  'trade-expiry',
  'dispute-escalation',
  'proof-schedule',
  'notification-deliveries',
  'webhook-deliveries',
  'monthly-statements',
  'exports',
  'ledger-verification',
] as const;

export type JobName = (typeof JOB_NAMES)[number];

/** Who hears of each job's start and runs (the metrics); nothing by default. */
export interface JobObserver {
  /** The job was started with this interval (the staleness alert compares against it). */
  started(job: JobName, intervalMs: number): void;
  /** A run ended, well or with an error, at `at` (unix ms). */
  ran(job: JobName, ok: boolean, at: number): void;
}

export const unobserved: JobObserver = { started: () => {}, ran: () => {} };

/** What a run can see of its job: whether the current start was stopped (a draining run ends early). */
export interface JobTerm {
  readonly stopped: boolean;
}

export interface JobOptions {
  /** A run that threw: logged here; the job keeps its schedule. */
  onError: (error: unknown) => void;
  observer?: JobObserver | undefined;
  /**
   * A run asked for while one is in progress: `share` answers the one in progress (a timer tick
   * simply passes); `again` also runs once more after it, for what was queued meanwhile.
   */
  whenBusy?: 'share' | 'again';
  /** The clock of the last-success time; tests pass their own. */
  now?: () => number;
}

export interface StartOptions {
  /** The first run's delay: 0 (the default) runs at once, then every interval. */
  firstInMs?: number;
  /** Settles before the first run (work the job must do once per start, e.g. marking what a stopped process left). */
  before?: Promise<unknown>;
  /** Hears of the runs from this start on (a job created before the metrics existed, as the services' are). */
  observer?: JobObserver | undefined;
}

export interface Job<T> {
  /** A run now, or the one in progress; resolves with its result, undefined when it failed (never rejects). */
  run(): Promise<T | undefined>;
  /** Runs every `intervalMs` (unref'd timers); the returned stop awaits the run in progress. */
  start(intervalMs: number, options?: StartOptions): () => Promise<void>;
}

/** A job: `work` run on demand or on a timer, never two runs of it at once. */
export function createJob<T>(name: JobName, work: (term: JobTerm) => Promise<T>, options: JobOptions): Job<T> {
  const { onError, whenBusy = 'share', now = Date.now } = options;
  let inFlight: Promise<T | undefined> | undefined;
  let again = false;
  let term = { stopped: false };
  let before: Promise<unknown> = Promise.resolve();
  let observer = options.observer ?? unobserved;

  const once = async (current: JobTerm): Promise<T | undefined> => {
    try {
      await before;
      const result = await work(current);
      observer.ran(name, true, now());
      return result;
    } catch (error) {
      observer.ran(name, false, now());
      onError(error);
      return undefined;
    }
  };

  const run = (): Promise<T | undefined> => {
    if (inFlight !== undefined) {
      if (whenBusy === 'again') again = true;
      return inFlight;
    }
    const current = term;
    inFlight = once(current).finally(() => {
      inFlight = undefined;
      // The follow-up belongs to the same start: a stopped job hands nothing more to the next leader's time.
      const follow = again && !current.stopped;
      again = false;
      if (follow) void run();
    });
    return inFlight;
  };

  return {
    run,
    start(intervalMs, { firstInMs = 0, before: first, observer: given } = {}) {
      if (given) observer = given;
      const current = { stopped: false };
      term = current;
      if (first) before = first.catch(() => {});
      observer.started(name, intervalMs);
      const tick = () => void run();
      const timer = setInterval(tick, intervalMs);
      timer.unref();
      const delayed = firstInMs > 0 ? setTimeout(tick, firstInMs) : undefined;
      delayed?.unref();
      if (firstInMs <= 0) tick();
      return async () => {
        current.stopped = true;
        // Runs asked for after the stop (tests, the CLI) are not part of this start.
        if (term === current) term = { stopped: false };
        clearInterval(timer);
        if (delayed) clearTimeout(delayed);
        await inFlight;
      };
    },
  };
}

/** Runs `work` at once (or after `firstInMs`) and every `intervalMs`; returns the stop, which awaits the run in progress. */
export function every<T>(
  name: JobName,
  intervalMs: number,
  work: (term: JobTerm) => Promise<T>,
  options: JobOptions & StartOptions,
): () => Promise<void> {
  return createJob(name, work, options).start(intervalMs, options);
}
