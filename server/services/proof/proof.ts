import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import { every, type JobObserver } from '../../jobs/every.ts';
import type { ChainAdapter } from '../chain/adapter.ts';
import { bindVerb, type PersonContext, systemContext } from '../context.ts';
import { publish } from './publish.ts';
import { createTreeCache, listPublications, myProofs } from './read.ts';
import { createProofRepository } from './repository.ts';
import { createReserves } from './reserves.ts';

// Proof of liabilities (issue 24; docs/decisions/146-proof-of-liabilities.md): publish a
// Merkle-sum tree of what the platform owes each person, list the published roots, hand a person
// their inclusion proof. The schedule runs on the jobs' leader only (server/backend.ts).

export interface ProofServiceOptions {
  db: DatabaseLike;
  now: () => number;
  log: (message: string, error?: unknown) => void;
  /** Random bytes for the nonces; tests pass their own. */
  random?: (size: number) => Buffer;
  /** The chain the reserves are read from (decision 149); none: no reserves shown. */
  chain?: ChainAdapter | undefined;
}

const CHAIN_SEQ = 'SELECT coalesce(max(seq), 0) AS seq FROM chain_transactions';

/** How often the schedule looks whether a publication is due: the interval itself is PROOF_INTERVAL_HOURS. */
const CHECK_MS = 10 * 60_000;

export function createProofService({ db, now, log, random, chain }: ProofServiceOptions) {
  const repo = createProofRepository(db);
  const publishDeps = { repo, now, ...(random ? { random } : {}) };
  const publishVerb = bindVerb(publishDeps, publish);
  const mineDeps = { repo, trees: createTreeCache(repo) };
  return {
    publish: publishVerb,
    list: bindVerb({ repo }, listPublications),
    mine: (ctx: PersonContext) => myProofs(mineDeps, ctx),
    /** What the platform's addresses hold, against the latest published liabilities (the public page). */
    reserves: createReserves({
      repo,
      chain,
      now,
      chainSeq: async () => Number((await asDatabase(db).sql.get<{ seq: number }>(CHAIN_SEQ))?.seq ?? 0),
    }),

    /**
     * Publishes whenever the latest publication is `intervalMs` old or there is none: checked at
     * once and every ten minutes, from the stored time, so a restart or a new leader neither
     * publishes twice nor skips a day; never with an interval of 0. Returns the function that stops it.
     */
    startSchedule(intervalMs: number, checkMs = CHECK_MS, observer?: JobObserver): () => Promise<void> {
      if (intervalMs <= 0) return async () => {};
      const check = async () => {
        const latest = await repo.latest();
        if (latest && now() - Number(latest.publishedAt) < intervalMs) return;
        await publishVerb(systemContext('proof-schedule'), { source: 'schedule' });
      };
      const onError = (error: unknown) => log('Proof of liabilities: the scheduled publication failed', error);
      return every('proof-schedule', Math.min(checkMs, intervalMs), check, { onError, observer });
    },
  };
}

export type ProofService = ReturnType<typeof createProofService>;
