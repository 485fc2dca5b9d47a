import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { connectDatabase, type Database } from '../db/database.ts';
import { MIGRATIONS_FOLDER } from '../db/migrate.ts';
import { refreshDemoPresence } from '../db/seed/demo.ts';
import { prepareDatabase } from '../db/seed/index.ts';
import { createApp } from './app.ts';
import type { Config } from './config.ts';
import { sessionCookieName } from './http/auth.ts';
import { postgresLeadership, soleLeadership } from './jobs/leadership.ts';
import { startJobs } from './jobs/start-jobs.ts';
import { countingFailures, observeBackend } from './observability/backend-observer.ts';
import { createMetrics, type Metrics } from './observability/metrics.ts';
import type { Readiness } from './observability/readiness.ts';
import { type PageLocals, pageLocalsOf } from './page-locals.ts';
import { createInProcessBus, type EventBus } from './realtime/bus.ts';
import { createChannelAuthorizer, sessionPrincipal } from './realtime/channels.ts';
import { type ChannelAuthorizer, createRealtimeHub, type RealtimeHub } from './realtime/hub.ts';
import { createRedisBus } from './realtime/redis-bus.ts';
import { watchSessionEnds } from './realtime/session-ends.ts';
import { createServices, type Services } from './services/container.ts';
import { systemContext } from './services/context.ts';
import { createPriceFeed } from './services/price-feed/create.ts';
import { createSharedPriceFeed, type SharedPriceFeed } from './services/price-feed/shared.ts';
import { publishQuotes } from './services/quotes/publish.ts';
import { tradeChannelAccess } from './services/trades/trades.ts';
import { DEVELOPMENT_BTC_XPUB, DEVELOPMENT_TRON_XPUB } from './services/wallet/addresses.ts';
import { createRedisStore, type SharedStore } from './shared-store.ts';

// Everything behind the pages: database, price feed, event bus, services, the API listener and
// the realtime hub. `npm start` (server/main.ts) and `npm run dev` (the Astro dev integration)
// both mount exactly this.

