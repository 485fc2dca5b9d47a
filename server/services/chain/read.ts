import type { ChainNetwork, LedgerCurrency } from '../../../db/schema/index.ts';
import type { PersonContext, ServiceContext } from '../context.ts';
import { type ChainDeps, sendoutRequestKey } from './deps.ts';
import type { ChainTxRow } from './repository.ts';

// What the chain service answers without writing.

export function createChainReads({ repo, adapter }: ChainDeps) {
  return {
    /** Incoming (seen, not yet credited) per currency, in minor units. */
    async incomingOf(_ctx: ServiceContext, { userId }: { userId: number }): Promise<Record<LedgerCurrency, number>> {
      const result: Record<LedgerCurrency, number> = { BTC: 0, USDT: 0 };
      for (const row of await repo.incomingOf(userId)) result[row.currency] = row.total;
      return result;
    },

    /** The sendout networks this chain can serve now. */
    canSend: (_ctx: ServiceContext, { network }: { network: ChainNetwork }): boolean =>
      adapter.sendNetworks.includes(network),

    byPublicId: (_ctx: ServiceContext, { publicId }: { publicId: string }): Promise<ChainTxRow | undefined> =>
      repo.byPublicId(publicId),

    /** The sendout a request id of the signed-in person already made, if any. */
    sendoutOf: (ctx: PersonContext, { requestId }: { requestId: string }): Promise<ChainTxRow | undefined> =>
      repo.byKey(sendoutRequestKey(ctx.auth.user.id, requestId)),
  };
}
