import type { EndedSession } from '../services/accounts/session-end-log.ts';
import type { BusEvent } from './bus.ts';
import type { Awaitable } from './hub.ts';

// How the sockets of an ended session learn of it, on every process (docs/decisions/087-sockets-end-with-session.md, "Sockets
// end with their session"):
// - the session service publishes `session.ended` on the bus's internal `sessions` channel right
//   after the end commits, and every hub subscribes (with a shared bus, that crosses processes);
// - every delete from `sessions` also leaves a row in `session_revocations` (a trigger), which
//   each process polls here: it catches ends the bus cannot carry, such as `npm run admin --
//   user:ban` run in another process. A session seen twice is cut once; the second is a no-op.

/** Internal: no authoriser grants it to a socket. */
export const SESSIONS_CHANNEL = 'sessions';
export const SESSION_ENDED = 'session.ended';
export const SESSION_END_POLL_MS = 1000;

export function sessionEndedEvent(ended: readonly Pick<EndedSession, 'sessionPublicId'>[]): BusEvent {
  return { type: SESSION_ENDED, payload: { sessions: [...new Set(ended.map((e) => e.sessionPublicId))] } };
}

/** The session public ids a bus event ends; nothing for any other event (or a malformed one). */
export function endedSessionIds(event: BusEvent): string[] {
  if (event.type !== SESSION_ENDED) return [];
  const sessions = (event.payload as { sessions?: unknown } | null)?.sessions;
  return Array.isArray(sessions) ? sessions.filter((id): id is string => typeof id === 'string') : [];
}

export interface SessionEndSource {
  lastEndSeq(): Awaitable<number>;
  /** Ends after `seq`, oldest first, a page at a time. */
  endedSince(seq: number): Awaitable<EndedSession[]>;
}

/**
 * Polls the revocation log and hands each batch of ended sessions to `onEnded`. It starts at the
 * log's end (read at once): a process that just started has no sockets from before. A poll never
 * overlaps the previous one: a tick that comes while one still runs is skipped. Returns the stop
 * function.
 */
export function watchSessionEnds({
  source,
  onEnded,
  intervalMs = SESSION_END_POLL_MS,
  log = () => {},
}: {
  source: SessionEndSource;
  onEnded: (sessionPublicIds: string[]) => Awaitable<void>;
  intervalMs?: number;
  log?: (message: string, error?: unknown) => void;
}): () => void {
  let seq: number | undefined;
  let running = false;
  let stopped = false;
  const catchUp = async () => {
    // Until the log's end is known (a failed first read is tried again at the next tick).
    if (seq === undefined) {
      seq = await source.lastEndSeq();
      return;
    }
    while (!stopped) {
      const ended = await source.endedSince(seq);
      const last = ended.at(-1);
      if (!last) return;
      seq = last.seq;
      await onEnded([...new Set(ended.map((e) => e.sessionPublicId))]);
    }
  };
  const poll = () => {
    if (running || stopped) return;
    running = true;
    void catchUp()
      .catch((error: unknown) => log('realtime: could not read the ended sessions', error))
      .finally(() => {
        running = false;
      });
  };
  poll();
  const timer = setInterval(poll, intervalMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
