import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from './client.ts';

// Asynchronous access to one SQLite connection (issue 17: the services are asynchronous so the
// same code runs on PostgreSQL). better-sqlite3 runs each statement synchronously, so a single
// statement can never interleave with another; but a transaction whose body awaits spans several
// turns of the event loop, and anything another request ran on the shared connection in between
// would land inside it (reading its uncommitted rows, and rolled back with it). So the connection
// has a gate: a transaction holds it from BEGIN to COMMIT, statements of that transaction (known by
// AsyncLocalStorage) pass, and everything else waits its turn in arrival order. When no
// transaction is open a statement runs at once, as before.

interface Gate {
  busy: boolean;
  waiting: (() => void)[];
}

/** What the current async context holds: the connection's transaction and what waits for its commit. */
interface Holding {
  client: Db['$client'];
  afterCommit: (() => void)[];
  savepoints: number;
  /** Set at COMMIT or ROLLBACK: work the body left running without awaiting it no longer passes. */
  closed: boolean;
}

const gates = new WeakMap<Db['$client'], Gate>();
const holding = new AsyncLocalStorage<Holding>();

function gateOf(client: Db['$client']): Gate {
  let gate = gates.get(client);
  if (!gate) {
    gate = { busy: false, waiting: [] };
    gates.set(client, gate);
  }
  return gate;
}

async function acquire(gate: Gate): Promise<void> {
  if (!gate.busy) {
    gate.busy = true;
    return;
  }
  // Handed over by release(): busy stays true from one holder to the next.
  await new Promise<void>((resolve) => gate.waiting.push(resolve));
}

function release(gate: Gate): void {
  const next = gate.waiting.shift();
  if (next) next();
  else gate.busy = false;
}

/** The open transaction of this async context on `db`, if any. */
function heldOn(db: Db): Holding | undefined {
  const held = holding.getStore();
  return held && !held.closed && held.client === db.$client ? held : undefined;
}

/** True inside a `transaction` body on `db`. */
export function inTransaction(db: Db): boolean {
  return heldOn(db) !== undefined;
}

/**
 * Runs `read` (synchronous statements on `db`) when the connection is free for this context: at
 * once inside this context's own transaction or when none is open, else after the open one ends.
 */
export async function access<T>(db: Db, read: () => T): Promise<T> {
  if (heldOn(db)) return read();
  const gate = gateOf(db.$client);
  if (!gate.busy) return read();
  await acquire(gate);
  try {
    return read();
  } finally {
    release(gate);
  }
}

type Method = (...args: never[]) => unknown;

/** A repository whose every method waits for the gate and answers a promise. */
export type Gated<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : T[K];
};

/**
 * A repository of synchronous better-sqlite3 statements as the asynchronous one the services call:
 * each method goes through `access`. (The statements themselves move to the dialect-neutral
 * client when PostgreSQL arrives; the services already await.)
 */
export function gated<T extends object>(db: Db, repository: T): Gated<T> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(repository)) {
    out[name] =
      typeof value === 'function'
        ? (...args: unknown[]) => access(db, () => (value as Method)(...(args as never[])))
        : value;
  }
  return out as Gated<T>;
}

export interface TransactionOptions {
  /** Runs once the outermost transaction committed, in order; never after a rollback. */
  afterCommit?: (() => void)[];
}

/**
 * `body` in one immediate transaction (the write lock taken at BEGIN, so two writers never
 * deadlock upgrading a read). Inside another transaction of this context it becomes a savepoint:
 * its failure rolls back only its own writes, and what it hands to `afterCommit` waits for the
 * outermost commit. Returns the body's value and, for the outermost, the callbacks to run.
 */
export async function transaction<T>(db: Db, body: (afterCommit: (run: () => void) => void) => Promise<T>): Promise<T> {
  const held = heldOn(db);
  if (held) return savepoint(db, held, body);
  const gate = gateOf(db.$client);
  await acquire(gate);
  const mine: Holding = { client: db.$client, afterCommit: [], savepoints: 0, closed: false };
  let result: T;
  try {
    db.$client.exec('BEGIN IMMEDIATE');
    try {
      result = await holding.run(mine, () => body((run) => mine.afterCommit.push(run)));
      db.$client.exec('COMMIT');
    } catch (error) {
      if (db.$client.inTransaction) db.$client.exec('ROLLBACK');
      throw error;
    }
  } finally {
    mine.closed = true;
    release(gate);
  }
  for (const run of mine.afterCommit) run();
  return result;
}

async function savepoint<T>(
  db: Db,
  held: Holding,
  body: (afterCommit: (run: () => void) => void) => Promise<T>,
): Promise<T> {
  const name = `sp_${++held.savepoints}`;
  const pending: (() => void)[] = [];
  db.$client.exec(`SAVEPOINT ${name}`);
  try {
    const result = await body((run) => pending.push(run));
    db.$client.exec(`RELEASE ${name}`);
    held.afterCommit.push(...pending);
    return result;
  } catch (error) {
    db.$client.exec(`ROLLBACK TO ${name}`);
    db.$client.exec(`RELEASE ${name}`);
    throw error;
  }
}
