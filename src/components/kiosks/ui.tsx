import { useEffect, useState } from 'react';
import { formatTime } from './format.ts';

// Small parts of the kiosk screen: a sale's time in the reader's clock, and a form's outcome line.

/** True once the island runs in the browser: server and first client render must agree. */
function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * A time (unix ms) as the reader's clock shows it. The server knows no time zone, so the server
 * render and the hydration render both use UTC; the reader's zone follows right after.
 */
export function SaleTime({ at, lang }: { at: number; lang: string }) {
  const hydrated = useHydrated();
  return <time dateTime={new Date(at).toISOString()}>{formatTime(at, lang, !hydrated)}</time>;
}

/** What a form's last request answered: a success line or an error line (or nothing yet). */
export type Outcome = { kind: 'done'; text: string } | { kind: 'error'; text: string } | null;

export function OutcomeLine({ outcome, testId }: { outcome: Outcome; testId: string }) {
  return (
    <div aria-live="polite">
      {outcome?.kind === 'done' && (
        <p className="alert alert-success" data-testid={`${testId}-done`}>
          {outcome.text}
        </p>
      )}
      {outcome?.kind === 'error' && (
        <p className="alert alert-error" role="alert" data-testid={`${testId}-error`}>
          {outcome.text}
        </p>
      )}
    </div>
  );
}