export interface Logger {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

export const consoleLogger: Logger = {
  info: (message) => console.log(message),
  error: (message, error) => console.error(message, error ?? ''),
};

export type { PageLocals };

export interface Backend {
  api: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>;
  /** The locals of one page render. */
  pageLocals(req: IncomingMessage): PageLocals;
  hub: RealtimeHub;
  /** The process's event bus and services: for the browser tests' harness and operator tooling. */
  bus: EventBus;
  services: Services;
  secureCookies: boolean;
  /** This process's Prometheus metrics (server/observability/metrics.ts). */
  metrics: Metrics;
  /** What /readyz answers: the database, Redis, migrations and the jobs' leader. */
  readiness(): Promise<Readiness>;
  stop(): Promise<void>;
}

/** Opens the database, brings its schema up to date and seeds what is missing; says what it seeded. */
export async function openPreparedDatabase(
  config: Config,
  demo: boolean,
  migrationsFolder: string | undefined,
  log: Logger,
) {
  const db = await connectDatabase(config.DATABASE_URL, { poolSize: config.DATABASE_POOL_SIZE });
  if (db.dialect === 'postgres') log.info('Database: PostgreSQL.');
  const prepared = await prepareDatabase(db, {
    demo,
    giftCodeKey: config.GIFT_CODE_KEY,
    ...(migrationsFolder ? { migrationsFolder } : {}),
  });
  if (prepared.seededReference) log.info('Database: reference data seeded.');
  if (prepared.seededDemo) log.info('Database: demo users and offers seeded (see README, "Demo accounts").');
  if (prepared.seededPriceHistory) log.info('Database: a year of simulated price history seeded.');
  return db;
}

/**
 * Async work started from a callback that cannot wait for it (a timer, a tick listener): its
 * failure is logged as `what`, never left as an unhandled rejection.
 */
function inBackground(log: Logger, what: string, work: () => unknown): void {
  void (async () => work())().catch((error: unknown) => log.error(what, error));
}

/**
 * Every process: the feed mirrors the leader's ticks (price-feed/shared.ts), starting from the
 * persisted prices until the first arrives; quotes are published and heard on the `quotes`
 * channel. History and the pages' `rates` are the leader's to write and send, once per tick.
 */
async function followPrices(services: Services, priceFeed: SharedPriceFeed, bus: EventBus, log: Logger) {
  await resumePrices(services, log);
  // History first, then the pages; separate listeners, so a failed write still lets the price out.
  priceFeed.onTick((tick) => {
    if (priceFeed.leads()) {
      inBackground(log, 'Price feed: a tick listener failed', () => services.market.recordTick(tick));
    }
  });
  priceFeed.onTick((tick) => {
    if (priceFeed.leads()) bus.publish('rates', { type: 'rates', payload: tick });
  });
  // A conversion quote at every tick (issued by the leader), on the public `quotes` channel.
  publishQuotes({ quotes: services.quotes, bus });
}

/** Sets the feed to the last persisted prices; a simulated market also fills the time nobody ran it. */
async function resumePrices(services: Services, log: Logger): Promise<void> {
  const resumed = await services.market.resume();
  if (resumed.filledSeconds > 0) {
    log.info(`Prices: simulated the ${Math.ceil(resumed.filledSeconds / 60)} minutes since the last run.`);
  }
}

/**
 * The jobs leader runs the feed, from the last persisted tick (the previous leader's, when the
 * lead moved); returns the function that stops it.
 */
async function leadPrices(services: Services, priceFeed: SharedPriceFeed, log: Logger) {
  await resumePrices(services, log);
  priceFeed.start();
  return async () => priceFeed.stop();
}

interface HubOptions {
  services: Services;
  bus: EventBus;
  allowedOrigins: string[];
  secureCookies: boolean;
  authorize: ChannelAuthorizer;
  log: Logger;
}

/** The realtime hub, and the watch that cuts the sockets of sessions ended in another process. */
function startHub({ services, bus, allowedOrigins, secureCookies, authorize, log }: HubOptions) {
  const hub = createRealtimeHub({
    bus,
    allowedOrigins,
    log: log.error,
    authorize,
    verifyKey: services.pushKeys.verify,
    isSessionLive: services.sessions.isLive,
    resolvePrincipal: sessionPrincipal(services.sessions, sessionCookieName(secureCookies)),
  });
  // Sessions ended elsewhere (the admin CLI, another process) cut their sockets here within a poll;
  // this process's own ends reach the hub at once over the bus.
  const stopSessionEnds = watchSessionEnds({
    source: services.sessions,
    onEnded: hub.endSessions,
    log: log.error,
  });
  return { hub, stopSessionEnds };
}

/** The demo vendors' comings and goings and the session sweep; returns the function that stops them. */
async function startHousekeeping(db: Database, demo: boolean, services: Services, log: Logger): Promise<() => void> {
  // The demo market's vendors keep coming and going, so its listings never go stale.
  if (demo) await refreshDemoPresence(db);
  const presence = demo
    ? setInterval(
        () => inBackground(log, 'demo presence refresh failed', () => refreshDemoPresence(db)),
        10 * 60 * 1000,
      )
    : undefined;
  presence?.unref();
  // Expired sessions are refused when presented; this only keeps the table from growing. Gift
  // card pictures no card took within a day go too.
  const sweep = setInterval(
    () => {
      inBackground(log, 'session sweep failed', () => services.sessions.purgeExpired(systemContext('session-sweep')));
      inBackground(log, 'gift card picture sweep failed', () => services.giftCards.sweepImages());
    },
    60 * 60 * 1000,
  );
  sweep.unref();
  return () => {
    clearInterval(sweep);
    clearInterval(presence);
  };
}

/**
 * The event bus: with REDIS_URL shared by every process (an event raised here reaches sockets
 * held by another), else this process's own.
 */
async function openBus(config: Config, log: Logger): Promise<EventBus & { close(): Promise<void> }> {
  const onListenerError = (error: unknown) => log.error('event listener failed', error);
  if (!config.REDIS_URL) return { ...createInProcessBus(onListenerError), close: async () => {} };
  const bus = await createRedisBus(config.REDIS_URL, {
    prefix: `${config.REDIS_PREFIX}bus:`,
    onListenerError,
    onRedisError: (error) => log.error('Redis: the event bus could not reach the server', error),
  });
  log.info('Events: shared with the other processes through Redis.');
  return bus;
}

/**
 * With REDIS_URL, the store every process reads and writes (the conversion quotes); without it,
 * none, and the services keep those values in memory.
 */
async function openStore(config: Config, log: Logger): Promise<SharedStore | undefined> {
  if (!config.REDIS_URL) return undefined;
  return createRedisStore(config.REDIS_URL, {
    prefix: `${config.REDIS_PREFIX}store:`,
    onRedisError: (error) => log.error('Redis: the shared store could not reach the server', error),
  });
}

/**
 * Runs `start` while this process leads the deployment's jobs (server/jobs/leadership.ts): on
 * PostgreSQL the holder of an advisory lock, handed over when it dies; on SQLite always this one.
 * Returns the function that stops them and gives up the lead.
 */
function leadJobs(
  db: Database,
  config: Config,
  log: Logger,
  start: () => Promise<() => Promise<void>>,
): { stop: () => Promise<void>; leads: () => boolean } {
  const leadership =
    db.dialect === 'postgres'
      ? postgresLeadership(config.DATABASE_URL, {
          onError: (e) => log.error('Jobs: the leadership connection failed', e),
        })
      : soleLeadership();
  let running: Promise<(() => Promise<void>) | undefined> = Promise.resolve(undefined);
  // Starts and stops in order, so a lead lost while starting stops what was started.
  const change = (leader: boolean) => {
    running = running.then(async (stop) => {
      if (leader && !stop) {
        if (db.dialect === 'postgres') log.info('Jobs: this process leads them.');
        return start();
      }
      if (!leader && stop) await stop();
      return leader ? stop : undefined;
    });
    running.catch((error: unknown) => log.error('Jobs: could not start or stop', error));
  };
  const unsubscribe = leadership.onChange(change);
  const stopLeading = async () => {
    unsubscribe();
    await leadership.stop();
    const stop = await running.catch(() => undefined);
    await stop?.();
  };
  return { stop: stopLeading, leads: () => leadership.isLeader() };
}

/**
 * What the jobs leader runs: the price feed, expiry, chain, deliveries, demo presence, the session
 * sweep and the ledger watch, once across the deployment. Returns the function that stops them.
 */
async function startLeadersWork({
  db,
  config,
  log,
  demo,
  services,
  priceFeed,
  observed,
}: {
  db: Database;
  config: Config;
  log: Logger;
  demo: boolean;
  services: Services;
  priceFeed: SharedPriceFeed;
  observed: ReturnType<typeof observeBackend>;
}): Promise<() => Promise<void>> {
  const stopPrices = await leadPrices(services, priceFeed, log);
  const stopJobs = startJobs(services, config, log, observed.jobs);
  const stopHousekeeping = await startHousekeeping(db, demo, services, log);
  const stopLedgerWatch = observed.watchLedger(config.LEDGER_VERIFY_MINUTES, log);
  return async () => {
    await stopLedgerWatch();
    stopHousekeeping();
    await stopJobs();
    await stopPrices();
  };
}

export async function createBackend({
  config,
  migrationsFolder,
  log: given = consoleLogger,
}: {
  config: Config;
  migrationsFolder?: string;
  log?: Logger;
}): Promise<Backend> {
  const metrics = createMetrics();
  const log = countingFailures(given, metrics);
  const demo = config.DEMO_DATA === 'on';
  const db = await openPreparedDatabase(config, demo, migrationsFolder, log);
  const allowedOrigins = config.PUBLIC_ORIGIN ? [new URL(config.PUBLIC_ORIGIN).origin] : [];
  const secureCookies = config.PUBLIC_ORIGIN?.startsWith('https:') ?? false;

  const bus = await openBus(config, log);
  const store = await openStore(config, log);
  const priceFeed = createSharedPriceFeed({
    source: createPriceFeed(config, log),
    bus,
    onListenerError: (error) => log.error('Price feed: a tick listener failed', error),
  });
  const services = createServices({ db, priceFeed, config, log, bus, ...(store ? { store } : {}) });
  await followPrices(services, priceFeed, bus, log);
  if (config.WALLET_BTC_XPUB === DEVELOPMENT_BTC_XPUB || config.WALLET_TRON_XPUB === DEVELOPMENT_TRON_XPUB) {
    log.info('Wallet: deposit addresses come from public test keys (WALLET_*_XPUB unset): never send real money.');
  }
  const observed = observeBackend(metrics, {
    db,
    bus,
    services,
    store,
    migrationsFolder: migrationsFolder ?? MIGRATIONS_FOLDER,
    log,
    sockets: () => hub.connectionCount(),
    leads: () => leading.leads(),
  });
  const leading = leadJobs(db, config, log, () =>
    startLeadersWork({ db, config, log, demo, services, priceFeed, observed }),
  );
  // One authoriser for the hub and for the keys push-authorize issues.
  const authorize = createChannelAuthorizer({ tradeAccess: tradeChannelAccess(services.trades) });
  const app = createApp({
    services,
    authorizeChannel: authorize,
    allowedOrigins,
    secureCookies,
    trustProxy: config.TRUST_PROXY === 'on',
    logError: (e) => log.error('request failed', e),
    readiness: observed.readiness,
  });
  const { hub, stopSessionEnds } = startHub({ services, bus, allowedOrigins, secureCookies, authorize, log });

  return {
    api: getRequestListener(app.fetch),
    pageLocals: pageLocalsOf(app, {
      secureCookies,
      trustProxy: config.TRUST_PROXY === 'on',
      places: services.places,
      offersGeneration: services.offers.searchGeneration,
      siteOrigin: services.siteOrigin,
    }),
    hub,
    bus,
    services,
    secureCookies,
    metrics,
    readiness: observed.readiness,
    async stop() {
      stopSessionEnds();
      await leading.stop();
      priceFeed.close();
      await hub.close();
      await bus.close();
      await store?.close();
      await db.close();
    },
  };
}
