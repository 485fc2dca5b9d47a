import { readdirSync, readFileSync } from 'node:fs';

// CPU time spent by processes, from /proc (Linux): what each request costs the application and
// the database, for the capacity model of docs/scaling.md. Clock ticks are 1/100 s on Linux.

const TICK_MS = 10;

function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** Every PostgreSQL server process (the postmaster and its backends). */
function postgresPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') pids.push(Number(entry));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return pids;
}

/** CPU milliseconds used so far by `pids`, and by each PostgreSQL server process. */
export function cpuSnapshot(pids: readonly number[]) {
  return {
    app: pids.reduce((sum, pid) => sum + cpuMsOf(pid), 0),
    postgres: new Map(postgresPids().map((pid) => [pid, cpuMsOf(pid)])),
  };
}

/**
 * CPU milliseconds per request between two snapshots. A backend that ended in between took its
 * time with it, so the database's share is a lower bound (the servers' pools keep theirs open).
 */
export function cpuPerRequest(
  before: ReturnType<typeof cpuSnapshot>,
  after: ReturnType<typeof cpuSnapshot>,
  requests: number,
): { appMs: number; postgresMs: number } {
  let postgres = 0;
  for (const [pid, ms] of after.postgres) postgres += ms - (before.postgres.get(pid) ?? 0);
  const n = Math.max(1, requests);
  return { appMs: (after.app - before.app) / n, postgresMs: postgres / n };
}
