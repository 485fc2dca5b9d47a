import type { ChainNetwork, DepositNetwork, LedgerCurrency } from '../../../db/schema/index.ts';

// What the wallet knows about each network it deals with (docs/decisions/056-wallet-chains-confirmations-deposits.md, 2026-11-24 "Wallet:
// chains"): the currency it carries, when a transfer counts as final, and the flat network fee
// a sendout is charged.

export interface NetworkPolicy {
  currency: LedgerCurrency;
  /** Blocks including the one that carries the transaction. */
  requiredConfirmations: number;
  /** Minor units charged on top of a sendout's amount for the network's fee. */
  sendoutFee: number;
  /** The smallest sendout, in minor units (below it the fee dwarfs the amount, or bitcoin calls it dust). */
  minSendout: number;
  /** Simulated chain: blocks per CHAIN_BLOCK_SECONDS tick (TRON's 3 s blocks against bitcoin's 10 min). */
  simulatedBlocksPerTick: number;
}

export const NETWORKS: Record<ChainNetwork, NetworkPolicy> = {
  // Two blocks: one reorg deep is what payment processors commonly wait for on small amounts.
  bitcoin: {
    currency: 'BTC',
    requiredConfirmations: 2,
    sendoutFee: 2_000,
    minSendout: 10_000,
    simulatedBlocksPerTick: 1,
  },
  // 19 blocks: TRON's solidity (2/3 of the 27 super representatives + 1), after which a block is final.
  TRC20: {
    currency: 'USDT',
    requiredConfirmations: 19,
    sendoutFee: 1_000_000,
    minSendout: 1_000_000,
    simulatedBlocksPerTick: 10,
  },
  // Sendouts only; 12 blocks, the common exchange wait before proof-of-stake finality.
  ERC20: {
    currency: 'USDT',
    requiredConfirmations: 12,
    sendoutFee: 5_000_000,
    minSendout: 10_000_000,
    simulatedBlocksPerTick: 2,
  },
};

/** The network a currency's deposits arrive on (USDT: TRC-20 only, docs/decisions/056-wallet-chains-confirmations-deposits.md). */
export const DEPOSIT_NETWORK_OF: Record<LedgerCurrency, DepositNetwork> = { BTC: 'bitcoin', USDT: 'TRC20' };

/** Sendout networks per currency. */
export const SEND_NETWORKS: Record<LedgerCurrency, readonly ChainNetwork[]> = {
  BTC: ['bitcoin'],
  USDT: ['TRC20', 'ERC20'],
};
