import type { Database } from '../../db/database.ts';
import type { Logger } from '../backend.ts';
import { every } from '../jobs/every.ts';
import { JOBS_LOCK } from '../jobs/leadership.ts';
import type { EventBus } from '../realtime/bus.ts';
import type { Services } from '../services/container.ts';
import { verifyLedger } from '../services/ledger/invariants.ts';
import { createAuditLog } from '../services/operators/audit.ts';
import { LEDGER_VERIFY_ACTION, type LedgerCheck } from '../services/operators/ledger-check.ts';
import type { SharedStore } from '../shared-store.ts';
import type { LedgerVerification, Metrics } from './metrics.ts';
import { readinessChecker } from './readiness.ts';

// Connects the metrics and the readiness checks to the backend's parts (server/backend.ts), so
// the backend itself only says where they are.

/** Errors are counted by what failed: the message up to its first colon or full stop, so labels stay few. */
export const failureKind = (message: string) => (message.split(/[:.(]/, 1)[0] ?? message).trim().slice(0, 60);

/** The backend's log, with every error also counted in the metrics. */
export function countingFailures(log: Logger, metrics: Metrics): Logger {
  return {
    info: (message) => log.info(message),
    error: (message, error) => {
      metrics.backgroundFailure(failureKind(message));
      log.error(message, error);
    },
  };
}

/** Conversions and sendouts counted where they are done, whichever route or bot asked. */
function countMoneyMovements(services: Services, metrics: Metrics): void {
  const { hedging, wallet } = services;
  const convert = hedging.convert.bind(hedging);
  hedging.convert = async (ctx, input) => {
    const result = await convert(ctx, input);
    metrics.conversion(result.currencyFromCode, result.currencyToCode);
    return result;
  };
  const send = wallet.send.bind(wallet);
  wallet.send = async (ctx, input) => {
    const result = await send(ctx, input);
    if (!result.replayed) metrics.sendout(input.currency);
    return result;
  };
}

export interface ObservedBackend {
  db: Database;
  bus: EventBus;
  services: Services;
  store: SharedStore | undefined;
  migrationsFolder: string;
  log: Logger;
  sockets(): number;
  leads(): boolean;
}

/** Feeds the metrics from the backend; answers the readiness check /readyz runs. */
export function observeBackend(metrics: Metrics, parts: ObservedBackend) {
  const { db, bus, services, store } = parts;
  metrics.watchBus(bus);
  countMoneyMovements(services, metrics);
  const seconds = async (work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    return (performance.now() - started) / 1000;
  };
  const ping = store?.ping?.bind(store);
  const ledger: LedgerWatch = { last: undefined };
  metrics.probe({
    sockets: parts.sockets,
    leads: parts.leads,
    databaseLatency: () => seconds(() => db.sql.get('SELECT 1 AS one')),
    ...(ping ? { redisLatency: () => seconds(ping) } : {}),
    sendoutsWaiting: async () => {
      const row = await db.sql.get<{ count: number | string; oldest: number | string | null }>(
        `SELECT count(*) AS count, min(created_at) AS oldest FROM chain_transactions
          WHERE direction = 'out' AND status = 'pending'`,
      );
      const oldest = row?.oldest == null ? undefined : Number(row.oldest);
      return {
        count: Number(row?.count ?? 0),
        oldestSeconds: oldest === undefined ? 0 : Math.max(0, (Date.now() - oldest) / 1000),
      };
    },
    ledgerVerification: newestVerification(db, ledger),
  });
  return {
    readiness: readinessChecker({
      sql: db.sql,
      migrationsFolder: parts.migrationsFolder,
      jobsLock: JOBS_LOCK,
      leads: parts.leads,
      ...(ping ? { pingRedis: ping } : {}),
      onProblem: (check, problem) => parts.log.info(`Not ready: ${check}: ${problem}`),
    }),
    /** For the jobs leader: verify the ledger every `minutes`; returns the function that stops it. */
    watchLedger: (minutes: number, log: Logger) => startLedgerWatch(db, ledger, minutes, log, metrics),
    /** Counts the jobs' runs for the metrics (server/jobs/start-jobs.ts). */
    jobs: metrics.jobs,
  };
}

interface LedgerWatch {
  last: LedgerVerification | undefined;
}

/**
 * The newest verification the deployment knows of, for the ledger gauges: this process's scheduled
 * one, or the last an operator ran from the console or the CLI in any process (each is a row of the
 * operators' audit log, read by its index at the scrape). The two gauges of one scrape share a read.
 */
function newestVerification(db: Database, ledger: LedgerWatch) {
  const audit = createAuditLog(db, Date.now);
  let reading: Promise<LedgerVerification | undefined> | undefined;
  const read = async () => {
    const row = await audit.lastOf(LEDGER_VERIFY_ACTION);
    const check = row?.details as Partial<LedgerCheck> | null | undefined;
    const operators =
      typeof check?.checkedAt === 'number' && typeof check.ok === 'boolean'
        ? { at: Math.floor(check.checkedAt / 1000), ok: check.ok }
        : undefined;
    const scheduled = ledger.last;
    if (!operators) return scheduled;
    return scheduled && scheduled.at > operators.at ? scheduled : operators;
  };
  return () => {
    reading ??= read().finally(() => {
      reading = undefined;
    });
    return reading;
  };
}

/**
 * The jobs leader verifies the ledger every `minutes` (what `npm run admin -- ledger:verify`
 * does), the first a minute after it starts leading, so an alert fires when it stops holding;
 * returns the function that stops it.
 */
function startLedgerWatch(
  db: Database,
  ledgerWatch: LedgerWatch,
  minutes: number,
  log: Logger,
  metrics: Metrics,
): () => Promise<void> {
  if (minutes <= 0) return async () => {};
  const run = async () => {
    const violations = await verifyLedger(db);
    ledgerWatch.last = { at: Math.floor(Date.now() / 1000), ok: violations.length === 0 };
    // A violation is the ledger's failure, not the job's: the gauge and its alert say it.
    if (violations.length > 0) log.error(`Ledger verification: ${violations.length} violation(s)`, violations[0]);
  };
  return every('ledger-verification', minutes * 60_000, run, {
    firstInMs: 60_000,
    observer: metrics.jobs,
    onError: (error) => log.error('Ledger verification could not run', error),
  });
}
