// One contender of tests/api/trade-concurrency.test.ts: a worker thread with its own connection
// and its own services over the shared database (SQLite file or PostgreSQL), as another server
// process would have. It
// waits at the barrier, then runs its actions on the trades as fast as it can. Plain Node (type
// stripping), outside Vitest's transform: relative imports with their `.ts` extension.
import { parentPort, workerData } from 'node:worker_threads';
import { connectDatabase } from '../../db/database.ts';
import { createInProcessBus } from '../../server/realtime/bus.ts';
import { createAccountsRepository } from '../../server/services/accounts/repository.ts';
import { createThrottle } from '../../server/services/accounts/throttle.ts';
import { type AuthState, personContext } from '../../server/services/context.ts';
import { AppError } from '../../server/services/errors.ts';
import { createLedgerService } from '../../server/services/ledger/ledger.ts';
import { createLedgerRepository } from '../../server/services/ledger/repository.ts';
import type { OffersService } from '../../server/services/offers/offers.ts';
import { createTradesRepository } from '../../server/services/trades/repository.ts';
import { createTradesService } from '../../server/services/trades/trades.ts';
import { createTwoFactorService } from '../../server/services/two-factor/two-factor.ts';

export interface TradeAction {
  hash: string;
  action: 'release' | 'cancel';
  userId: number;
}

export interface TradeWorkerInput {
  /** The test database: a SQLite path or a postgres:// URL (COINFAIR_DIALECT is inherited). */
  dbUrl: string;
  /** [0]: contenders ready, [1]: go (0 until the test releases them). */
  barrier: SharedArrayBuffer;
  actions: TradeAction[];
}

export type TradeWorkerResult = { ok: true; hash: string; status: string } | { ok: false; hash: string; code: string };

const { dbUrl, barrier, actions } = workerData as TradeWorkerInput;
const db = await connectDatabase(dbUrl, { poolSize: 2 });
// Only what release and cancel use: the whole container would load sharp, whose native module
// crashes the process when a worker thread that loaded it is terminated.
const now = Date.now;
const bus = createInProcessBus();
const ledger = createLedgerService({ repo: createLedgerRepository(db), bus, now });
const twoFactor = createTwoFactorService({
  db,
  now,
  throttle: createThrottle({ repo: createAccountsRepository(db), now }),
});
const trades = createTradesService({
  repo: createTradesRepository(db),
  offers: {} as OffersService,
  ledger,
  twoFactor,
  bus,
  now,
  disputeWaitMs: 0,
});
// The trade service reads only who is acting from the session.
const ctxOf = (userId: number) => personContext({ user: { id: userId } } as AuthState);

const flags = new Int32Array(barrier);
Atomics.add(flags, 0, 1);
Atomics.notify(flags, 0);
Atomics.wait(flags, 1, 0);

// One action after the other, as one server process serving one request at a time would.
const results: TradeWorkerResult[] = [];
for (const { hash, action, userId } of actions) {
  try {
    const trade =
      action === 'release'
        ? await trades.release(ctxOf(userId), { hash })
        : await trades.cancel(ctxOf(userId), { hash });
    results.push({ ok: true, hash, status: trade.status });
  } catch (error) {
    if (error instanceof AppError) {
      results.push({ ok: false, hash, code: error.code });
      continue;
    }
    results.push({
      ok: false,
      hash,
      code: error instanceof Error ? `${(error as { code?: string }).code}: ${error.message}` : 'unknown',
    });
  }
}
await db.close();
parentPort?.postMessage(results);
