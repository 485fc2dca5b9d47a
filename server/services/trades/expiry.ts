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
 * Runs expireDue every `intervalMs` as the system's `trades` job; returns the stop function. A
 * tick still running when the next is due lets that one pass; errors go to `onError`.
 */
export function startExpiryJob(parts: TradesParts, intervalMs: number, onError: (error: unknown) => void): () => void {
  const ctx = systemContext('trades');
  let running = false;
  let stopped = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      // A backlog (after downtime) drains in batches without waiting a tick each.
      while (!stopped && (await expireDue(parts, ctx)) === EXPIRY_BATCH);
    } catch (error) {
      onError(error);
    } finally {
      running = false;
    }
  };
  const run = () => void tick().catch(onError);
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
