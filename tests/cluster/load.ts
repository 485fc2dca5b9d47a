// A bounded load from a few concurrent clients, and what each request came to. Used to kill a
// process while money moves: a request counts as acknowledged only when its answer said so.

export interface LoadOutcome<T> {
  /** What each acknowledged request returned, in the order the answers came. */
  acknowledged: T[];
  /** Every other answer: HTTP statuses, or `network` when no answer came at all. */
  refused: (number | 'network')[];
}

export interface Load<T> {
  /** Resolves once `count` requests were acknowledged (or the load ended first). */
  acknowledgedAtLeast(count: number): Promise<void>;
  /** Resolves when every request was sent and answered. */
  done: Promise<LoadOutcome<T>>;
}

/**
 * Sends `total` requests, `clients` at a time. `request(i)` answers the acknowledged value, or a
 * status (or `network`) for a request the server did not acknowledge.
 */
export function runLoad<T>(
  total: number,
  clients: number,
  request: (index: number) => Promise<{ ok: true; value: T } | { ok: false; status: number | 'network' }>,
): Load<T> {
  const outcome: LoadOutcome<T> = { acknowledged: [], refused: [] };
  const waiting = new Set<() => void>();
  let next = 0;
  const client = async () => {
    while (next < total) {
      const index = next++;
      const answer = await request(index).catch(() => ({ ok: false as const, status: 'network' as const }));
      if (answer.ok) outcome.acknowledged.push(answer.value);
      else outcome.refused.push(answer.status);
      for (const wake of waiting) wake();
    }
  };
  let finished = false;
  const done = Promise.all(Array.from({ length: clients }, client)).then(() => {
    finished = true;
    for (const wake of waiting) wake();
    return outcome;
  });
  return {
    done,
    acknowledgedAtLeast: (count) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (outcome.acknowledged.length < count && !finished) return;
          waiting.delete(check);
          resolve();
        };
        waiting.add(check);
        check();
      }),
  };
}
