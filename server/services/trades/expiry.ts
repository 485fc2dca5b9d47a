import { every, type JobObserver } from '../../jobs/every.ts';
import { type ServiceContext, systemContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { TradesParts } from './deps.ts';

// The payment window (docs/trades.md): unpaid trades past `expiresAt` are cancelled by the system.

export const EXPIRY_BATCH = 100;

/**
 * Cancels unpaid trades past their window, a batch at a time. The table is the job's memory: a
 * restart finds the same rows, and a trade paid a moment before simply no longer matches.
 */
export async function expireDue({ repo, now, transition }: TradesParts, ctx: ServiceContext): Promise<number> {
  let expired = 0;
  for (const hash of await repo.dueForExpiry(now(), EXPIRY_BATCH)) {
    try {
      const row = await transition(ctx, hash, 'expire', { id: null, role: 'system' });
      if (row.status === 'cancelled_system') expired += 1;
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'TRADE_STATE_CHANGED')) throw error;
    }
  }
  return expired;
}

/**
 * Runs expireDue at once and every `intervalMs` as the system's `trades` job (server/jobs/every.ts:
 * a tick while a run is in progress passes); errors go to `onError`. Returns the stop, which
 * awaits the run in progress.
 */
export function startExpiryJob(
  parts: TradesParts,
  intervalMs: number,
  onError: (error: unknown) => void,
  observer?: JobObserver,
): () => Promise<void> {
  const ctx = systemContext('trades');
  return every(
    'trade-expiry',
    intervalMs,
    async (term) => {
      // A backlog (after downtime) drains in batches without waiting a tick each.
      while (!term.stopped && (await expireDue(parts, ctx)) === EXPIRY_BATCH);
    },
    { onError, observer },
  );
}
