import pg from 'pg';

// Which process runs the jobs (issue 17): trade expiry, the chain watcher, the price feed, demo
// presence and mail digests must run exactly once across the deployment. On PostgreSQL the
// leader is the process holding a session-level advisory lock on its own connection; when that
// process dies (or its connection does), PostgreSQL releases the lock and the next process to ask
// becomes leader within one `retryMs`. On SQLite there is one process, always the leader.

/** The advisory lock the jobs leader holds on PostgreSQL (/readyz asks whether anyone holds it). */
export const JOBS_LOCK = 'coinfair:jobs';

export interface Leadership {
  isLeader(): boolean;
  /** Called with true on becoming leader and false on losing it; returns the unsubscribe. */
  onChange(listener: (leader: boolean) => void): () => void;
  stop(): Promise<void>;
}

/** One process over SQLite: it leads from the start. */
export function soleLeadership(): Leadership {
  return {
    isLeader: () => true,
    onChange(listener) {
      listener(true);
      return () => {};
    },
    stop: async () => {},
  };
}

export interface PostgresLeadershipOptions {
  /** How often a follower asks for the lock, and the leader checks its connection is alive. */
  retryMs?: number;
  /** Which lock: one per deployment sharing a database. */
  name?: string;
  onError?: (error: unknown) => void;
}

export function postgresLeadership(url: string, options: PostgresLeadershipOptions = {}): Leadership {
  const { retryMs = 2000, name = JOBS_LOCK, onError = () => {} } = options;
  const listeners = new Set<(leader: boolean) => void>();
  let leader = false;
  let client: pg.Client | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  const setLeader = (value: boolean) => {
    if (leader === value) return;
    leader = value;
    for (const listener of [...listeners]) listener(value);
  };

  const drop = async () => {
    const old = client;
    client = null;
    setLeader(false);
    await old?.end().catch(() => {});
  };

  async function connect(): Promise<pg.Client> {
    const fresh = new pg.Client({ connectionString: url });
    // A broken lock connection means the lock may be gone: step down at once, ask again later.
    fresh.on('error', (error) => {
      onError(error);
      if (client === fresh) void drop();
    });
    await fresh.connect();
    return fresh;
  }

  async function tick(): Promise<void> {
    try {
      client ??= await connect();
      if (leader) {
        await client.query('SELECT 1');
      } else {
        const row = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS got', [name]);
        if (row.rows[0]?.got) setLeader(true);
      }
    } catch (error) {
      onError(error);
      await drop();
    }
  }

  const loop = async () => {
    await tick();
    if (!stopped) timer = setTimeout(loop, retryMs).unref();
  };
  void loop();

  return {
    isLeader: () => leader,
    onChange(listener) {
      listeners.add(listener);
      if (leader) listener(true);
      return () => listeners.delete(listener);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      // Ending the connection releases the lock for the next process at once.
      await drop();
    },
  };
}
