import { clock, secondsLeft } from './trade-logic.ts';
import type { T } from './ui.tsx';
import { useDeadline, useServerClock } from './use-server-clock.ts';

// The payment window (spec section 2): time left to pay while the trade is funded and unpaid, by
// the server's clock (use-server-clock.ts). At zero the server's expiry job cancels the trade; the
// page hears it, or asks (onElapsed) until the server says so.

export function Countdown({
  expiresAt,
  serverNow,
  t,
  onElapsed,
}: {
  expiresAt: number;
  /** The server's time (unix ms) when it rendered the page. */
  serverNow: number;
  t: T;
  onElapsed(): void;
}) {
  const now = useServerClock(serverNow);
  const left = secondsLeft(expiresAt, now);
  // The expiry job runs every few seconds: ask a little after the deadline, and again.
  useDeadline(expiresAt + 6, now, onElapsed, 6000);
  return (
    <p className={`trade-countdown${left < 300 ? ' is-urgent' : ''}`} role="timer" aria-live="off" data-countdown>
      {left > 0 ? (
        <>
          {t('trade.countdown.left')} <strong dir="ltr">{clock(left)}</strong>
        </>
      ) : (
        t('trade.countdown.over')
      )}
    </p>
  );
}
