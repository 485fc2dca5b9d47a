import { createAnnounce } from './announce.ts';
import { createBroadcastPending } from './broadcast.ts';
import { createCreditDeposit } from './credit.ts';
import type { ChainDeps } from './deps.ts';
import { createFailSendout } from './fail-sendout.ts';
import { createChainJob } from './job.ts';
import { createOperatorSendouts } from './operator-sendouts.ts';
import { createChainReads } from './read.ts';
import { createRecordDeposits } from './record-deposits.ts';
import { createRequestSendout } from './sendout.ts';
import { createSimulation } from './simulate.ts';
import { createTrackBroadcast } from './track.ts';

// The chain service (issue 5, docs/architecture.md "Wallet and chains"), one verb per file: the
// job (`job.ts`: record deposits, credit, broadcast, track, announce) and what people and
// operators ask of it (`sendout.ts`, `simulate.ts`, `read.ts`). Every public call but the job's
// lifecycle (`tick`, `start`) is `verb(ctx, input)`.

export { WALLET_EVENT } from './announce.ts';
export type { ChainDeps, ChainLog } from './deps.ts';
export type { SendoutInput } from './sendout.ts';
export type { SimulateDepositInput } from './simulate.ts';

export function createChainService(deps: ChainDeps) {
  const announce = createAnnounce(deps);
  const creditDeposit = createCreditDeposit(deps);
  const failSendout = createFailSendout(deps);
  const job = createChainJob(deps, {
    recordDeposits: createRecordDeposits(deps),
    creditDeposit,
    broadcastPending: createBroadcastPending(deps, failSendout),
    trackBroadcast: createTrackBroadcast(deps, failSendout),
    announce,
  });
  const operatorSendouts = createOperatorSendouts(deps, failSendout);
  return {
    adapter: deps.adapter,
    tick: job.tick,
    start: job.start,
    /** Credits one deposit if due (tests use it to run the step twice). */
    creditDeposit,
    requestSendout: createRequestSendout(deps),
    ...createSimulation(deps, { tick: job.tick, announce }),
    // Operators' retry and cancel of a sendout whose broadcast never answered (decision 152).
    retrySendout: operatorSendouts.retrySendout,
    cancelSendout: operatorSendouts.cancelSendout,
    ...createChainReads(deps),
  };
}

export type ChainService = ReturnType<typeof createChainService>;
