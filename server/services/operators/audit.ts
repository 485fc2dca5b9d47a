import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import type { OperatorOutcome, OperatorTargetType } from '../../../db/schema/index.ts';

// The operators' audit log (db/schema/operators.ts): one row per action or refused action, written
// by the console's verbs and the admin CLI, in the transaction of the change it records. Rows are
// only ever inserted and read; the database refuses UPDATE and DELETE on the table.

/** Who acts: an operator signed in to the console, or the command line (its operating-system user). */
export type AuditActor = { type: 'user'; publicId: string; name: string } | { type: 'cli'; name: string };

/** What every row names besides its actor. */
export interface AuditEntry {
  action: string;
  outcome?: OperatorOutcome;
  targetType: OperatorTargetType;
  targetId: string | null;
  reason?: string | null;
  details?: Record<string, unknown>;
  requestId?: string | undefined;
}

export interface AuditRow {
  id: number;
  actorType: 'user' | 'cli';
  actorId: string | null;
  actorName: string;
  action: string;
  outcome: OperatorOutcome;
  targetType: OperatorTargetType;
  targetId: string | null;
  reason: string | null;
  details: Record<string, unknown> | null;
  requestId: string | null;
  createdAt: number;
}

/** A page of the log, newest first, and whether an older page exists. */
export interface AuditFilter {
  /** `usr_…` of an operator, or `cli` for every command-line row. */
  operator?: string | undefined;
  target?: string | undefined;
  action?: string | undefined;
  page: number;
  pageSize: number;
}

const INSERT = `INSERT INTO operator_audit (actor_type, actor_id, actor_name, action, outcome, target_type, target_id,
    reason, details, request_id, created_at)
  VALUES (@actorType, @actorId, @actorName, @action, @outcome, @targetType, @targetId, @reason, @details, @requestId,
    @createdAt)`;
const COLUMNS = `id, actor_type AS actorType, actor_id AS actorId, actor_name AS actorName, action, outcome,
  target_type AS targetType, target_id AS targetId, reason, details, request_id AS requestId,
  created_at AS createdAt`;
const LAST_OF_ACTION = `SELECT ${COLUMNS} FROM operator_audit WHERE action = ? AND outcome = 'done'
  ORDER BY id DESC LIMIT 1`;

type StoredRow = Omit<AuditRow, 'details'> & { details: string | null };

const parsed = (row: StoredRow): AuditRow => ({
  ...row,
  details: row.details === null ? null : (JSON.parse(row.details) as Record<string, unknown>),
});

/** The filter as SQL: each given field narrows, in a fixed order so each shape prepares once. */
function whereOf(filter: AuditFilter): { text: string; args: unknown[] } {
  const parts: string[] = [];
  const args: unknown[] = [];
  if (filter.operator === 'cli') parts.push("actor_type = 'cli'");
  else if (filter.operator !== undefined) {
    parts.push('actor_id = ?');
    args.push(filter.operator);
  }
  if (filter.target !== undefined) {
    parts.push('target_id = ?');
    args.push(filter.target);
  }
  if (filter.action !== undefined) {
    parts.push('action = ?');
    args.push(filter.action);
  }
  return { text: parts.length > 0 ? `WHERE ${parts.join(' AND ')}` : '', args };
}

export function createAuditLog(db: DatabaseLike, now: () => number) {
  const { sql } = asDatabase(db);
  return {
    /** One row; inside the caller's transaction when it holds one (the change it records). */
    async record(actor: AuditActor, entry: AuditEntry): Promise<void> {
      await sql.run(INSERT, [
        {
          actorType: actor.type,
          actorId: actor.type === 'user' ? actor.publicId : null,
          actorName: actor.name,
          action: entry.action,
          outcome: entry.outcome ?? 'done',
          targetType: entry.targetType,
          targetId: entry.targetId,
          reason: entry.reason ?? null,
          details: entry.details === undefined ? null : JSON.stringify(entry.details),
          requestId: entry.requestId ?? null,
          createdAt: now(),
        },
      ]);
    },

    /** Newest first; one row more than the page is read to know whether another page follows. */
    async list(filter: AuditFilter): Promise<{ rows: AuditRow[]; hasMore: boolean }> {
      const { text, args } = whereOf(filter);
      const rows = await sql.all<StoredRow>(
        `SELECT ${COLUMNS} FROM operator_audit ${text} ORDER BY id DESC LIMIT ? OFFSET ?`,
        [...args, filter.pageSize + 1, (filter.page - 1) * filter.pageSize],
      );
      return { rows: rows.slice(0, filter.pageSize).map(parsed), hasMore: rows.length > filter.pageSize };
    },

    /** The latest completed row of `action` (the last ledger check), if any. */
    async lastOf(action: string): Promise<AuditRow | undefined> {
      const row = await sql.get<StoredRow>(LAST_OF_ACTION, [action]);
      return row ? parsed(row) : undefined;
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
