import { createClient } from 'redis';

// Values every process of the deployment must find, whichever process wrote them (issue 17): the
// conversion quotes, so a quote issued by one process is accepted by another; API-key nonces, so a
// request replayed to another process is refused; per-key request counts (issue 21). With
// REDIS_URL they live in Redis, each key expiring on its own; without it in this process's memory.

export interface SharedStore {
  /** The value of `key`, or undefined when it was never set or has expired. */
  get(key: string): Promise<string | undefined>;
  /** Sets `key` for `ttlMs` milliseconds (at least one). */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Sets `key` for `ttlMs` only if it is not set: true when this call set it (atomically across processes). */
  add(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Adds one to the count at `key` (expiring `ttlMs` after its first increment) and answers the new count. */
  increment(key: string, ttlMs: number): Promise<number>;
  /** Resolves when the server behind the store answers (/readyz); absent on a store of one process. */
  ping?(): Promise<void>;
  close(): Promise<void>;
}

export interface MemoryStoreOptions {
  /** The clock expiries are measured on: the services' own, so tests that move it see keys expire. */
  now?: () => number;
  /** A bound on memory whatever the write rate: past it, the oldest keys go first. */
  maxEntries?: number;
}

/** One process's store. Keys are dropped on the next write once expired (or past `maxEntries`), oldest first. */
export function createMemoryStore({ now = Date.now, maxEntries = 10_000 }: MemoryStoreOptions = {}): SharedStore {
  const entries = new Map<string, { value: string; expiresAt: number }>();
  // Insertion order is write order: with one TTL per kind of key, the oldest expire first.
  const forget = (at: number) => {
    for (const [key, entry] of entries) {
      if (entry.expiresAt > at && entries.size <= maxEntries) break;
      entries.delete(key);
    }
  };
  return {
    async get(key) {
      const entry = entries.get(key);
      return entry && entry.expiresAt > now() ? entry.value : undefined;
    },
    async set(key, value, ttlMs) {
      const at = now();
      entries.delete(key);
      entries.set(key, { value, expiresAt: at + Math.max(1, ttlMs) });
      forget(at);
    },
    async add(key, value, ttlMs) {
      if (await this.get(key)) return false;
      await this.set(key, value, ttlMs);
      return true;
    },
    async increment(key, ttlMs) {
      const entry = entries.get(key);
      const at = now();
      if (entry && entry.expiresAt > at) {
        entry.value = String(Number(entry.value) + 1);
        return Number(entry.value);
      }
      await this.set(key, '1', ttlMs);
      return 1;
    },
    async close() {
      entries.clear();
    },
  };
}

export interface RedisStoreOptions {
  /** Key names in Redis start with this, so several marketplaces (or test runs) may share one server. */
  prefix?: string;
  /** The connection failed or dropped; the client reconnects on its own. */
  onRedisError?: (error: unknown) => void;
}

/** The deployment's store in Redis: one key per value, expiring with PX. */
export async function createRedisStore(url: string, options: RedisStoreOptions = {}): Promise<SharedStore> {
  const { prefix = 'coinfair:store:', onRedisError = () => {} } = options;
  const client = createClient({ url });
  client.on('error', onRedisError);
  await client.connect();
  return {
    async get(key) {
      return (await client.get(prefix + key)) ?? undefined;
    },
    async set(key, value, ttlMs) {
      await client.set(prefix + key, value, { expiration: { type: 'PX', value: Math.max(1, Math.ceil(ttlMs)) } });
    },
    async add(key, value, ttlMs) {
      const expiration = { type: 'PX' as const, value: Math.max(1, Math.ceil(ttlMs)) };
      return (await client.set(prefix + key, value, { condition: 'NX', expiration })) === 'OK';
    },
    async increment(key, ttlMs) {
      // The expiry is set with the first increment only (NX), so the window does not slide.
      const [count] = await client
        .multi()
        .incr(prefix + key)
        .pExpire(prefix + key, Math.max(1, Math.ceil(ttlMs)), 'NX')
        .exec();
      return Number(count);
    },
    async ping() {
      await client.ping();
    },
    async close() {
      // With Redis down, QUIT would wait for a reconnection that may never come: a shutdown must not.
      if (client.isReady) await client.quit().catch(() => {});
      else client.destroy();
    },
  };
}
