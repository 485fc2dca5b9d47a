import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { toPostgres, valuesFor } from './sql-text.ts';

// The PostgreSQL connection pool (issue 17). Statements are the repositories' portable SQL,
// rewritten once by sql-text.ts. A transaction takes one pooled connection for its whole body
// (AsyncLocalStorage routes the body's statements to it) and runs SERIALIZABLE: PostgreSQL then
// guarantees what SQLite's single writer gave for free, that a transaction behaves as if it ran
// alone, and answers a conflicting one with a serialization failure, which is retried from the
// start (docs/decisions: "PostgreSQL transactions are serializable and retried").

/** BIGINT and NUMERIC as JavaScript numbers, refusing any value a double would round: no satoshi is lost silently. */
function exactNumber(text: string): number {
  const value = Number(text);
  if (/^-?\d+$/.test(text) && !Number.isSafeInteger(value)) {
    throw new RangeError(`The database returned ${text}, beyond the integers a number holds exactly.`);
  }
  return value;
}

const INT8 = 20;
const NUMERIC = 1700;

// Process-wide, because Drizzle's node-postgres driver passes its own parsers per query and falls
// back to these for every type it does not handle itself (a `count(*)`, a `sum(…)` in a sql``).
pg.types.setTypeParser(INT8, exactNumber);
pg.types.setTypeParser(NUMERIC, exactNumber);

/** Serialization failure and deadlock: the transaction lost a race and may simply run again. */
const RETRYABLE = new Set(['40001', '40P01']);
// Many racers on one hot row (a vendor's wallet, one offer) lose again and again: enough attempts,
// and a backoff growing to a quarter second, that a loser gets through (about 5 s in the worst case).
const MAX_ATTEMPTS = 30;
const MAX_BACKOFF_MS = 256;

/** A transaction that still lost its race after every retry; nothing of it was written. */
export class ContendedError extends Error {
  readonly code = 'CONTENDED';
  constructor(cause: unknown) {
    super(`the transaction lost to concurrent ones ${MAX_ATTEMPTS} times: ${String(cause)}`, { cause });
  }
}

export interface RunResult {
  changes: number;
}

export interface Postgres {
  readonly pool: pg.Pool;
  all<R>(sql: string, args?: readonly unknown[]): Promise<R[]>;
  get<R>(sql: string, args?: readonly unknown[]): Promise<R | undefined>;
  run(sql: string, args?: readonly unknown[]): Promise<RunResult>;
  /** Several statements separated by semicolons, no parameters (migrations). */
  exec(sql: string): Promise<void>;
  transaction<T>(body: (afterCommit: (run: () => void) => void) => Promise<T>): Promise<T>;
  inTransaction(): boolean;
  /** This context's transaction connection, else the pool (for Drizzle's driver). */
  connection(): pg.Pool | pg.PoolClient;
  close(): Promise<void>;
}

interface Held {
  client: pg.PoolClient;
  afterCommit: (() => void)[];
  savepoints: number;
  closed: boolean;
  /** The transaction's statements, one after another on its one connection (a body may fire several at once). */
  queue: Promise<unknown>;
}

/** `statement` on the transaction's connection once the ones before it finished. */
function inTurn<T>(h: Held, statement: () => Promise<T>): Promise<T> {
  const result = h.queue.then(statement, statement);
  h.queue = result.catch(() => {});
  return result;
}

async function savepoint<T>(h: Held, body: (afterCommit: (run: () => void) => void) => Promise<T>): Promise<T> {
  const name = `sp_${++h.savepoints}`;
  const pending: (() => void)[] = [];
  await h.client.query(`SAVEPOINT ${name}`);
  try {
    const result = await body((run) => pending.push(run));
    await h.client.query(`RELEASE SAVEPOINT ${name}`);
    h.afterCommit.push(...pending);
    return result;
  } catch (error) {
    await h.client.query(`ROLLBACK TO SAVEPOINT ${name}`);
    throw error;
  }
}

export function openPostgres(url: string, { max = 10 }: { max?: number } = {}): Postgres {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client's error (the server restarted) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const held = new AsyncLocalStorage<Held>();
  const rewritten = new Map<string, ReturnType<typeof toPostgres>>();

  const current = () => {
    const h = held.getStore();
    return h && !h.closed && h.client ? h : undefined;
  };

  async function query<R>(sql: string, args: readonly unknown[] = []): Promise<pg.QueryResult<R & pg.QueryResultRow>> {
    let statement = rewritten.get(sql);
    if (!statement) {
      statement = toPostgres(sql);
      rewritten.set(sql, statement);
    }
    const values = valuesFor(statement, args);
    const h = current();
    if (!h) return pool.query<R & pg.QueryResultRow>(statement.text, values);
    return inTurn(h, () => h.client.query<R & pg.QueryResultRow>(statement.text, values));
  }

  async function attempt<T>(body: (afterCommit: (run: () => void) => void) => Promise<T>): Promise<[T, Held]> {
    const client = await pool.connect();
    const mine: Held = { client, afterCommit: [], savepoints: 0, closed: false, queue: Promise.resolve() };
    try {
      await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
      const result = await held.run(mine, () => body((run) => mine.afterCommit.push(run)));
      await client.query('COMMIT');
      return [result, mine];
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      mine.closed = true;
      client.release();
    }
  }

  return {
    pool,
    all: async <R>(sql: string, args?: readonly unknown[]) => (await query<R>(sql, args)).rows as R[],
    get: async <R>(sql: string, args?: readonly unknown[]) => (await query<R>(sql, args)).rows[0] as R | undefined,
    run: async (sql, args) => ({ changes: (await query(sql, args)).rowCount ?? 0 }),
    exec: async (sql) => {
      await (current()?.client ?? pool).query(sql);
    },
    inTransaction: () => current() !== undefined,
    connection: () => {
      const h = current();
      if (!h) return pool;
      const query = (...args: unknown[]) =>
        inTurn(h, () => (h.client.query as (...a: unknown[]) => Promise<unknown>).apply(h.client, args));
      return { query } as unknown as pg.PoolClient;
    },
    async transaction(body) {
      const h = current();
      if (h) return savepoint(h, body);
      for (let tries = 1; ; tries++) {
        try {
          const [result, mine] = await attempt(body);
          for (const run of mine.afterCommit) run();
          return result;
        } catch (error) {
          const code = (error as { code?: string }).code;
          if (!code || !RETRYABLE.has(code)) throw error;
          if (tries >= MAX_ATTEMPTS) throw new ContendedError(error);
          // Back off, with jitter, so the racers do not collide again in step.
          await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 ** tries, MAX_BACKOFF_MS)));
        }
      }
    },
    close: () => pool.end(),
  };
}
