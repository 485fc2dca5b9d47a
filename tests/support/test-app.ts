import { createApp } from '../../server/app.ts';
import { CSRF_COOKIE, CSRF_HEADER } from '../../server/http/csrf.ts';
import { createServices } from '../../server/services/container.ts';
import { createSimulatedPriceFeed } from '../../server/services/price-feed/simulated.ts';
import { createTestDb } from './test-db.ts';

/** Fixed instant for tests: 2026-11-22T12:00:00Z. */
export const TEST_NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

export const TEST_ORIGIN = 'http://localhost';

/** The app over a fresh database, a price feed that does not move, and a fixed clock. */
export function createTestApp() {
  const testDb = createTestDb();
  const now = () => TEST_NOW;
  const priceFeed = createSimulatedPriceFeed({
    tickSeconds: 10,
    anchors: { BTC: 90_000, USDT: 1 },
    random: () => 0.5,
    now,
  });
  const services = createServices({ db: testDb.db, priceFeed, now });
  const app = createApp({ services, logError: () => {} });

  /** A request as our own page makes it: same origin, CSRF cookie and header. */
  const send = (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const token = 'A'.repeat(43);
    const headers = new Headers(init.headers);
    if (!headers.has('cookie')) headers.set('cookie', `${CSRF_COOKIE}=${token}`);
    if (!headers.has(CSRF_HEADER)) headers.set(CSRF_HEADER, token);
    if (!headers.has('origin')) headers.set('origin', TEST_ORIGIN);
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      return app.request(`${TEST_ORIGIN}${path}`, { ...init, headers, body: JSON.stringify(init.json) });
    }
    return app.request(`${TEST_ORIGIN}${path}`, { ...init, headers });
  };

  return { app, db: testDb.db, services, priceFeed, send, close: testDb.close };
}
