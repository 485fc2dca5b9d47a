import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { JOB_NAMES, type JobObserver } from '../jobs/every.ts';
import type { EventBus } from '../realtime/bus.ts';
import { TRADES_CHANNEL } from '../services/trades/events.ts';
import type { FinishedRequest } from './request-log.ts';

// Prometheus metrics of one process (issue 25, decision 148), with prom-client. Each process of a
// deployment is scraped on its own; sums across them are the dashboard's job (deploy/grafana).
// Counters are fed where the thing happens: the request wrapper, the bus (trades), the service
// calls (conversions, sendouts), the log (background failures). Gauges that need a look at the
// database or Redis are measured when Prometheus scrapes, never on a timer of ours.

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** What the scrape-time gauges read. */
export interface MetricsProbes {
  /** Open realtime sockets in this process. */
  sockets(): number;
  /** Whether this process leads the deployment's jobs. */
  leads(): boolean;
  /** Seconds a `SELECT 1` took. */
  databaseLatency(): Promise<number>;
  /** Seconds a Redis PING took; undefined without Redis. */
  redisLatency?(): Promise<number>;
  /** Sendouts not yet broadcast, and the age of the oldest in seconds (0 when none). */
  sendoutsWaiting(): Promise<{ count: number; oldestSeconds: number }>;
  /**
   * The deployment's newest ledger verification: when (unix s) and whether it held; whichever ran
   * it (this process's schedule, the console, the CLI). Undefined before the first.
   */
  ledgerVerification(): Promise<LedgerVerification | undefined> | LedgerVerification | undefined;
}

export interface LedgerVerification {
  at: number;
  ok: boolean;
}

export interface Metrics {
  registry: Registry;
  observeRequest(request: FinishedRequest): void;
  /** A conversion or sendout done, by currency. */
  conversion(from: string, to: string): void;
  sendout(currency: string): void;
  /** A background task's failure (a job, a listener), by what the log calls it. */
  backgroundFailure(what: string): void;
  /** Counts the jobs' runs and failures and keeps their last success (server/jobs/every.ts). */
  jobs: JobObserver;
  /** Counts what the bus carries (events fanned out, trades by change); returns the unsubscribe. */
  watchBus(bus: EventBus): () => void;
  /** The scrape-time gauges' sources, once the backend exists. */
  probe(probes: MetricsProbes): void;
}

/** HTTP's usual methods; any other counts as OTHER, so a client cannot add series at will. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  let probes: MetricsProbes | undefined;

  const requests = new Histogram({
    name: 'coinfair_http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const published = new Counter({
    name: 'coinfair_events_published_total',
    help: 'Events this process published on the bus (fanned out to sockets, notifications and webhooks)',
    labelNames: ['type'] as const,
    registers: [registry],
  });
  const trades = new Counter({
    name: 'coinfair_trades_total',
    help: 'Trade changes made by this process: started, paid, released, cancelled, expired, disputed, resolved',
    labelNames: ['action'] as const,
    registers: [registry],
  });
  const conversions = new Counter({
    name: 'coinfair_conversions_total',
    help: 'Conversions done',
    labelNames: ['from', 'to'] as const,
    registers: [registry],
  });
  const sendouts = new Counter({
    name: 'coinfair_sendouts_total',
    help: 'Sendouts accepted',
    labelNames: ['currency'] as const,
    registers: [registry],
  });
  const failures = new Counter({
    name: 'coinfair_background_failures_total',
    help: 'Failures of jobs and background work, by what failed',
    labelNames: ['what'] as const,
    registers: [registry],
  });
  scrapeGauges(registry, () => probes);
  const jobs = jobMetrics(registry);

  return {
    registry,
    observeRequest: ({ method, route, status, seconds }) =>
      requests.observe({ method: KNOWN_METHODS.has(method) ? method : 'OTHER', route, status }, seconds),
    conversion: (from, to) => conversions.inc({ from, to }),
    sendout: (currency) => sendouts.inc({ currency }),
    backgroundFailure: (what) => failures.inc({ what }),
    jobs,
    watchBus(bus) {
      const publish = bus.publish.bind(bus);
      bus.publish = (channel, event) => {
        published.inc({ type: publishedType(event.type) });
        publish(channel, event);
      };
      const unsubscribe = bus.subscribe(TRADES_CHANNEL, (event) => {
        const action = (event.payload as { action?: unknown } | null)?.action;
        if (event.type === 'trade.changed' && typeof action === 'string') trades.inc({ action });
      });
      return () => {
        bus.publish = publish;
        unsubscribe();
      };
    },
    probe(given) {
      probes = given;
    },
  };
}

/**
 * Each job's runs, failures, interval and last success, labelled `name` (Prometheus gives every
 * series a `job` of its own: the scrape job). The names are a fixed set, each counter starts at 0
 * so rates and alerts see a job before its first run; the last success appears with the first.
 */
