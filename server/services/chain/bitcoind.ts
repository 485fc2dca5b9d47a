import type { ChainNetwork } from '../../../db/schema/index.ts';
import { fromMinorUnits } from '../../../src/lib/shared/money.ts';
import { BroadcastRejected, type ChainAdapter, type DepositObservation, type DepositScan } from './adapter.ts';
import { NETWORKS } from './networks.ts';
import type { ChainRepository } from './repository.ts';

// CHAIN=bitcoind: a Bitcoin Core wallet over JSON-RPC (BITCOIND_RPC_URL, wallet path included).
// The node never makes our deposit addresses: they derive from WALLET_BTC_XPUB, and the operator
// imports the same account as a watch-only descriptor (`importdescriptors` with
// `wpkh(<xpub>/0/*)`), so the node sees payments to them. Calls:
//   listsinceblock <cursor> <required confirmations> true true   deposits since the cursor
//   gettransaction <txid> true                                   confirmations of one transaction
//   sendtoaddress <address> "<amount>" …                          a sendout from the node's hot wallet
//   getblockcount                                                the tip, for the operator's view
//   listunspent 1                                                what the wallet's addresses hold (reserves)
// listsinceblock's `lastblock` with target_confirmations = N lies N − 1 blocks below the tip, so
// every deposit is reported again until it has N confirmations: no separate re-check is needed.

export class RpcError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.name = 'RpcError';
    this.code = code;
  }
}

/** Node answers that mean the transaction was refused and nothing was sent. */
const DEFINITE_REFUSALS = new Set([
  -3, // wrong type of a parameter
  -4, // wallet error (e.g. cannot create the transaction)
  -5, // invalid address
  -6, // the hot wallet lacks funds
  -8, // invalid parameter
  -25, // verify error
  -26, // rejected by the node's policy
]);

export interface JsonRpcClient {
  call<T>(method: string, params?: unknown[]): Promise<T>;
}

/** A JSON-RPC 1.0 client as Bitcoin Core speaks it: credentials from the URL go into Basic auth. */
export function createJsonRpcClient(url: string, { timeoutMs = 10_000 }: { timeoutMs?: number } = {}): JsonRpcClient {
  const parsed = new URL(url);
  const auth =
    parsed.username || parsed.password
      ? `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64')}`
      : undefined;
  parsed.username = '';
  parsed.password = '';
  const endpoint = parsed.toString();
  let nextId = 1;
  return {
    async call<T>(method: string, params: unknown[] = []): Promise<T> {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
        body: JSON.stringify({ jsonrpc: '1.0', id: nextId++, method, params }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      // Bitcoin Core answers RPC errors with HTTP 500 and a JSON body; 401 and 404 have none.
      const text = await response.text();
      let body: { result?: T; error?: { code: number; message: string } | null } | undefined;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      if (body?.error) throw new RpcError(body.error.code, body.error.message);
      if (!response.ok || !body) throw new Error(`bitcoind ${method}: HTTP ${response.status}`);
      return body.result as T;
    },
  };
}

interface SinceBlockEntry {
  address?: string;
  category: string;
  amount: number;
  vout: number;
  txid: string;
  confirmations: number;
  blockheight?: number;
}

/** BTC as a JSON number → satoshi. Below 21e6 BTC the float is within 0.5 sat, so rounding is exact. */
const toSatoshi = (btc: number) => Math.round(Math.abs(btc) * 1e8);

function observation(
  entry: SinceBlockEntry,
  address: string,
  confirmations: number,
  blockHeight: number | null,
): DepositObservation {
  return { txid: entry.txid, vout: entry.vout, address, amount: toSatoshi(entry.amount), confirmations, blockHeight };
}

/** Payments to our addresses in a listsinceblock answer, the reorganised-out ones back at 0 confirmations. */
async function observedDeposits(
  since: { transactions: SinceBlockEntry[]; removed?: SinceBlockEntry[] },
  isOurs: (address: string) => boolean | Promise<boolean>,
): Promise<DepositObservation[]> {
  const seen: DepositObservation[] = [];
  for (const entry of since.transactions) {
    if (entry.category !== 'receive' || !entry.address || !(await isOurs(entry.address))) continue;
    seen.push(observation(entry, entry.address, entry.confirmations, entry.blockheight ?? null));
  }
  // Reorganised out of the chain: back to the mempool until it is mined again (or conflicts).
  for (const entry of since.removed ?? []) {
    if (entry.category !== 'receive' || !entry.address || !(await isOurs(entry.address))) continue;
    if (seen.some((s) => s.txid === entry.txid && s.vout === entry.vout)) continue;
    seen.push(observation(entry, entry.address, 0, null));
  }
  return seen;
}

export function createBitcoindChain({
  rpc,
  repo,
  now,
}: {
  rpc: JsonRpcClient;
  repo: ChainRepository;
  now: () => number;
}): ChainAdapter {
  const required = NETWORKS.bitcoin.requiredConfirmations;
  return {
    kind: 'bitcoind',
    depositNetworks: ['bitcoin'],
    sendNetworks: ['bitcoin'],

    async scanDeposits(network, isOurs): Promise<DepositScan> {
      if (network !== 'bitcoin') return { deposits: [] };
      const cursor = (await repo.ensureState('bitcoin', null, now())).cursor;
      const since = await rpc.call<{ transactions: SinceBlockEntry[]; removed?: SinceBlockEntry[]; lastblock: string }>(
        'listsinceblock',
        [cursor ?? '', required, true, true],
      );
      const height = await rpc.call<number>('getblockcount');
      const seen = await observedDeposits(since, isOurs);
      // The caller stores the cursor in the transaction that records these deposits.
      return { deposits: seen, cursor: { value: since.lastblock, height } };
    },

    // Every confirmed output the wallet holds or watches: the deposit addresses and the hot wallet's own.
    async holdings(network) {
      if (network !== 'bitcoin') return [];
      const unspent = await rpc.call<{ address?: string; amount: number }[]>('listunspent', [1]);
      const byAddress = new Map<string, number>();
      for (const output of unspent)
        if (output.address)
          byAddress.set(output.address, (byAddress.get(output.address) ?? 0) + toSatoshi(output.amount));
      return [...byAddress].map(([address, balance]) => ({ address, balance }));
    },

    async broadcast(request) {
      if (request.network !== 'bitcoin') throw new BroadcastRejected(`bitcoind cannot send on ${request.network}`);
      try {
        // The amount as text: Bitcoin Core parses it exactly, a float might not be.
        const txid = await rpc.call<string>('sendtoaddress', [
          request.address,
          fromMinorUnits(request.amount, 8),
          request.publicId,
        ]);
        return { txid };
      } catch (error) {
        if (error instanceof RpcError && DEFINITE_REFUSALS.has(error.code))
          throw new BroadcastRejected(`bitcoind refused the sendout: ${error.message} (${error.code})`);
        throw error;
      }
    },

    async confirmations(network: ChainNetwork, txid: string) {
      if (network !== 'bitcoin') return null;
      try {
        const tx = await rpc.call<{ confirmations: number }>('gettransaction', [txid, true]);
        return tx.confirmations;
      } catch (error) {
        // -5: not a transaction of this wallet (yet).
        if (error instanceof RpcError && error.code === -5) return null;
        throw error;
      }
    },
  };
}
