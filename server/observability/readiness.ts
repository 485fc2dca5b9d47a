import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SqlClient } from '../../db/sql-client.ts';

// What /readyz checks before a load balancer sends this process traffic (issue 25): the database
// answers, Redis answers when configured, every migration this build carries is applied, and the
// deployment's jobs have a leader (on PostgreSQL, some process holds the advisory lock; on SQLite,
// this process always leads). /healthz only says the process is alive.

export type CheckResult = { ok: true; ms: number } | { ok: false; ms: number; problem: string };

export interface Readiness {
  ready: boolean;
  checks: Record<string, CheckResult>;
}

export interface ReadinessSources {
  sql: SqlClient;
  /** The build's SQLite migrations folder; PostgreSQL's sits beside it with `-pg` appended. */
  migrationsFolder: string;
  /** Name of the jobs' advisory lock on PostgreSQL (server/jobs/leadership.ts). */
  jobsLock: string;
  leads(): boolean;
  /** PING Redis; absent without REDIS_URL. */
  pingRedis?(): Promise<unknown>;
  /** A failed check, with its reason: for the log (the endpoint does not show why). */
  onProblem?(check: string, problem: string): void;
}

/** A check may take this long before it counts as failed: a probe must answer quickly. */
const CHECK_TIMEOUT_MS = 2_000;

async function timed(check: () => Promise<string | undefined>): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS} ms`), CHECK_TIMEOUT_MS);
  });
  const problem = await Promise.race([check(), timeout])
    .catch((error: unknown) => (error instanceof Error ? error.message : String(error)))
    .finally(() => clearTimeout(timer));
  const ms = Math.round((performance.now() - started) * 10) / 10;
  return problem === undefined ? { ok: true, ms } : { ok: false, ms, problem };
}

/** The newest migration this build carries (drizzle-kit's journal), as drizzle records it. */
function newestMigrationMillis(folder: string): number {
  const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

export function readinessChecker({ sql, migrationsFolder, jobsLock, leads, pingRedis, onProblem }: ReadinessSources) {
  const postgres = sql.dialect === 'postgres';
  const expected = newestMigrationMillis(postgres ? `${migrationsFolder}-pg` : migrationsFolder);
  const migrationsTable = postgres ? 'drizzle.__drizzle_migrations' : '__drizzle_migrations';

  const checks: Record<string, () => Promise<string | undefined>> = {
    database: async () => {
      await sql.get('SELECT 1 AS one');
      return undefined;
    },
    migrations: async () => {
      const row = await sql.get<{ newest: number | string | null }>(
        `SELECT max(created_at) AS newest FROM ${migrationsTable}`,
      );
      const applied = Number(row?.newest ?? 0);
      return applied >= expected ? undefined : 'this build carries migrations the database lacks';
    },
    jobsLeader: async () => {
      if (!postgres || leads()) return undefined;
      // A session-level advisory lock on one bigint key: objsubid 1, low 32 bits in objid.
      const row = await sql.get<{ held: number | string }>(
        `SELECT count(*) AS held FROM pg_locks
          WHERE locktype = 'advisory' AND granted AND objsubid = 1
            AND objid = (hashtext(?)::bigint & 4294967295)::oid`,
        [jobsLock],
      );
      return Number(row?.held ?? 0) > 0 ? undefined : 'no process holds the jobs lock';
    },
  };
  if (pingRedis) {
    checks.redis = async () => {
      await pingRedis();
      return undefined;
    };
  }

  return async (): Promise<Readiness> => {
    const names = Object.keys(checks);
    const results = await Promise.all(names.map((name) => timed(checks[name] as () => Promise<string | undefined>)));
    const entries = names.map((name, i) => [name, results[i] as CheckResult] as const);
    for (const [name, result] of entries) if (!result.ok) onProblem?.(name, result.problem);
    return { ready: results.every((result) => result.ok), checks: Object.fromEntries(entries) };
  };
}
