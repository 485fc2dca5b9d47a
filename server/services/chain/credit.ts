import { immediate, type ServiceContext } from '../context.ts';
import { systemAccount, walletOf } from '../ledger/ledger.ts';
import { type ChainDeps, depositKey } from './deps.ts';

/**
 * Credits one deposit if it is still incoming and has its confirmations; false otherwise. The
 * posting and the row's `incoming → confirmed` are one immediate transaction; the ledger's events
 * (through ctx.tx) are published only after its commit.
 */
export function createCreditDeposit({ repo, ledger, now, webhooks }: ChainDeps) {
  return function creditDeposit(ctx: ServiceContext, { id }: { id: number }): Promise<boolean> {
    return immediate(repo.db, async (tx) => {
      const row = await repo.byId(id);
      if (row?.direction !== 'in' || row.status !== 'incoming') return false;
      if (row.confirmations < row.requiredConfirmations) return false;
      const posted = await ledger.post(
        { ...ctx, tx },
        {
          kind: 'deposit',
          idempotencyKey: depositKey(row),
          legs: [
            { account: systemAccount('chain_in', row.currency), amount: -row.amount },
            { account: walletOf(row.userId, row.currency), amount: row.amount },
          ],
          metadata: { chainTx: row.publicId, network: row.network, txid: row.txid, vout: row.vout },
        },
      );
      const confirmed = await repo.confirmDeposit(row.id, await repo.ledgerIdOf(posted.id), now());
      if (confirmed) await webhooks?.deposit(tx, row, 'confirmed');
      return confirmed;
    });
  };
}
