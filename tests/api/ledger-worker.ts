// One contender of tests/api/ledger-concurrency.test.ts: a worker thread with its own connection
// to the shared database (the SQLite file, or the PostgreSQL database the test's URL names), as
// another server process would have. It waits at the barrier
// until every contender is ready, then sends its requests as fast as it can. Plain Node (type
// stripping), outside Vitest's transform: relative imports with their `.ts` extension.
import { parentPort, workerData } from 'node:worker_threads';
import { connectDatabase } from '../../db/database.ts';
import { createInProcessBus } from '../../server/realtime/bus.ts';
import { AppError } from '../../server/services/errors.ts';
import { createLedgerService, type PostInput } from '../../server/services/ledger/ledger.ts';
import { createLedgerRepository } from '../../server/services/ledger/repository.ts';

export interface WorkerInput {
  /** The test database: a SQLite path or a postgres:// URL (COINFAIR_DIALECT is inherited). */
  dbUrl: string;
  /** [0]: contenders ready, [1]: go (0 until the test releases them). */
  barrier: SharedArrayBuffer;
  requests: PostInput[];
}

export type WorkerResult = { ok: true; id: string; replayed: boolean } | { ok: false; code: string };

const { dbUrl, barrier, requests } = workerData as WorkerInput;
// One connection per contender, as one server process would hold at a time per request.
const db = await connectDatabase(dbUrl, { poolSize: 2 });
const ledger = createLedgerService({ repo: createLedgerRepository(db), bus: createInProcessBus(), now: Date.now });
const flags = new Int32Array(barrier);
Atomics.add(flags, 0, 1);
Atomics.notify(flags, 0);
Atomics.wait(flags, 1, 0);

// One after another, as one process's requests: the race is between the workers' connections.
const results: WorkerResult[] = [];
for (const input of requests) {
  try {
    const tx = await ledger.post({ actor: { type: 'system', name: 'contender' } }, input);
    results.push({ ok: true, id: tx.id, replayed: tx.replayed });
  } catch (error) {
    if (error instanceof AppError) results.push({ ok: false, code: error.code });
    else
      results.push({
        ok: false,
        code: error instanceof Error ? `${(error as { code?: string }).code}: ${error.message}` : 'unknown',
      });
  }
}
await db.close();
parentPort?.postMessage(results);
