import type { EventBus } from '../../realtime/bus.ts';
import { SESSIONS_CHANNEL, sessionEndedEvent } from '../../realtime/session-ends.ts';
import type { SharedStore } from '../../shared-store.ts';
import { immediate } from '../context.ts';
import type { AccountsRepository } from './repository.ts';
import { createSessionEndLog, type EndedSession, type SessionEndLog } from './session-end-log.ts';
import { createReplacedSessions, type ReplacedSessions } from './session-replaced.ts';

export interface SessionDeps {
  repo: AccountsRepository;
  now: () => number;
  /** Where ends are announced; without one (the admin CLI) other processes find them by polling. */
  bus?: EventBus;
  /** Where replaced sessions are remembered for a minute (session-replaced.ts); the admin CLI has none. */
  store?: SharedStore;
}

/** What every session verb is given: the deps, the end log, and the one way a session ends. */
export interface SessionParts extends SessionDeps {
  /** The end log's statements (the deletes run inside `ending`'s transaction). */
  ends: SessionEndLog;
  /**
   * Runs a delete from `sessions` (statements of `ends`, or repository calls) and announces the sessions it ended once that committed.
   */
  ending<T>(remove: () => Promise<T> | T): Promise<T>;
  /** Sessions replaced a moment ago, whose late answers must not clear the new cookie. */
  replaced: ReplacedSessions;
}

export function sessionParts(deps: SessionDeps): SessionParts {
  const { repo, bus } = deps;
  const ends = createSessionEndLog(repo.db);

  /** What the log recorded after `from` (read inside the transaction that wrote it). */
  const endedAfter = async (from: number): Promise<EndedSession[][]> => {
    const batches: EndedSession[][] = [];
    for (let seq = from; ; ) {
      const ended = await ends.since(seq);
      const last = ended.at(-1);
      if (!last) return batches;
      batches.push(ended);
      seq = last.seq;
    }
  };

  // One transaction (a savepoint inside a caller's): the log's position, the delete and the ends
  // it logged are read together, and published only once the outermost transaction committed;
  // a rollback announces nothing.
  const ending = <T>(remove: () => Promise<T> | T): Promise<T> =>
    immediate(repo.db, async (tx) => {
      const from = await ends.lastSeq();
      const result = await remove();
      if (bus) {
        const batches = await endedAfter(from);
        if (batches.length > 0) {
          tx.afterCommit(() => {
            for (const ended of batches) bus.publish(SESSIONS_CHANNEL, sessionEndedEvent(ended));
          });
        }
      }
      return result;
    });

  return { ...deps, ends, ending, replaced: createReplacedSessions(deps.store) };
}
