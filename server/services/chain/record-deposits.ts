import type { DepositNetwork } from '../../../db/schema/index.ts';
import { immediate } from '../context.ts';
import type { DepositObservation } from './adapter.ts';
import { type ChainDeps, newChainTxId } from './deps.ts';
import { DEPOSIT_NETWORK_OF, NETWORKS } from './networks.ts';

/** New outputs become `incoming` rows; known ones get their confirmations; conflicts fail. */
export function createRecordDeposits({ repo, adapter, addressBook, now, webhooks }: ChainDeps) {
  return async function recordDeposits(network: DepositNetwork, seen: DepositObservation[]): Promise<void> {
    const at = now();
    for (const deposit of seen) {
      const known = await repo.byOutput(network, deposit.txid, deposit.vout);
      if (!known) {
        const owner = await addressBook.find(deposit.address);
        if (!owner || DEPOSIT_NETWORK_OF[owner.currency] !== network || deposit.amount <= 0) continue;
        if (deposit.confirmations < 0) continue;
        const row = {
          publicId: newChainTxId(),
          currency: owner.currency,
          network,
          userId: owner.userId,
          address: deposit.address,
          amount: deposit.amount,
          txid: deposit.txid,
          vout: deposit.vout,
          blockHeight: deposit.blockHeight,
          confirmations: deposit.confirmations,
          requiredConfirmations: NETWORKS[network].requiredConfirmations,
          simulated: adapter.kind === 'simulated' ? 1 : 0,
          at,
        };
        // The row and its `wallet.deposit_pending` webhook delivery together.
        await immediate(repo.db, async (tx) => {
          await repo.insertDeposit(row);
          await webhooks?.deposit(tx, row, 'pending');
        });
      } else if (known.status === 'incoming') {
        if (deposit.confirmations < 0)
          await repo.failDeposit(known.id, 'conflicted: the transaction will never confirm', at);
        else await repo.observe(known.id, deposit.confirmations, deposit.blockHeight, at);
      }
    }
  };
}
