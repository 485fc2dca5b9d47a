import { asDatabase } from '../../../db/database.ts';
import { immediate, type ServiceContext } from '../context.ts';
import type { ChainDeps } from './deps.ts';
import type { createFailSendout } from './fail-sendout.ts';
import type { ChainTxRow } from './repository.ts';

// What operators do with sendouts (the console: server/services/operators/sendouts.ts;
// docs/decisions/152-operator-sendouts.md). A sendout waits as `pending` until the job claims it
// (broadcast_started_at) and hands it to the node; a claim whose outcome never came back (the
// node timed out) keeps it `pending` for good, since sending again or returning could each pay
// twice. Once an operator has checked the node, they either release the claim (retry: the job
// sends it again) or cancel (the hold goes back to the wallet through the ledger, once).

/** A claim this old has no answer coming: the adapter's calls time out long before. */
export const STUCK_AFTER_MS = 10 * 60_000;

const NEXT_SEQ = '(SELECT coalesce(max(seq), 0) + 1 FROM chain_transactions)';
// Every write bumps seq (repository.ts), inside a transaction here, so it is safe on both engines.
const RELEASE_CLAIM = `UPDATE chain_transactions SET broadcast_started_at = NULL, updated_at = ?, seq = ${NEXT_SEQ}
  WHERE id = ? AND direction = 'out' AND status = 'pending' AND broadcast_started_at IS NOT NULL
    AND broadcast_started_at <= ?`;
const TAKE_UNCLAIMED = `UPDATE chain_transactions SET broadcast_started_at = ?
  WHERE id = ? AND direction = 'out' AND status = 'pending' AND broadcast_started_at IS NULL`;

export type SendoutOutcome = 'done' | 'not_stuck' | 'not_pending';

/** Whether an operator may retry or cancel `row` now, and what blocks it otherwise. */
export function sendoutState(
  row: Pick<ChainTxRow, 'direction' | 'status' | 'broadcastStartedAt'>,
  at: number,
): 'unclaimed' | 'stuck' | 'in_flight' | 'not_pending' {
  if (row.direction !== 'out' || row.status !== 'pending') return 'not_pending';
  if (row.broadcastStartedAt === null) return 'unclaimed';
  return row.broadcastStartedAt <= at - STUCK_AFTER_MS ? 'stuck' : 'in_flight';
}

export function createOperatorSendouts({ repo, now }: ChainDeps, failSendout: ReturnType<typeof createFailSendout>) {
  const { sql } = asDatabase(repo.db);
  return {
    /** A stuck sendout's claim is released, so the job broadcasts it again. */
    retrySendout(_ctx: ServiceContext, { id }: { id: number }): Promise<SendoutOutcome> {
      return immediate(repo.db, async () => {
        const row = await repo.byId(id);
        if (!row) return 'not_pending';
        const state = sendoutState(row, now());
        if (state !== 'stuck') return state === 'not_pending' ? 'not_pending' : 'not_stuck';
        const at = now();
        return (await sql.run(RELEASE_CLAIM, [at, id, at - STUCK_AFTER_MS])).changes === 1 ? 'done' : 'not_pending';
      });
    },

    /**
     * The held amount and fee go back to the wallet. An unclaimed sendout is claimed first, in the
     * same transaction, so the job can no longer send it; a claimed one only once it is stuck.
     */
    cancelSendout(ctx: ServiceContext, { id, reason }: { id: number; reason: string }): Promise<SendoutOutcome> {
      return immediate(repo.db, async () => {
        const row = await repo.byId(id);
        if (!row) return 'not_pending';
        const at = now();
        const state = sendoutState(row, at);
        if (state === 'not_pending') return 'not_pending';
        if (state === 'in_flight') return 'not_stuck';
        if (state === 'unclaimed' && (await sql.run(TAKE_UNCLAIMED, [at, id])).changes !== 1) return 'not_stuck';
        return (await failSendout(ctx, { id, reason })) ? 'done' : 'not_pending';
      });
    },
  };
}
