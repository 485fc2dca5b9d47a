import { createClient } from 'redis';

// The Redis server this machine runs (CI makes sure it is up), or TEST_REDIS_URL.

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** True when the server answers a PING; suites on Redis skip (with the reason printed) otherwise. */
export async function redisReachable(url = TEST_REDIS_URL): Promise<boolean> {
  const probe = createClient({ url, socket: { reconnectStrategy: false, connectTimeout: 2_000 } });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    if (probe.isOpen) await probe.quit();
  }
}
