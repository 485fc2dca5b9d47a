import type { LedgerCurrency } from '../../../db/schema/index.ts';
import { immediate, type ServiceContext } from '../context.ts';
import { type ChainDeps, newChainTxId } from './deps.ts';
import { NETWORKS } from './networks.ts';
import type { ChainTxRow } from './repository.ts';
import { randomTxid, type SimulatedChain } from './simulated.ts';

// What only the simulated chain can do: deposits out of nowhere and blocks on demand (the admin
// CLI's `chain:deposit` and `chain:mine`, and tests).

export interface SimulateDepositInput {
  userId: number;
  currency: LedgerCurrency;
  amount: number;
}

export function createSimulation(
  { repo, adapter, addressBook, now, webhooks }: ChainDeps,
  { tick, announce }: { tick: () => Promise<void>; announce: () => Promise<void> },
) {
  return {
    /** Simulated chain only: an incoming deposit to the user's address, in the mempool. */
    async simulateDeposit(
      _ctx: ServiceContext,
      { userId, currency, amount }: SimulateDepositInput,
    ): Promise<ChainTxRow> {
      if (adapter.kind !== 'simulated') throw new Error('Deposits can be simulated only with CHAIN=simulated.');
      if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError('A deposit is a positive amount.');
      const { address, network } = await addressBook.current(userId, currency);
      // The row and its `wallet.deposit_pending` webhook delivery together, as a scanned deposit's.
      const row = await immediate(repo.db, async (tx) => {
        const inserted = await repo.insertDeposit({
          publicId: newChainTxId(),
          currency,
          network,
          userId,
          address,
          amount,
          txid: randomTxid(),
          vout: 0,
          blockHeight: null,
          confirmations: 0,
          requiredConfirmations: NETWORKS[network].requiredConfirmations,
          simulated: 1,
          at: now(),
        });
        await webhooks?.deposit(tx, inserted, 'pending');
        return inserted;
      });
      await announce();
      return row;
    },

    /** Simulated chain only: mines `ticks` ticks now, then runs a round (credits what is due). */
    async mine(_ctx: ServiceContext, { ticks = 1 }: { ticks?: number } = {}): Promise<void> {
      if (adapter.kind !== 'simulated') throw new Error('Blocks can be mined only with CHAIN=simulated.');
      await (adapter as SimulatedChain).mine(ticks, now());
      await tick();
    },
  };
}
