import { createJob, type JobObserver } from '../../jobs/every.ts';
import { immediate, systemContext } from '../context.ts';
import type { createBroadcastPending } from './broadcast.ts';
import type { createCreditDeposit } from './credit.ts';
import type { ChainDeps } from './deps.ts';
import type { createRecordDeposits } from './record-deposits.ts';
import type { createTrackBroadcast } from './track.ts';

// The chain job (issue 5): watches deposits to our addresses, credits each through the ledger once
// it has its network's confirmations, hands sendouts to the network and settles them. It runs on a
// timer in the server (server/backend.ts) and once per command in the admin CLI; all its state is
// in the database, so a restart (or a second process) continues where the last run stopped.

/** Who the job's postings and audit rows name. */
const CHAIN = systemContext('chain');

export interface ChainJobSteps {
  recordDeposits: ReturnType<typeof createRecordDeposits>;
  creditDeposit: ReturnType<typeof createCreditDeposit>;
  broadcastPending: ReturnType<typeof createBroadcastPending>;
  trackBroadcast: ReturnType<typeof createTrackBroadcast>;
  announce: () => Promise<void>;
}

export function createChainJob({ repo, adapter, addressBook, now, log }: ChainDeps, steps: ChainJobSteps) {
  const isOurs = async (address: string) => (await addressBook.find(address)) !== undefined;

  const runTick = async () => {
    await adapter.advance?.(now());
    for (const network of adapter.depositNetworks) {
      // Asking the node happens before the transaction: nothing else waits for it.
      const scan = await adapter.scanDeposits(network, isOurs);
      await immediate(repo.db, async () => {
        await steps.recordDeposits(network, scan.deposits);
        if (scan.cursor) await repo.setCursor(network, scan.cursor.value, scan.cursor.height, now());
      });
    }
    for (const row of await repo.open('incoming'))
      if (row.confirmations >= row.requiredConfirmations) await steps.creditDeposit(CHAIN, { id: row.id });
    await steps.broadcastPending(CHAIN);
    await steps.trackBroadcast(CHAIN);
  };

  /**
   * One round of the job (server/jobs/every.ts: overlapping calls share the running round); a
   * failing round is logged and the next starts afresh from the database. Announcements always
   * run, so changes other processes made (the admin CLI) reach the sockets even when this round failed.
   */
  const round = async () => {
    try {
      await runTick();
    } finally {
      await steps.announce().catch((error: unknown) => log.error('Chain: announcing the changes failed', error));
    }
  };

  const job = createJob('chain', round, {
    onError: (error) => log.error('Chain: a round of the chain job failed', error),
  });

  return {
    tick: async (): Promise<void> => {
      await job.run();
    },

    /** Runs `tick` now and every `intervalMs`; the returned function stops it and waits for a running round. */
    start(intervalMs: number, observer?: JobObserver): () => Promise<void> {
      return job.start(intervalMs, { observer });
    },
  };
}
