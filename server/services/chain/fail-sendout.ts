import { immediate, type ServiceContext } from '../context.ts';
import { systemAccount, walletOf } from '../ledger/ledger.ts';
import { type ChainDeps, sendoutReturnKey } from './deps.ts';

/** Returns a sendout's held amount and fee to its wallet, once; false when it was settled already. */
export function createFailSendout({ repo, ledger, now }: ChainDeps) {
  return function failSendout(ctx: ServiceContext, { id, reason }: { id: number; reason: string }): Promise<boolean> {
    return immediate(repo.db, async (tx) => {
      const row = await repo.byId(id);
      if (row?.direction !== 'out' || (row.status !== 'pending' && row.status !== 'broadcast')) return false;
      const total = row.amount + row.fee;
      const posted = await ledger.post(
        { ...ctx, tx },
        {
          kind: 'sendout_return',
          idempotencyKey: sendoutReturnKey(row.publicId),
          legs: [
            { account: systemAccount('chain_out', row.currency), amount: -total },
            { account: walletOf(row.userId, row.currency), amount: total },
          ],
          metadata: { chainTx: row.publicId, network: row.network, reason },
        },
      );
      return repo.failSendout(row.id, await repo.ledgerIdOf(posted.id), reason, now());
    });
  };
}
