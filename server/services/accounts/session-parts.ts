import type { EventBus } from '../../realtime/bus.ts';
import { SESSIONS_CHANNEL, sessionEndedEvent } from '../../realtime/session-ends.ts';
import type { AccountsRepository } from './repository.ts';
import { createSessionEndLog, type EndedSession, type SessionEndLog } from './session-end-log.ts';

export interface SessionDeps {
  repo: AccountsRepository;
  now: () => number;
  /** Where ends are announced; without one (the admin CLI) other processes find them by polling. */
  bus?: EventBus;
}

/** What every session verb is given: the deps, the end log, and the one way a session ends. */
export interface SessionParts extends SessionDeps {
  ends: SessionEndLog;
  /** Runs a delete from `sessions` and announces the sessions it ended. */
  ending<T>(remove: () => T): T;
}

export function sessionParts(deps: SessionDeps): SessionParts {
  const { repo, bus } = deps;
  const ends = createSessionEndLog(repo.db);

  /** What the log recorded after `from`, published once the caller's transaction committed. */
  const announce = (from: number) => {
    if (!bus) return;
    const publish = () => {
      for (let seq = from; ; ) {
        const ended: EndedSession[] = ends.since(seq);
        const last = ended.at(-1);
        if (!last) return;
        bus.publish(SESSIONS_CHANNEL, sessionEndedEvent(ended));
        seq = last.seq;
      }
    };
    // Inside a caller's transaction the log rows exist only if it commits: read them afterwards
    // (transactions are synchronous, so a microtask runs after the commit or the rollback).
    if (repo.db.$client.inTransaction) queueMicrotask(publish);
    else publish();
  };

  const ending = <T>(remove: () => T): T => {
    const from = ends.lastSeq();
    const result = remove();
    announce(from);
    return result;
  };

  return { ...deps, ends, ending };
}
