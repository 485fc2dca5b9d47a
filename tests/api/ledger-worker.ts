// One contender of tests/api/ledger-concurrency.test.ts: a worker thread with its own SQLite
// connection to the shared file, as another server process would have. It waits at the barrier
// until every contender is ready, then sends its requests as fast as it can. Plain Node (type
// stripping), outside Vitest's transform: relative imports with their `.ts` extension.
import { parentPort, workerData } from 'node:worker_threads';
import { closeDatabase, openDatabase } from '../../db/client.ts';
import { createInProcessBus } from '../../server/realtime/bus.ts';
import { AppError } from '../../server/services/errors.ts';
import { createLedgerService, type PostInput } from '../../server/services/ledger/ledger.ts';
import { createLedgerRepository } from '../../server/services/ledger/repository.ts';

export interface WorkerInput {
  dbPath: string;
  /** [0]: contenders ready, [1]: go (0 until the test releases them). */
  barrier: SharedArrayBuffer;
  requests: PostInput[];
}

export type WorkerResult = { ok: true; id: string; replayed: boolean } | { ok: false; code: string };

const { dbPath, barrier, requests } = workerData as WorkerInput;
const db = openDatabase(dbPath);
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
closeDatabase(db);
parentPort?.postMessage(results);
