import { asDatabase, type DatabaseLike } from '../../../db/database.ts';

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

const LAST_SEQ = 'SELECT COALESCE(max(seq), 0) AS seq FROM session_revocations';
const SINCE = `SELECT seq, session_public_id AS sessionPublicId, user_id AS userId
  FROM session_revocations WHERE seq > ? ORDER BY seq LIMIT ?`;
const PRUNE = 'DELETE FROM session_revocations WHERE ended_at < ?';
const LIVE = 'SELECT 1 AS live FROM sessions WHERE public_id = ? AND expires_at > ?';
const DELETE_BY_ID = 'DELETE FROM sessions WHERE id = ?';

export function createSessionEndLog(db: DatabaseLike) {
  const { sql } = asDatabase(db);
  return {
    lastSeq: async (): Promise<number> => (await sql.get<{ seq: number }>(LAST_SEQ))?.seq ?? 0,
    /** Ends after `seq`, oldest first, at most READ_LIMIT: the caller reads on from the last. */
    since: (seq: number): Promise<EndedSession[]> => sql.all<EndedSession>(SINCE, [seq, READ_LIMIT]),
    // The trigger stamps rows with the database's clock; a day's margin makes this one's skew moot.
    prune: async (): Promise<number> => (await sql.run(PRUNE, [Date.now() - KEEP_MS])).changes,
    isLive: async (sessionPublicId: string, now: number): Promise<boolean> =>
      (await sql.get<{ live: number }>(LIVE, [sessionPublicId, now])) !== undefined,
    /** One transaction (a savepoint inside the caller's). */
    deleteSessions: async (ids: readonly string[]): Promise<number> =>
      ids.length === 0
        ? 0
        : sql.transaction(async () => {
            let ended = 0;
            for (const id of ids) ended += (await sql.run(DELETE_BY_ID, [id])).changes;
            return ended;
          }),
  };
}

export type SessionEndLog = ReturnType<typeof createSessionEndLog>;
