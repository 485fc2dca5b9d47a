import type { ServiceContext } from '../context.ts';
import { BroadcastRejected } from './adapter.ts';
import type { ChainDeps } from './deps.ts';
import type { createFailSendout } from './fail-sendout.ts';

/** Hands each pending sendout to the network once; a refusal returns it to the wallet. */
export function createBroadcastPending(
  { repo, adapter, now, log }: ChainDeps,
  failSendout: ReturnType<typeof createFailSendout>,
) {
  return async function broadcastPending(ctx: ServiceContext): Promise<void> {
    for (const row of await repo.open('pending')) {
      if (!adapter.sendNetworks.includes(row.network) || row.broadcastStartedAt !== null) continue;
      if (!(await repo.claimBroadcast(row.id, now()))) continue;
      try {
        const { txid } = await adapter.broadcast({
          publicId: row.publicId,
          network: row.network,
          address: row.address,
          amount: row.amount,
        });
        await repo.markBroadcast(row.id, txid, adapter.kind === 'simulated', now());
      } catch (error) {
        if (error instanceof BroadcastRejected) {
          await failSendout(ctx, { id: row.id, reason: error.message });
          log.info(`Chain: sendout ${row.publicId} refused by the network, returned to the wallet: ${error.message}`);
        } else {
          // Perhaps sent, perhaps not: sending again could pay twice, returning could pay twice too.
          log.error(
            `Chain: sendout ${row.publicId} has an unknown outcome; it stays pending until an operator checks the node`,
            error,
          );
        }
      }
    }
  };
}
