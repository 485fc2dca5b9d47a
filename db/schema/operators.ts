import { sql } from 'drizzle-orm';
import { check, index, integer, table, text } from './dialect.ts';

// The operators' audit log (issue 25, "Act"; docs/decisions/150-operator-console-access.md): one
// row per thing an operator did or was refused for a bad second factor, from the console's API
// (server/routes/operators.ts) or the `npm run admin` commands. Append-only in the database:
// triggers in the migration (both engines) refuse every UPDATE and DELETE, so not even a bug in
// our code can rewrite who did what. People are named by public id, not row id, so a row reads
// the same after a database copy and needs no foreign key to outlive what it names.

/** Who acted: an operator signed in to the console, or someone at the server's command line. */
export const OPERATOR_ACTOR_TYPES = ['user', 'cli'] as const;
export type OperatorActorType = (typeof OPERATOR_ACTOR_TYPES)[number];

/** What an audit row is about. */
export const OPERATOR_TARGET_TYPES = ['user', 'trade', 'sendout', 'ledger'] as const;
export type OperatorTargetType = (typeof OPERATOR_TARGET_TYPES)[number];

export const OPERATOR_OUTCOMES = ['done', 'refused'] as const;
export type OperatorOutcome = (typeof OPERATOR_OUTCOMES)[number];

export const operatorAudit = table(
  'operator_audit',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    actorType: text('actor_type', { enum: OPERATOR_ACTOR_TYPES }).notNull(),
    /** The operator's `usr_…` for the console; null at the command line. */
    actorId: text('actor_id'),
    /** The operator's username, or the operating-system user who ran the command. */
    actorName: text('actor_name').notNull(),
    /** `ban`, `suspend`, `sendout.cancel`, `ledger.verify`, … (server/services/operators/audit.ts). */
    action: text('action').notNull(),
    outcome: text('outcome', { enum: OPERATOR_OUTCOMES }).notNull(),
    targetType: text('target_type', { enum: OPERATOR_TARGET_TYPES }).notNull(),
    /** `usr_…`, a trade hash, a sendout's `chn_…`; null for the ledger as a whole. */
    targetId: text('target_id'),
    /** Why, in the operator's words; required for every change from the console. */
    reason: text('reason'),
    /** What came of it (sessions ended, the ledger check's result, why it was refused), as JSON. */
    details: text('details', { mode: 'json' }).$type<Record<string, unknown>>(),
    /** The request's X-Request-Id (server/observability/log.ts), tying the row to its log lines. */
    requestId: text('request_id'),
    /** Unix ms. */
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    index('operator_audit_actor_idx').on(t.actorId, t.id),
    index('operator_audit_target_idx').on(t.targetId, t.id),
    index('operator_audit_action_idx').on(t.action, t.id),
    check('operator_audit_actor_check', sql`(${t.actorType} = 'user') = (${t.actorId} IS NOT NULL)`),
  ],
);
