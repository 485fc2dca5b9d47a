import { afterEach, describe, expect, it, vi } from 'vitest';
import { createJob, every, type JobName, type JobObserver } from '../../server/jobs/every.ts';

// The jobs' runner (server/jobs/every.ts, decision 169): at once and on its interval, never two
// runs at once, a failure reported and the schedule kept, stop() awaiting the run in progress,
// and every run told to the observer by the job's name.

afterEach(() => {
  vi.useRealTimers();
});

type Seen = [JobName, boolean, number];

function recorder() {
  const runs: Seen[] = [];
  const started: [JobName, number][] = [];
  const observer: JobObserver = {
    started: (job, intervalMs) => started.push([job, intervalMs]),
    ran: (job, ok, at) => runs.push([job, ok, at]),
  };
  return { runs, started, observer };
}

/** A promise and its resolve, to hold a run open. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('every', () => {
  it('runs at once and every interval, and reports each run with its time', async () => {
    vi.useFakeTimers({ now: 1_000 });
    const { runs, started, observer } = recorder();
    let count = 0;
    const stop = every(
      'trade-expiry',
      5_000,
      async () => {
        count += 1;
      },
      { onError: () => {}, observer },
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(count).toBe(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(count).toBe(3);
    expect(started).toEqual([['trade-expiry', 5_000]]);
    expect(runs).toEqual([
      ['trade-expiry', true, 1_000],
      ['trade-expiry', true, 6_000],
      ['trade-expiry', true, 11_000],
    ]);
    await stop();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(count).toBe(3);
  });

  it('waits `firstInMs` for the first run when asked', async () => {
    vi.useFakeTimers({ now: 0 });
    let count = 0;
    const stop = every(
      'ledger-verification',
      60 * 60_000,
      async () => {
        count += 1;
      },
      {
        onError: () => {},
        firstInMs: 60_000,
      },
    );
    await vi.advanceTimersByTimeAsync(59_999);
    expect(count).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(count).toBe(1);
    await stop();
  });

  it('counts a failure, hands it to onError, and keeps running', async () => {
    vi.useFakeTimers({ now: 0 });
    const { runs, observer } = recorder();
    const errors: unknown[] = [];
    let count = 0;
    const stop = every(
      'exports',
      1_000,
      async () => {
        count += 1;
        if (count <= 2) throw new Error(`run ${count}`);
      },
      { onError: (error) => errors.push(error), observer },
    );
    await vi.advanceTimersByTimeAsync(3_000);
    expect(errors.map((error) => (error as Error).message)).toEqual(['run 1', 'run 2']);
    expect(runs.map(([, ok]) => ok)).toEqual([false, false, true, true]);
    await stop();
  });

  it('never overlaps runs: a tick while one is in progress passes, and stop() awaits it', async () => {
    vi.useFakeTimers({ now: 0 });
    const held = gate();
    let active = 0;
    let most = 0;
    let count = 0;
    const stop = every(
      'chain',
      100,
      async (term) => {
        count += 1;
        active += 1;
        most = Math.max(most, active);
        await held.opened;
        active -= 1;
        return term.stopped;
      },
      { onError: () => {} },
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(count).toBe(1);
    let stopped = false;
    const stopping = stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    held.open();
    await stopping;
    expect(stopped).toBe(true);
    expect(most).toBe(1);
  });

  it('tells a draining run it was stopped, so it ends between batches', async () => {
    let batches = 0;
    const stop = every(
      'trade-expiry',
      60_000,
      async (term) => {
        while (!term.stopped && batches < 1_000) {
          batches += 1;
          await new Promise((resolve) => setImmediate(resolve));
        }
      },
      { onError: () => {} },
    );
    await new Promise((resolve) => setImmediate(resolve));
    await stop();
    expect(batches).toBeGreaterThan(0);
    expect(batches).toBeLessThan(1_000);
  });
});

describe('createJob', () => {
  it('shares the run in progress with whoever asks meanwhile, and answers its result', async () => {
    const held = gate();
    let count = 0;
    const job = createJob(
      'notification-deliveries',
      async () => {
        count += 1;
        await held.opened;
        return count;
      },
      { onError: () => {} },
    );
    const first = job.run();
    const second = job.run();
    held.open();
    expect(await first).toBe(1);
    expect(await second).toBe(1);
    expect(await job.run()).toBe(2);
  });

  it('answers undefined for a failed run, never rejecting', async () => {
    const errors: unknown[] = [];
    const job = createJob(
      'proof-schedule',
      async () => {
        throw new Error('no');
      },
      { onError: (error) => errors.push(error) },
    );
    expect(await job.run()).toBeUndefined();
    expect(errors).toHaveLength(1);
  });

  it('with `again`, a wake-up during a run brings one more run after it (not one per wake-up)', async () => {
    const held = gate();
    let count = 0;
    const job = createJob(
      'webhook-deliveries',
      async () => {
        count += 1;
        if (count === 1) await held.opened;
      },
      { onError: () => {}, whenBusy: 'again' },
    );
    const first = job.run();
    void job.run();
    void job.run();
    held.open();
    await first;
    await vi.waitFor(() => expect(count).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(count).toBe(2);
  });

  it('settles `before` ahead of the first run of a start, and takes the observer given to start', async () => {
    const order: string[] = [];
    const { runs, observer } = recorder();
    const job = createJob(
      'notification-deliveries',
      async () => {
        order.push('run');
      },
      { onError: () => {} },
    );
    const before = new Promise<void>((resolve) =>
      setTimeout(() => {
        order.push('before');
        resolve();
      }, 5),
    );
    const stop = job.start(60_000, { before, observer });
    await vi.waitFor(() => expect(order).toEqual(['before', 'run']));
    await stop();
    expect(runs.map(([name, ok]) => [name, ok])).toEqual([['notification-deliveries', true]]);
    // A run asked for after the stop is its own: not told it was stopped.
    const drained = createJob('trade-expiry', async (term) => term.stopped, { onError: () => {} });
    await drained.start(60_000)();
    expect(await drained.run()).toBe(false);
  });
});
