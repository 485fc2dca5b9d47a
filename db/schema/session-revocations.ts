import { integer, table, text } from './dialect.ts';

/**
 * One row per ended session, appended by the trigger `sessions_record_end` (hand-written in the
 * migration 0017_session_revocations.sql, drizzle-kit does not model triggers) on every delete
 * from `sessions`, whoever deletes: logout, password change, ban by the admin CLI, a reported
 * device, expiry. Every server process polls it by `seq` (server/realtime/session-ends.ts) and
 * cuts the sockets those sessions authorised; rows older than a day are pruned.
 */
export const sessionRevocations = table('session_revocations', {
  /** AUTOINCREMENT: never reused after a prune, and in commit order (SQLite has one writer). */
  seq: integer('seq').primaryKey({ autoIncrement: true }),
  /** `sessions.public_id` (`ses_…`): what sockets and push keys remember, never the token's hash. */
  sessionPublicId: text('session_public_id').notNull(),
  /** No foreign key: a user's deletion cascades to their sessions and so writes rows here too. */
  userId: integer('user_id').notNull(),
  /** Unix milliseconds, SQLite's clock (the trigger has no other). */
  endedAt: integer('ended_at').notNull(),
});
