import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import type { Database } from '../../db/database.ts';
import { createApp } from '../../server/app.ts';
import { CSRF_COOKIE, CSRF_HEADER } from '../../server/http/csrf.ts';
import type { EventBus } from '../../server/realtime/bus.ts';
import type { ChainAdapter } from '../../server/services/chain/adapter.ts';
import { createServices, type ServicesConfig } from '../../server/services/container.ts';
import type { EmailMessage, SmsMessage } from '../../server/services/messaging/messaging.ts';
import { createSimulatedPriceFeed } from '../../server/services/price-feed/simulated.ts';
import { postWebhook, type WebhookPost } from '../../server/services/webhooks/transport.ts';
import { createTestDb } from './test-db.ts';

/** Fixed instant for tests: 2026-11-22T12:00:00Z. */
export const TEST_NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

export const TEST_ORIGIN = 'http://localhost';

export interface TestAppOptions {
  config?: Partial<ServicesConfig>;
  /** A clock the test can move: `clock.now += 60_000`. */
  clock?: { now: number };
  /** The bus services publish on, to watch live events. */
  bus?: EventBus;
  /** The chain the wallet talks to, over the test's database (the simulated chain by default). */
  chainAdapter?: (db: Database) => ChainAdapter;
  /** TRUST_PROXY=on: the client address is the last X-Forwarded-For entry. */
  trustProxy?: boolean;
  /** How long the real webhook transport waits for an answer (a receiver that never answers). */
  webhookTimeoutMs?: number;
}

/**
 * The app over a fresh database (on the test project's engine), a price feed that does not move, a clock the test controls and
 * a mailer that keeps what it was asked to send. The proof-of-work challenge is off unless asked.
 */
export async function createTestApp(options: TestAppOptions = {}) {
  const testDb = await createTestDb();
  const clock = options.clock ?? { now: TEST_NOW };
  const now = () => clock.now;
  const sent: EmailMessage[] = [];
  const mailer = {
    async send(message: EmailMessage) {
      sent.push(message);
    },
  };
  const sms: SmsMessage[] = [];
  const smsSender = {
    async send(message: SmsMessage) {
      sms.push(message);
    },
  };
  // Uploaded and processed images go to a private folder that close() removes.
  const uploadsDir = mkdtempSync(join(tmpdir(), 'coinfair-uploads-'));
  const priceFeed = createSimulatedPriceFeed({
    tickSeconds: 10,
    anchors: { BTC: 90_000, USDT: 1 },
    random: () => 0.5,
    now,
  });
  // Links in mail come from the configured origin only (server/site-origin.ts); the test origin
  // unless a test configures another (or none, to get http://HOST:PORT).
  const config: ServicesConfig = {
    AUTH_CHALLENGE: 'off',
    MAIL_FROM: 'Coinfair <no-reply@coinfair.test>',
    UPLOADS_DIR: uploadsDir,
    PUBLIC_ORIGIN: TEST_ORIGIN,
    ...options.config,
  };
  // The server's waits (a wrong password past the account limit) are recorded, not slept.
  const delays: number[] = [];
  const sleep = async (ms: number) => {
    delays.push(ms);
  };
  // What the services and the error handler log, as text: tests check that no secret reaches it.
  const logged: string[] = [];
  const remember = (...parts: unknown[]) => {
    logged.push(parts.map((part) => (typeof part === 'string' ? part : inspect(part, { depth: 4 }))).join(' '));
  };
  const services = createServices({
    db: testDb.db,
    priceFeed,
    now,
    config,
    mailer,
    smsSender,
    log: { info: remember, error: remember },
    sleep,
    ...(options.bus ? { bus: options.bus } : {}),
    ...(options.chainAdapter ? { chainAdapter: options.chainAdapter(testDb.db) } : {}),
    ...(options.webhookTimeoutMs
      ? {
          webhookPost: ((target, body, headers) =>
            postWebhook(target, body, headers, options.webhookTimeoutMs)) as WebhookPost,
        }
      : {}),
  });
  const app = createApp({ services, logError: remember, trustProxy: options.trustProxy ?? false });

  /** A request as our own page makes it: same origin, CSRF cookie and header, from `ip`. */
  const send = (path: string, init: RequestInit & { json?: unknown; ip?: string } = {}) => {
    const token = 'A'.repeat(43);
    const headers = new Headers(init.headers);
    if (!headers.has('cookie')) headers.set('cookie', `${CSRF_COOKIE}=${token}`);
    if (!headers.has(CSRF_HEADER)) headers.set(CSRF_HEADER, token);
    if (!headers.has('origin')) headers.set('origin', TEST_ORIGIN);
    const env = { incoming: { socket: { remoteAddress: init.ip ?? '203.0.113.7' } } };
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      return app.request(`${TEST_ORIGIN}${path}`, { ...init, headers, body: JSON.stringify(init.json) }, env);
    }
    return app.request(`${TEST_ORIGIN}${path}`, { ...init, headers }, env);
  };

  const close = async () => {
    rmSync(uploadsDir, { recursive: true, force: true });
    await testDb.close();
  };

  return {
    app,
    db: testDb.db,
    /** What a worker thread or a server process opens to reach this database (path or URL). */
    dbUrl: testDb.url,
    services,
    priceFeed,
    send,
    sent,
    sms,
    delays,
    uploadsDir,
    clock,
    logged,
    close,
  };
}
export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
