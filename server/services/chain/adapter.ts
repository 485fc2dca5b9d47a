import type { ChainNetwork, DepositNetwork } from '../../../db/schema/index.ts';

// What the chain service needs from a blockchain, whichever it is: the simulated chain in the
// database (simulated.ts) or a Bitcoin Core wallet over JSON-RPC (bitcoind.ts). Amounts are
// integer minor units; the adapter converts at its edge.

/** One output paying one of our deposit addresses, as the chain sees it now. */
export interface DepositObservation {
  txid: string;
  /** Output index (bitcoin) or transfer index (TRC-20). */
  vout: number;
  address: string;
  amount: number;
  /** 0 in the mempool; negative when the transaction conflicts with the chain (it will never confirm). */
  confirmations: number;
  blockHeight: number | null;
}

export interface DepositScan {
  deposits: DepositObservation[];
  /** Where the next scan continues; stored with the recorded deposits, in one transaction. */
  cursor?: { value: string; height: number };
}

/** What one of our addresses holds now (the proof of reserves, decision 149). */
export interface AddressHolding {
  address: string;
  /** Minor units in outputs with at least one confirmation. */
  balance: number;
}

export interface SendoutRequest {
  /** Our `chn_…` id, for the node's comment and the operator's search. */
  publicId: string;
  network: ChainNetwork;
  address: string;
  amount: number;
}

/**
 * The network refused the transaction for good (invalid address, insufficient hot-wallet funds,
 * rejected by policy): nothing was sent, so the held funds may return to the wallet. Any other
 * error from `broadcast` is an unknown outcome and is never retried automatically.
 */
export class BroadcastRejected extends Error {
  override name = 'BroadcastRejected';
}

export interface ChainAdapter {
  readonly kind: 'simulated' | 'bitcoind';
  /** Networks this adapter receives deposits on. */
  readonly depositNetworks: readonly DepositNetwork[];
  /** Networks this adapter can send on. */
  readonly sendNetworks: readonly ChainNetwork[];
  /**
   * Before each scan: the simulated chain mines the blocks whose time has come (its clock is
   * stored, so a restart neither repeats nor skips blocks). A real chain does nothing here.
   */
  advance?(at: number): Promise<void>;
  /**
   * Deposits to our addresses that are new or may have changed since the stored cursor
   * (chain_state); reporting an output twice is harmless.
   */
  scanDeposits(network: DepositNetwork, isOurs: (address: string) => boolean | Promise<boolean>): Promise<DepositScan>;
  /**
   * Every address of ours on a deposit network that holds coins now, from the chain itself: the
   * reserves side of the proof page. Absent where the adapter cannot say (then no reserves are shown).
   */
  holdings?(network: DepositNetwork): Promise<AddressHolding[]>;
  /** Hands a sendout to the network; its txid. Throws BroadcastRejected when nothing was sent. */
  broadcast(request: SendoutRequest): Promise<{ txid: string }>;
  /** Confirmations of one of our sent transactions; negative when it conflicts; null when unknown. */
  confirmations(network: ChainNetwork, txid: string): Promise<number | null>;
}
