import { useEffect, useState } from 'react';
import { clock, secondsLeft } from './trade-logic.ts';
import type { T } from './ui.tsx';

// The payment window (spec section 2): time left to pay while the trade is funded and unpaid.
// At zero the server's expiry job cancels the trade; the page hears it, or asks (onElapsed).

export function Countdown({ expiresAt, t, onElapsed }: { expiresAt: number; t: T; onElapsed(): void }) {
  const [now, setNow] = useState(() => Date.now());
  const left = secondsLeft(expiresAt, now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    if (left > 0) return;
    // The job runs every few seconds: ask again shortly after the deadline.
    const timer = setTimeout(onElapsed, 6000);
    return () => clearTimeout(timer);
  }, [left, onElapsed]);
  // The server renders the clock a moment before the page hydrates: a second may pass in between,
  // so its text may differ once without anything being wrong.
  return (
    <p className={`trade-countdown${left < 300 ? ' is-urgent' : ''}`} role="timer" aria-live="off" data-countdown>
      {left > 0 ? (
        <>
          {t('trade.countdown.left')}{' '}
          <strong dir="ltr" suppressHydrationWarning>
            {clock(left)}
          </strong>
        </>
      ) : (
        t('trade.countdown.over')
      )}
    </p>
  );
}
