import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ledgerCommands } from '../../server/admin/ledger-commands.ts';
import { every } from '../../server/jobs/every.ts';
import { observeBackend } from '../../server/observability/backend-observer.ts';
import { createMetrics } from '../../server/observability/metrics.ts';
import { startMetricsServer } from '../../server/observability/metrics-endpoint.ts';
import { createInProcessBus } from '../../server/realtime/bus.ts';
import { signedInSession } from '../support/browser-session.ts';
import { OPERATORS, operatorWithFactor, post } from '../support/operators.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';

// What /metrics says of the jobs and the ledger (issue 25, decision 169), on both engines: each
// job's runs, failures and last success by its name, a failing job counted and still running, and
// the ledger gauges following a verification run from the console or the CLI, not only the
// leader's schedule.

let t: TestApp | undefined;
let server: Server | undefined;
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
  await t?.close();
  t = undefined;
});

/** The test app observed as the backend observes itself, and its /metrics served on a private port. */
async function observedApp() {
  const bus = createInProcessBus();
  t = await createTestApp({ bus });
  const metrics = createMetrics();
  const log = { info: () => {}, error: () => {} };
  const observed = observeBackend(metrics, {
    db: t.db,
    bus,
    services: t.services,
    store: undefined,
    migrationsFolder: 'db/migrations',
    log,
    sockets: () => 0,
    leads: () => true,
  });
  server = await startMetricsServer({
    host: '127.0.0.1',
    port: 0,
    registry: metrics.registry,
    api: (_req, res) => res.end(),
    onError: () => {},
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
  const scrape = async () => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    return res.text();
  };
  return { t, observed, scrape };
}

/** The value of one sample line, e.g. `coinfair_job_runs_total{name="exports"}`; undefined when absent. */
const sampleOf = (text: string, series: string) => {
  const line = text.split('\n').find((row) => row.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('the jobs at /metrics', () => {
  it('shows every job from the start, then each run, its interval and its last success by name', async () => {
    const { t, observed, scrape } = await observedApp();
    const before = await scrape();
    for (const name of ['chain', 'trade-expiry', 'webhook-deliveries', 'ledger-verification'])
      expect(sampleOf(before, `coinfair_job_runs_total{name="${name}"}`), name).toBe(0);
    expect(before).not.toContain('coinfair_job_last_success_timestamp_seconds{name="trade-expiry"}');

    stops.push(t.services.trades.startExpiryJob(60_000, () => {}, observed.jobs));
    stops.push(t.services.statements.startMonthlyJob(600_000, observed.jobs));
    await until(async () => sampleOf(await scrape(), 'coinfair_job_runs_total{name="monthly-statements"}') === 1);
    const text = await scrape();
    expect(sampleOf(text, 'coinfair_job_runs_total{name="trade-expiry"}')).toBe(1);
    expect(sampleOf(text, 'coinfair_job_failures_total{name="trade-expiry"}')).toBe(0);
    expect(sampleOf(text, 'coinfair_job_interval_seconds{name="trade-expiry"}')).toBe(60);
    expect(sampleOf(text, 'coinfair_job_interval_seconds{name="monthly-statements"}')).toBe(600);
    const last = sampleOf(text, 'coinfair_job_last_success_timestamp_seconds{name="trade-expiry"}') ?? 0;
    expect(Math.abs(last - Date.now() / 1000)).toBeLessThan(60);
    // Only the fixed names, never anything else as a label.
    expect(text.match(/coinfair_job_runs_total\{name="[^"]+"\}/g)).toHaveLength(9);
  });

  it('counts a failing job’s failures, and it keeps running until it succeeds', async () => {
    const { observed, scrape } = await observedApp();
    let runs = 0;
    const errors: unknown[] = [];
    const work = async () => {
      runs += 1;
      if (runs <= 2) throw new Error('the export storage is full');
    };
    stops.push(every('exports', 20, work, { onError: (error) => errors.push(error), observer: observed.jobs }));
    await until(async () => runs >= 3);
    const text = await scrape();
    expect(sampleOf(text, 'coinfair_job_failures_total{name="exports"}')).toBe(2);
    expect(sampleOf(text, 'coinfair_job_runs_total{name="exports"}')).toBeGreaterThanOrEqual(3);
    expect(sampleOf(text, 'coinfair_job_last_success_timestamp_seconds{name="exports"}')).toBeGreaterThan(0);
    expect(errors).toHaveLength(2);
  });
});

describe('the ledger gauges', () => {
  it('follow a verification from the console, then one from the CLI', async () => {
    const { t, scrape } = await observedApp();
    const admin = await operatorWithFactor(t);
    await createUser(t, { funded: { BTC: 20_000 } });
    const before = await scrape();
    expect(before).toMatch(/^coinfair_ledger_verified nan$/im);

    const run = await post(admin.browser, '/ledger/verify', {});
    expect(run.status).toBe(200);
    const text = await scrape();
    expect(sampleOf(text, 'coinfair_ledger_verified')).toBe(1);
    expect(sampleOf(text, 'coinfair_ledger_verified_at_seconds')).toBe(Math.floor(t.clock.now / 1000));

    t.clock.now += 3_600_000;
    await ledgerCommands(t.db, { now: () => t?.clock.now ?? 0 }).verify();
    expect(sampleOf(await scrape(), 'coinfair_ledger_verified_at_seconds')).toBe(Math.floor(t.clock.now / 1000));
    // A moderator may not run it, and a refused run changes nothing.
    const moderator = await signedInSession(t, 'moderator@example.com');
    expect((await moderator.post(`${OPERATORS}/ledger/verify`, {})).status).toBe(403);
    expect(sampleOf(await scrape(), 'coinfair_ledger_verified_at_seconds')).toBe(Math.floor(t.clock.now / 1000));
  });
});
