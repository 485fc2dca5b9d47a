import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { closeDatabase, openDatabase } from '../db/client.ts';
import { prepareDatabase } from '../db/seed/index.ts';
import { createApp } from './app.ts';
import type { Config } from './config.ts';
import { sessionCookieName } from './http/auth.ts';
import { createInProcessBus } from './realtime/bus.ts';
import { authorizeChannel, sessionPrincipal } from './realtime/channels.ts';
import { createRealtimeHub, type RealtimeHub } from './realtime/hub.ts';
import { createServices } from './services/container.ts';
import { createSimulatedPriceFeed } from './services/price-feed/simulated.ts';

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

export interface Backend {
  api: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>;
  hub: RealtimeHub;
  secureCookies: boolean;
  stop(): Promise<void>;
}

export async function createBackend({
  config,
  migrationsFolder,
  log = consoleLogger,
}: {
  config: Config;
  migrationsFolder?: string;
  log?: Logger;
}): Promise<Backend> {
  const db = openDatabase(config.DATABASE_URL);
  const prepared = await prepareDatabase(db, migrationsFolder ? { migrationsFolder } : {});
  if (prepared.seededReference) log.info('Database: reference data seeded.');
  if (prepared.seededDemo) log.info('Database: demo users and offers seeded (see README, "Demo accounts").');

  const allowedOrigins = config.PUBLIC_ORIGIN ? [new URL(config.PUBLIC_ORIGIN).origin] : [];
  const secureCookies = config.PUBLIC_ORIGIN?.startsWith('https:') ?? false;

  const bus = createInProcessBus((error) => log.error('event listener failed', error));
  const priceFeed = createSimulatedPriceFeed({ tickSeconds: config.PRICE_TICK_SECONDS });
  priceFeed.onTick((tick) => bus.publish('rates', { type: 'rates', payload: tick }));
  priceFeed.start();

  const services = createServices({ db, priceFeed, config, log, bus });
  const app = createApp({
    services,
    allowedOrigins,
    secureCookies,
    trustProxy: config.TRUST_PROXY === 'on',
    logError: (e) => log.error('request failed', e),
  });
  const hub = createRealtimeHub({
    bus,
    allowedOrigins,
    log: log.error,
    authorize: authorizeChannel,
    resolvePrincipal: sessionPrincipal(services.sessions, sessionCookieName(secureCookies)),
  });
  // Expired sessions are refused when presented; this only keeps the table from growing.
  const sweep = setInterval(() => services.sessions.purgeExpired(), 60 * 60 * 1000);
  sweep.unref();

  return {
    api: getRequestListener(app.fetch),
    hub,
    secureCookies,
    async stop() {
      clearInterval(sweep);
      priceFeed.stop();
      await hub.close();
      closeDatabase(db);
    },
  };
}
