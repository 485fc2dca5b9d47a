import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../server/services/ledger/invariants.ts';
import { expectProofAgrees } from '../support/proof-agrees.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { type TradeData, tradeFixtures } from '../support/trade-fixtures.ts';
import { createUser } from '../support/users.ts';
import type { TradeAction, TradeWorkerInput, TradeWorkerResult } from './trade-worker.ts';

// Real contention on trades: worker threads, each with its own connection and services over one
// database, SQLite or PostgreSQL (as separate server processes would have), released together by a barrier. Whatever
// the interleaving, each trade ends exactly one way and the ledger stays whole.
// TRADES_LONG=1 runs the long mode: 1000 release-versus-cancel trials.

const CONTENDERS = 4;
const TRIALS = process.env.TRADES_LONG === '1' ? 1000 : 40;

let t: TestApp;
afterEach(() => t?.close());

async function contend(lists: TradeAction[][]): Promise<TradeWorkerResult[]> {
  const barrier = new SharedArrayBuffer(8);
  const flags = new Int32Array(barrier);
  const workers = lists.map((actions) => {
    const data: TradeWorkerInput = { dbUrl: t.dbUrl, barrier, actions };
    return new Worker(new URL('./trade-worker.ts', import.meta.url), { workerData: data });
  });
  const answers = workers.map(
    (worker) =>
      new Promise<TradeWorkerResult[]>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      }),
  );
  while (Atomics.load(flags, 0) < lists.length) await new Promise((r) => setTimeout(r, 5));
  Atomics.store(flags, 1, 1);
  Atomics.notify(flags, 1);
  try {
    return (await Promise.all(answers)).flat();
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

async function setUp(trades: number) {
  t = await createTestApp({ clock: { now: Date.now() } });
  const f = tradeFixtures(t);
  // A quiet market (the demo offers paused) and two fully verified people, the seller funded.
  await f.sql(`UPDATE offers SET status = 'paused'`);
  const seller = await createUser(t, { vendor: true, verified: true, funded: { BTC: trades * 50_500 } });
  const purchaser = await createUser(t, { verified: true });
  const [vendor, buyer] = [await seller.signIn(), await purchaser.signIn()];
  const offer = await f.createOffer(vendor);
  const started: TradeData[] = [];
  for (let i = 0; i < trades; i++) started.push(await f.startTrade(buyer, offer, '50'));
  return { f, started, seller, purchaser, sellerId: seller.id, buyerId: purchaser.id };
}

const statusOf = async (hash: string) =>
  (await t.db.sql.get<{ status: string }>('SELECT status FROM trades WHERE hash = ?', [hash]))?.status;

/** How many of the trade's transitions are among `actions`. */
const movesOf = async (hash: string, actions: string[]) =>
  (
    await t.db.sql.get<{ n: number }>(
      `SELECT count(*) AS n FROM trade_transitions t JOIN trades r ON r.id = t.trade_id
       WHERE r.hash = ? AND t.action IN (${actions.map(() => '?').join(', ')})`,
      [hash, ...actions],
    )
  )?.n;

describe('trades under concurrent writers', { timeout: 120_000 }, () => {
  it('50 concurrent identical releases: one release, the others see it done', async () => {
    const { f, started, sellerId, purchaser } = await setUp(1);
    const hash = (started[0] as TradeData).hash;
    const lists = Array.from({ length: CONTENDERS }, (_, w) =>
      Array.from({ length: 50 }, (_, i) => i)
        .filter((i) => i % CONTENDERS === w)
        .map(() => ({ hash, action: 'release' as const, userId: sellerId })),
    );
    const results = await contend(lists);
    expect(results).toHaveLength(50);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(new Set(results.map((r) => (r.ok ? r.status : '')))).toEqual(new Set(['released']));
    expect(await movesOf(hash, ['release'])).toBe(1);
    expect(await f.balance(purchaser.email)).toBe(50_000);
    expect(await verifyLedger(t.db)).toEqual([]);
  });

  it(`release racing cancel, ${TRIALS} trials: each trade ends one way, the money follows it`, async () => {
    const { f, started, seller, purchaser, sellerId, buyerId } = await setUp(TRIALS);
    // Every contender takes every trade; half release as the seller, half cancel as the buyer.
    const lists = Array.from({ length: CONTENDERS }, (_, w) =>
      started.map((trade) =>
        w % 2 === 0
          ? { hash: trade.hash, action: 'release' as const, userId: sellerId }
          : { hash: trade.hash, action: 'cancel' as const, userId: buyerId },
      ),
    );
    const results = await contend(lists);
    const codes = new Set(results.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.code)));
    // The loser of a race is told the trade moved on; nothing else may go wrong.
    expect([...codes].filter((code) => code !== 'TRADE_STATE_CHANGED')).toEqual([]);
    let released = 0;
    for (const trade of started) {
      const status = await statusOf(trade.hash);
      expect(['released', 'cancelled_buyer']).toContain(status);
      if (status === 'released') released += 1;
      expect(await movesOf(trade.hash, ['release', 'cancel'])).toBe(1);
    }
    expect(await f.balance(purchaser.email)).toBe(released * 50_000);
    expect(await f.balance(seller.email)).toBe((TRIALS - released) * 50_500);
    expect(await verifyLedger(t.db)).toEqual([]);
    // The proof of liabilities agrees with ledger:verify and with every person's accounts (issue 24).
    expect(await expectProofAgrees(t.db)).toBeGreaterThanOrEqual(1);
  });
});
