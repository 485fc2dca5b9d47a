import { useId } from 'react';
import { tIsolated } from '../../lib/isolated.tsx';
import type { DisputeClockView } from '../../lib/shared/views/trades.ts';
import { clock, nextDeadline, secondsLeft, type TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';
import { useDeadline, useServerClock } from './use-server-clock.ts';

// The clocks of an open dispute (issue 24; docs/decisions/154-dispute-deadlines.md), which both
// parties and the moderator see: the counterpart's answer, a moderator's take, the decision of
// the one who took it, each with the time left by the server's clock, or overdue; and whether the
// dispute was escalated. When a deadline passes the page asks the server, whose job escalates.

/** The escalation job runs every 15 s: ask a little after a deadline, and again. */
const AFTER_DEADLINE_S = 20;

export function DisputeClock({
  trade,
  me,
  serverNow,
  t,
  onElapsed,
}: {
  trade: TradeView;
  /** The reader's username: "your answer", "your decision". */
  me: string;
  serverNow: number;
  t: T;
  onElapsed(): void;
}) {
  const titleId = useId();
  const now = useServerClock(serverNow);
  const dispute = trade.dispute;
  const next = nextDeadline(dispute.clocks);
  useDeadline(next === null ? null : next + AFTER_DEADLINE_S, now, onElapsed, AFTER_DEADLINE_S * 1000);
  if (trade.status !== 'dispute_open' || (dispute.clocks.length === 0 && dispute.escalationLevel === 0)) return null;

  return (
    <section
      className="trade-dispute-clock card"
      aria-labelledby={titleId}
      data-dispute-clock
      data-level={dispute.escalationLevel}
    >
      <h2 id={titleId} className="h4">
        {t('trade.clock.title')}
      </h2>
      {dispute.escalationLevel > 0 && (
        <p className="alert alert-error" data-escalated>
          {t(`trade.clock.level${Math.min(dispute.escalationLevel, 2)}`)}
        </p>
      )}
      {trade.role === 'moderator' && dispute.answerMissed && dispute.counterpart && (
        <p className="alert alert-error" data-answer-missed>
          {tIsolated(t, 'trade.clock.answerMissed', { username: dispute.counterpart })}
        </p>
      )}
      <ul className="trade-clocks">
        {dispute.clocks.map((c) => (
          <li key={c.step} data-clock={c.step} data-overdue={c.overdue ? '' : undefined}>
            <span className="trade-clock-label">{clockLabel(c, me, t)}</span>
            <ClockTime dueAt={c.dueAt} now={now} t={t} />
          </li>
        ))}
      </ul>
      {dispute.moderator && (
        <p className="muted" data-taken-by>
          {tIsolated(t, 'trade.clock.takenBy', { username: dispute.moderator })}
        </p>
      )}
    </section>
  );
}

/** Who the clock waits on, in words; the reader's own clock says "your". */
function clockLabel(c: DisputeClockView, me: string, t: T) {
  if (c.step === 'answer') {
    return c.username === me
      ? t('trade.clock.answerYou')
      : tIsolated(t, 'trade.clock.answer', { username: c.username ?? '' });
  }
  if (c.step === 'take') return t(c.waitingOn === 'administrators' ? 'trade.clock.takeAdmins' : 'trade.clock.take');
  return c.username === me
    ? t('trade.clock.decisionYou')
    : tIsolated(t, 'trade.clock.decision', { username: c.username ?? '' });
}

/** Time left by the server's clock, or overdue; a timer that does not announce every second. */
function ClockTime({ dueAt, now, t }: { dueAt: number; now: number; t: T }) {
  const left = secondsLeft(dueAt, now);
  return (
    <span className={`trade-clock-time${left === 0 ? ' is-overdue' : ''}`} role="timer" aria-live="off">
      {left > 0 ? (
        <>
          {t('trade.clock.left')} <strong dir="ltr">{clock(left)}</strong>
        </>
      ) : (
        <strong>{t('trade.clock.overdue')}</strong>
      )}
    </span>
  );
}
