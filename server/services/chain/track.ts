import type { ServiceContext } from '../context.ts';
import type { ChainDeps } from './deps.ts';
import type { createFailSendout } from './fail-sendout.ts';

/** Follows each broadcast sendout's confirmations until it settles; a conflict returns it. */
export function createTrackBroadcast(
  { repo, adapter, now }: ChainDeps,
  failSendout: ReturnType<typeof createFailSendout>,
) {
  return async function trackBroadcast(ctx: ServiceContext): Promise<void> {
    for (const row of await repo.open('broadcast')) {
      if (!adapter.sendNetworks.includes(row.network) || row.txid === null) continue;
      const confirmations = await adapter.confirmations(row.network, row.txid);
      if (confirmations === null) continue;
      if (confirmations < 0) {
        await failSendout(ctx, { id: row.id, reason: 'conflicted: the transaction will never confirm' });
        continue;
      }
      await repo.observe(row.id, confirmations, row.blockHeight, now());
      if (confirmations >= row.requiredConfirmations) await repo.confirmSendout(row.id, now());
    }
  };
}
