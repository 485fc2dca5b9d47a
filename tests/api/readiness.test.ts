import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../../db/migrate.ts';
import { JOBS_LOCK } from '../../server/jobs/leadership.ts';
import { readinessChecker } from '../../server/observability/readiness.ts';
import { createRedisStore } from '../../server/shared-store.ts';
import { createTestDb } from '../support/test-db.ts';

// /readyz's checks (issue 25) on this project's engine: ready on a migrated database; not ready,
// with the check named, when the database is gone, when a migration is missing, when Redis stops
// answering, and (PostgreSQL) when no process holds the jobs lock.

const testDb = await createTestDb();
afterAll(() => testDb.close());

const checker = (overrides: Partial<Parameters<typeof readinessChecker>[0]> = {}) =>
  readinessChecker({
    sql: testDb.db.sql,
    migrationsFolder: MIGRATIONS_FOLDER,
    jobsLock: JOBS_LOCK,
    leads: () => true,
    ...overrides,
  });

/** A free port on 127.0.0.1. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

describe('readiness', () => {
  it('is ready on a migrated database whose process leads the jobs', async () => {
    const result = await checker()();
    expect(result.ready).toBe(true);
    expect(Object.keys(result.checks).sort()).toEqual(['database', 'jobsLeader', 'migrations']);
    for (const check of Object.values(result.checks)) expect(check.ms).toBeGreaterThanOrEqual(0);
  });

  it('is not ready when the database is gone, and says which check failed', async () => {
    const problems: string[] = [];
    const broken = { ...testDb.db.sql, get: () => Promise.reject(new Error('connection refused')) };
    const result = await checker({
      sql: broken,
      onProblem: (check, problem) => problems.push(`${check}: ${problem}`),
    })();
    expect(result.ready).toBe(false);
    expect(result.checks.database).toMatchObject({ ok: false, problem: 'connection refused' });
    expect(problems).toContain('database: connection refused');
  });

  it('is not ready when the build carries a migration the database lacks', async () => {
    const newest = await testDb.db.sql.get<{ newest: number }>(
      testDb.db.dialect === 'postgres'
        ? 'SELECT max(created_at) AS newest FROM drizzle.__drizzle_migrations'
        : 'SELECT max(created_at) AS newest FROM __drizzle_migrations',
    );
    expect(Number(newest?.newest)).toBeGreaterThan(0);
    const table = testDb.db.dialect === 'postgres' ? 'drizzle.__drizzle_migrations' : '__drizzle_migrations';
    await testDb.db.sql.run(`UPDATE ${table} SET created_at = created_at - 1 WHERE created_at = ?`, [
      Number(newest?.newest),
    ]);
    const result = await checker()();
    expect(result.ready).toBe(false);
    expect(result.checks.migrations).toMatchObject({ ok: false });
    await testDb.db.sql.run(`UPDATE ${table} SET created_at = ? WHERE created_at = ?`, [
      Number(newest?.newest),
      Number(newest?.newest) - 1,
    ]);
    expect((await checker()()).ready).toBe(true);
  });

  it.runIf(testDb.db.dialect === 'postgres')(
    'on PostgreSQL, a follower is ready only while some process holds the jobs lock',
    async () => {
      const lock = `readiness-test-${process.pid}-${Date.now()}`;
      const follower = checker({ jobsLock: lock, leads: () => false });
      expect((await follower()).checks.jobsLeader).toMatchObject({
        ok: false,
        problem: 'no process holds the jobs lock',
      });
      const { Client } = (await import('pg')).default;
      const leader = new Client({ connectionString: testDb.url });
      await leader.connect();
      try {
        await leader.query('SELECT pg_advisory_lock(hashtext($1))', [lock]);
        expect((await follower()).checks.jobsLeader).toMatchObject({ ok: true });
      } finally {
        await leader.end();
      }
    },
  );

  it('is not ready when Redis stops answering', async () => {
    const port = await freePort();
    const redis = spawn('redis-server', [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ]);
    try {
      await waitFor(() => accepts(port));
      const store = await createRedisStore(`redis://127.0.0.1:${port}`, { onRedisError: () => {} });
      const check = checker({ pingRedis: () => store.ping?.() ?? Promise.resolve() });
      expect((await check()).checks.redis).toMatchObject({ ok: true });
      redis.kill('SIGKILL');
      await new Promise((resolve) => redis.once('exit', resolve));
      const result = await check();
      expect(result.ready).toBe(false);
      expect(result.checks.redis?.ok).toBe(false);
      await store.close();
    } finally {
      redis.kill('SIGKILL');
    }
  }, 20_000);
});

/** Whether something listens on the port. */
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

async function waitFor(ready: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 50; tries++) {
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('redis-server did not start');
}
