import type { Config } from '../../config.ts';
import type { ChainAdapter } from './adapter.ts';
import { createBitcoindChain, createJsonRpcClient } from './bitcoind.ts';
import type { ChainRepository } from './repository.ts';
import { createSimulatedChain } from './simulated.ts';

export type ChainConfig = Partial<Pick<Config, 'CHAIN' | 'BITCOIND_RPC_URL' | 'CHAIN_BLOCK_SECONDS'>>;

export const DEFAULT_BLOCK_SECONDS = 30;

/** The adapter `CHAIN` names; the simulated chain when unset. */
export function createChainAdapter(config: ChainConfig, repo: ChainRepository, now: () => number): ChainAdapter {
  if (config.CHAIN === 'bitcoind') {
    // readConfig already refuses bitcoind without a URL; this keeps the types honest.
    if (!config.BITCOIND_RPC_URL) throw new Error('CHAIN=bitcoind needs BITCOIND_RPC_URL');
    return createBitcoindChain({ rpc: createJsonRpcClient(config.BITCOIND_RPC_URL), repo, now });
  }
  return createSimulatedChain({ repo, blockSeconds: config.CHAIN_BLOCK_SECONDS ?? DEFAULT_BLOCK_SECONDS });
}

/** How often the job runs: every few seconds, so deposits made by the admin CLI show up quickly. */
export const chainPollMs = (config: ChainConfig) =>
  Math.min(5, config.CHAIN_BLOCK_SECONDS ?? DEFAULT_BLOCK_SECONDS) * 1000;
