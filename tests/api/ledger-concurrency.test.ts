import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createInProcessBus } from '../../server/realtime/bus.ts';
import { systemContext } from '../../server/services/context.ts';
import { verifyLedger } from '../../server/services/ledger/invariants.ts';
import { createLedgerService, type PostInput, systemAccount, walletOf } from '../../server/services/ledger/ledger.ts';
import { createLedgerRepository } from '../../server/services/ledger/repository.ts';
import { createTestDb, type TestDb } from '../support/test-db.ts';
import type { WorkerInput, WorkerResult } from './ledger-worker.ts';

// Real contention: CONTENDERS worker threads, each with its own connection to one database (as
// separate server processes would have), released together by a barrier. SQLite lets one writer
// in at a time (BEGIN IMMEDIATE; the others wait in the 5 s busy timeout); PostgreSQL lets them all
// in and answers conflicting SERIALIZABLE transactions with a serialization failure, retried
// (db/postgres.ts). The guards must hold whatever the interleaving: one effect per idempotency
// key, no balance below zero.

const testContext = systemContext('test');
const CONTENDERS = 10;
const REQUESTS = 50;

let testDb: TestDb;
afterEach(() => testDb?.close());

async function setup() {
  testDb = await createTestDb();
  const ledger = createLedgerService({
    repo: createLedgerRepository(testDb.db),
    bus: createInProcessBus(),
    now: Date.now,
  });
  const [alice, bob] = (await testDb.db.sql.all<{ id: number }>('SELECT id FROM users ORDER BY id LIMIT 2')).map(
    (row) => row.id,
  );
  return { ledger, alice: alice as number, bob: bob as number };
}

/** Spreads the requests over the contenders round-robin, starts them together, gathers every answer. */
async function contend(dbUrl: string, requests: PostInput[]): Promise<WorkerResult[]> {
  const barrier = new SharedArrayBuffer(8);
  const flags = new Int32Array(barrier);
  const workers = Array.from({ length: CONTENDERS }, (_, w) => {
    const data: WorkerInput = { dbUrl, barrier, requests: requests.filter((_, i) => i % CONTENDERS === w) };
    return new Worker(new URL('./ledger-worker.ts', import.meta.url), { workerData: data });
  });
  const answers = workers.map(
    (worker) =>
      new Promise<WorkerResult[]>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      }),
  );
  // Release them only when all have opened their connection and prepared their statements.
  while (Atomics.load(flags, 0) < CONTENDERS) await new Promise((r) => setTimeout(r, 5));
  Atomics.store(flags, 1, 1);
  Atomics.notify(flags, 1);
  try {
    return (await Promise.all(answers)).flat();
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

const deposit = (userId: number, amount: number, key: string): PostInput => ({
  kind: 'deposit',
  idempotencyKey: key,
  legs: [
    { account: systemAccount('chain_in', 'BTC'), amount: -amount },
    { account: walletOf(userId, 'BTC'), amount },
  ],
});

// Worker threads start cold: on a loaded machine the first test alone can take seconds.
describe('ledger under concurrent writers', { timeout: 60_000 }, () => {
  it(`gives ${REQUESTS} concurrent identical requests with one key exactly one effect`, async () => {
    const { ledger, alice } = await setup();
    const results = await contend(
      testDb.url,
      Array.from({ length: REQUESTS }, () => deposit(alice, 25_000, 'chain:abc:0')),
    );
    expect(results.filter((r) => !r.ok)).toEqual([]);
    const ids = new Set(results.map((r) => (r.ok ? r.id : '')));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.ok && !r.replayed)).toHaveLength(1);
    expect((await ledger.balances(testContext, { userId: alice })).BTC).toBe(25_000);
    const count = await testDb.db.sql.get<{ n: number }>('SELECT count(*) AS n FROM ledger_transactions');
    expect(count?.n).toBe(1);
    expect(await verifyLedger(testDb.db)).toEqual([]);
  });

  it(`lets ${REQUESTS} concurrent debits that together exceed the balance take it to zero, never below`, async () => {
    const { ledger, alice, bob } = await setup();
    await ledger.post({ actor: { type: 'system', name: 'test' } }, deposit(alice, 1_000, 'fund'));
    // 50 × 100 asked of 1,000: exactly 10 fit, whichever they are.
    const results = await contend(
      testDb.url,
      Array.from({ length: REQUESTS }, (_, i) => ({
        kind: 'transfer' as const,
        idempotencyKey: `debit-${i}`,
        legs: [
          { account: walletOf(alice, 'BTC'), amount: -100 },
          { account: walletOf(bob, 'BTC'), amount: 100 },
        ],
      })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.code)).toEqual(Array(40).fill('INSUFFICIENT_FUNDS'));
    expect((await ledger.balances(testContext, { userId: alice })).BTC).toBe(0);
    expect((await ledger.balances(testContext, { userId: bob })).BTC).toBe(1_000);
    expect(await verifyLedger(testDb.db)).toEqual([]);
  });
});
