import { randomBytes } from 'node:crypto';
import { CHAIN_NETWORKS, type ChainNetwork, type DepositNetwork } from '../../../db/schema/index.ts';
import type { ChainAdapter, DepositScan } from './adapter.ts';
import { NETWORKS } from './networks.ts';
import type { ChainRepository } from './repository.ts';
import { simulatedHoldings } from './simulated-holdings.ts';

// The embedded chain (CHAIN=simulated, the default): blocks are a height per network in
// `chain_state`, its mempool the simulated rows of `chain_transactions` without a block. Every
// CHAIN_BLOCK_SECONDS one tick is due: bitcoin gains one block, TRON ten (its blocks come every
// 3 s). The clock is stored, so a restart mines exactly the ticks that fell due while it was down,
// and the guarded update lets the server and the admin CLI share it without mining twice.
// Deposits enter through `npm run admin -- chain:deposit`; sendouts are "broadcast" into the mempool.

export const randomTxid = () => randomBytes(32).toString('hex');

export interface SimulatedChain extends ChainAdapter {
  /** Mines `ticks` ticks' worth of blocks on every network now (admin `chain:mine`, tests). */
  mine(ticks: number, at: number): Promise<void>;
  /** The current height of a network. */
  height(network: ChainNetwork): Promise<number>;
}

/** The block clock's two moves, each one transaction of the repository's statements. */
function mining(repo: ChainRepository, blockMs: number) {
  const { sql } = repo.db;
  /** Advances one network by `ticks` ticks; false when another process moved it first. */
  const advanceNetwork = async (
    network: ChainNetwork,
    ticks: number,
    lastBlockAt: number | null,
    at: number,
  ): Promise<boolean> => {
    const state = await repo.ensureState(network, at, at);
    const blocks = ticks * NETWORKS[network].simulatedBlocksPerTick;
    const next = state.height + blocks;
    if (!(await repo.advance(network, state.height, next, lastBlockAt ?? state.lastBlockAt, at))) return false;
    // The mempool enters the first new block; the others confirm it further.
    await repo.includeMempool(network, state.height + 1, at);
    return true;
  };

  const mineDue = (at: number) =>
    sql.transaction(async () => {
      for (const network of CHAIN_NETWORKS) {
        const state = await repo.ensureState(network, at, at);
        const since = state.lastBlockAt ?? at;
        const due = Math.floor((at - since) / blockMs);
        if (due > 0) await advanceNetwork(network, due, since + due * blockMs, at);
      }
    });

  const mineNow = (ticks: number, at: number) =>
    sql.transaction(async () => {
      for (const network of CHAIN_NETWORKS) await advanceNetwork(network, ticks, null, at);
    });

  return { mineDue, mineNow };
}

export function createSimulatedChain({
  repo,
  blockSeconds,
}: {
  repo: ChainRepository;
  blockSeconds: number;
}): SimulatedChain {
  const { mineDue, mineNow } = mining(repo, blockSeconds * 1000);

  return {
    kind: 'simulated',
    depositNetworks: ['bitcoin', 'TRC20'],
    sendNetworks: CHAIN_NETWORKS,

    async advance(at) {
      await mineDue(at);
    },

    async mine(ticks, at) {
      if (!Number.isSafeInteger(ticks) || ticks < 1) throw new RangeError('Mine at least one block.');
      await mineNow(ticks, at);
    },

    height: async (network) => (await repo.state(network))?.height ?? 0,

    async scanDeposits(network: DepositNetwork): Promise<DepositScan> {
      // Open deposits first: a block mined in between only makes the tip higher, never lower than theirs.
      const open = await repo.simulatedOpenDeposits(network);
      const tip = (await repo.state(network))?.height ?? 0;
      const deposits = open.map((row) => ({
        txid: row.txid ?? '',
        vout: row.vout ?? 0,
        address: row.address,
        amount: row.amount,
        confirmations: row.blockHeight === null ? 0 : tip - row.blockHeight + 1,
        blockHeight: row.blockHeight,
      }));
      return { deposits };
    },

    holdings: (network) => simulatedHoldings(repo.db, network),

    // Nothing leaves this machine: the sendout joins the mempool when the service marks it broadcast.
    async broadcast() {
      return { txid: randomTxid() };
    },

    async confirmations(network, txid) {
      const row = await repo.simulatedByTxid(network, txid);
      if (!row) return null;
      if (row.blockHeight === null) return 0;
      return ((await repo.state(network))?.height ?? 0) - row.blockHeight + 1;
    },
  };
}
