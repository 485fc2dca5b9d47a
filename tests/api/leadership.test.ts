import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type Leadership, postgresLeadership } from '../../server/jobs/leadership.ts';
import { POSTGRES_ADMIN_URL, postgresReachable } from '../support/postgres.ts';

// Jobs run once across the deployment (issue 17): of several processes asking, exactly one leads,
// and when it goes another takes over.

const reachable = await postgresReachable();
if (!reachable) console.warn('PostgreSQL is not reachable: the leadership tests are skipped.');

const running: Leadership[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((l) => l.stop()));
});

function start(name: string) {
  const leadership = postgresLeadership(POSTGRES_ADMIN_URL, { name, retryMs: 50 });
  running.push(leadership);
  return leadership;
}

async function until(check: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(!reachable)('job leadership on PostgreSQL', () => {
  it('makes exactly one of several processes the leader, and hands over when it stops', async () => {
    const name = `test:${randomUUID()}`;
    const processes = [start(name), start(name), start(name)];
    await until(() => processes.some((p) => p.isLeader()));
    // Give the others several chances to (wrongly) take the lock too.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(processes.filter((p) => p.isLeader())).toHaveLength(1);

    const first = processes.find((p) => p.isLeader()) as Leadership;
    const changes: boolean[] = [];
    first.onChange((leader) => changes.push(leader));
    await first.stop();
    expect(changes).toEqual([true, false]);
    const rest = processes.filter((p) => p !== first);
    await until(() => rest.some((p) => p.isLeader()));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(rest.filter((p) => p.isLeader())).toHaveLength(1);
  });

  it('keeps separate deployments (lock names) apart', async () => {
    const one = start(`test:${randomUUID()}`);
    const other = start(`test:${randomUUID()}`);
    await until(() => one.isLeader() && other.isLeader());
  });
});