function jobMetrics(registry: Registry): JobObserver {
  const byName = { labelNames: ['name'] as const, registers: [registry] };
  const runs = new Counter({
    name: 'coinfair_job_runs_total',
    help: 'Runs of each job in this process, whether they succeeded or failed',
    ...byName,
  });
  const failed = new Counter({
    name: 'coinfair_job_failures_total',
    help: 'Runs of each job in this process that failed (threw); the job keeps its schedule',
    ...byName,
  });
  const interval = new Gauge({
    name: 'coinfair_job_interval_seconds',
    help: 'How often each job runs, as this process last started it (only the jobs leader starts them)',
    ...byName,
  });
  const lastSuccess = new Gauge({
    name: 'coinfair_job_last_success_timestamp_seconds',
    help: 'When each job last ran without failing in this process (unix seconds)',
    ...byName,
  });
  for (const name of JOB_NAMES) {
    runs.inc({ name }, 0);
    failed.inc({ name }, 0);
  }
  return {
    started: (name, intervalMs) => interval.set({ name }, intervalMs / 1000),
    ran(name, ok, at) {
      runs.inc({ name });
      if (ok) lastSuccess.set({ name }, at / 1000);
      else failed.inc({ name });
    },
  };
}

/**
 * A trade page's events are named after the trade's status; the rest after what happened. Both
 * are a fixed set, so the label stays small.
 */
const publishedType = (type: string) => (type.length <= 40 ? type : 'other');

function scrapeGauges(registry: Registry, probes: () => MetricsProbes | undefined): void {
  new Gauge({
    name: 'coinfair_realtime_sockets',
    help: 'Realtime sockets open in this process',
    registers: [registry],
    collect() {
      this.set(probes()?.sockets() ?? 0);
    },
  });
  new Gauge({
    name: 'coinfair_jobs_leader',
    help: '1 when this process runs the deployment’s jobs',
    registers: [registry],
    collect() {
      this.set(probes()?.leads() ? 1 : 0);
    },
  });
  // Each collect runs at the scrape, all at once (prom-client reads every metric concurrently).
  const probed = (
    name: string,
    help: string,
    read: (given: MetricsProbes) => Promise<number | undefined> | number | undefined,
  ) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const given = probes();
        if (!given) return;
        // A failed or absent probe reads NaN (a gap on a graph, never a reassuring 0); /readyz says what is down.
        const value = await Promise.resolve()
          .then(() => read(given))
          .catch(() => undefined);
        this.set(value ?? Number.NaN);
      },
    });
  probed('coinfair_database_latency_seconds', 'Time a SELECT 1 took, measured at the scrape', (given) =>
    given.databaseLatency(),
  );
  probed(
    'coinfair_redis_latency_seconds',
    'Time a Redis PING took, measured at the scrape (NaN without Redis or when it does not answer)',
    (given) => given.redisLatency?.(),
  );
  probed(
    'coinfair_sendouts_waiting',
    'Sendouts accepted but not yet broadcast',
    async (given) => (await given.sendoutsWaiting()).count,
  );
  probed(
    'coinfair_sendouts_oldest_waiting_seconds',
    'Age of the oldest sendout not yet broadcast (0 when none)',
    async (given) => (await given.sendoutsWaiting()).oldestSeconds,
  );
  probed(
    'coinfair_ledger_verified',
    '1 when the deployment’s newest ledger verification (scheduled, console or CLI) found no violation, 0 when it found one (NaN before the first)',
    async (given) => {
      const verified = await given.ledgerVerification();
      return verified ? Number(verified.ok) : undefined;
    },
  );
  probed(
    'coinfair_ledger_verified_at_seconds',
    'When the deployment’s newest ledger verification ran (unix seconds)',
    async (given) => (await given.ledgerVerification())?.at,
  );
}
