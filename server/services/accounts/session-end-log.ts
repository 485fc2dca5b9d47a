import type { Db } from '../../../db/client.ts';

// The durable record of ended sessions: `session_revocations`, appended by the trigger
// `sessions_record_end` on every delete from `sessions` (migration 0017). The session service
// reads it back to announce what it ended; each server process polls it to notice ends written
// by other processes, the admin CLI among them (server/realtime/session-ends.ts).

/** A session that ended: `seq` orders the log, `sessionPublicId` is what sockets remember. */
export interface EndedSession {
  seq: number;
  sessionPublicId: string;
  userId: number;
}

/** Long enough for a stalled process to catch up; the log is a signal, not an audit trail. */
const KEEP_MS = 24 * 60 * 60 * 1000;
const READ_LIMIT = 1000;

export function createSessionEndLog(db: Db) {
  const client = db.$client;
  const lastSeq = client.prepare<[], number>('SELECT coalesce(max(seq), 0) FROM session_revocations').pluck();
  const since = client.prepare<[number, number], EndedSession>(
    `SELECT seq, session_public_id AS sessionPublicId, user_id AS userId
     FROM session_revocations WHERE seq > ? ORDER BY seq LIMIT ?`,
  );
  // The trigger stamps rows with SQLite's clock, so the prune reads the same clock.
  const prune = client.prepare<[number]>(
    `DELETE FROM session_revocations WHERE ended_at < CAST(unixepoch('subsec') * 1000 AS INTEGER) - ?`,
  );
  const live = client
    .prepare<[string, number], number>('SELECT 1 FROM sessions WHERE public_id = ? AND expires_at > ?')
    .pluck();
  const deleteById = client.prepare<[string]>('DELETE FROM sessions WHERE id = ?');
  const deleteByIds = client.transaction((ids: readonly string[]) =>
    ids.reduce((ended, id) => ended + deleteById.run(id).changes, 0),
  );

  return {
    lastSeq: (): number => lastSeq.get() ?? 0,
    /** Ends after `seq`, oldest first, at most READ_LIMIT: the caller reads on from the last. */
    since: (seq: number): EndedSession[] => since.all(seq, READ_LIMIT),
    prune: (): number => prune.run(KEEP_MS).changes,
    isLive: (sessionPublicId: string, now: number): boolean => live.get(sessionPublicId, now) === 1,
    deleteSessions: (ids: readonly string[]): number => (ids.length === 0 ? 0 : deleteByIds(ids)),
  };
}

export type SessionEndLog = ReturnType<typeof createSessionEndLog>;
