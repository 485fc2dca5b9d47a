import { useEffect, useState } from 'react';

// The server's clock, as the trade page reads it: deadlines (the payment window, the wait before a
// dispute) are the server's times, and a browser whose clock is off by minutes would show a
// button the server refuses, or hide one it allows. The page renders with the server's time;
// the difference to this browser's clock is measured once, against when the page's first byte
// arrived (Navigation Timing), so a slow hydration adds nothing to it. Whatever the estimate, the
// server decides: a deadline only makes the page ask it (useDeadline).

/** Milliseconds to add to this browser's clock to read the server's. */
function offsetFrom(serverNow: number): number {
  const clientNow = Date.now();
  // How long ago the page's first byte arrived, on the monotonic clock (unknown: 0, a little late).
  const [entry] = (performance.getEntriesByType?.('navigation') ?? []) as PerformanceNavigationTiming[];
  const since = entry ? performance.now() - entry.responseStart : 0;
  const elapsed = since > 0 && since < 60_000 ? since : 0;
  return serverNow - (clientNow - elapsed);
}

/**
 * The server's time now, ticking every `tickMs`: the page's render time on the server and in the
 * hydration pass (both render the same), the browser's clock corrected by the offset after.
 */
export function useServerClock(serverNow: number, tickMs = 1000): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    const offset = offsetFrom(serverNow);
    const tick = () => setNow(Date.now() + offset);
    tick();
    const timer = setInterval(tick, tickMs);
    return () => clearInterval(timer);
  }, [serverNow, tickMs]);
  return now;
}

/** How often a deadline asks the server again while it still says "not yet". */
const RETRIES = 20;

/**
 * Calls `onReached` once the server's clock passes `at` (unix seconds), then every `retryMs`
 * while the caller stays mounted (at most RETRIES times): the server decides, and a browser clock
 * a little ahead of the offset's estimate only asks a moment early.
 */
export function useDeadline(at: number | null, now: number, onReached: () => void, retryMs = 3000): void {
  const due = at !== null && now >= at * 1000;
  useEffect(() => {
    if (!due) return;
    let asked = 0;
    const ask = () => {
      asked += 1;
      if (asked > RETRIES) clearInterval(timer);
      else onReached();
    };
    const timer = setInterval(ask, retryMs);
    ask();
    return () => clearInterval(timer);
  }, [due, onReached, retryMs]);
}
