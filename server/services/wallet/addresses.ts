import type { HDKey } from '@scure/bip32';
import { p2wpkhAddress, tronAddress } from './encoding.ts';
import {
  type AccountKey,
  BTC_KEY_PREFIXES,
  type BtcNetwork,
  DEVELOPMENT_BTC_XPUB,
  DEVELOPMENT_TRON_XPUB,
  parseAccountKey,
  TRON_KEY_PREFIXES,
} from './extended-keys.ts';

// Deposit addresses (issue 5): one per user and currency, derived from account-level extended
// PUBLIC keys in configuration, so the server can hand out addresses but never spend from them.
//   BTC:  BIP84 native segwit, m/84'/coin'/account'/0/i → bc1q… (tb1q… on testnet)
//   USDT: TRC-20 on TRON, BIP44 m/44'/195'/account'/0/i → T…
// Which index belongs to which user is the wallet service's record; this module only derives.

export {
  type AddressCheck,
  type AddressProblem,
  type BtcAddressKind,
  type UsdtNetwork,
  usdtNetworks,
  validateBtcAddress,
  validateUsdtAddress,
} from './address-validation.ts';
export { type BtcNetwork, DEVELOPMENT_BTC_XPUB, DEVELOPMENT_TRON_XPUB } from './extended-keys.ts';

/** BIP32 non-hardened indexes: 0 … 2^31 − 1. */
export const MAX_ADDRESS_INDEX = 0x7fffffff;

/** BIP44 chains under an account: 0 receives from others, 1 is the wallet's own change. */
export type Chain = 0 | 1;

export interface DerivedAddress {
  address: string;
  index: number;
  /** Full derivation path, for the operator's wallet (`m/84'/0'/0'/0/7`). */
  path: string;
}

export interface DepositAddressesOptions {
  /** zpub/vpub/xpub/tpub of the BIP84 account (m/84'/0'/0' on mainnet, m/84'/1'/0' on testnet). */
  btcXpub?: string;
  /** xpub of the TRON account m/44'/195'/0'. */
  tronXpub?: string;
}

function accountKey(text: string, allowed: readonly string[], setting: string): AccountKey {
  const parsed = parseAccountKey(text, allowed);
  // readConfig checks the same at start-up; this is for callers that skip it (scripts, tests).
  if (!parsed.ok) throw new Error(`${setting} ${parsed.message}`);
  return parsed.value;
}

function checkIndex(index: number): void {
  if (!Number.isSafeInteger(index) || index < 0 || index > MAX_ADDRESS_INDEX) {
    throw new RangeError(`An address index is a whole number from 0 to ${MAX_ADDRESS_INDEX}; got ${index}`);
  }
}

/** The chain keys (account/0, account/1) derived once: each address is then one child step. */
function chainKeys(account: HDKey): Record<Chain, HDKey> {
  return { 0: account.deriveChild(0), 1: account.deriveChild(1) };
}

export function createDepositAddresses(options: DepositAddressesOptions = {}) {
  const btc = accountKey(options.btcXpub ?? DEVELOPMENT_BTC_XPUB, BTC_KEY_PREFIXES, 'WALLET_BTC_XPUB');
  const tron = accountKey(options.tronXpub ?? DEVELOPMENT_TRON_XPUB, TRON_KEY_PREFIXES, 'WALLET_TRON_XPUB');
  const btcChains = chainKeys(btc.key);
  const tronChains = chainKeys(tron.key);
  const btcCoin = btc.network === 'mainnet' ? 0 : 1;

  const publicKeyAt = (chains: Record<Chain, HDKey>, chain: Chain, index: number): Uint8Array => {
    checkIndex(index);
    const key = chains[chain].deriveChild(index).publicKey;
    if (!key) throw new Error('a public derivation always yields a public key');
    return key;
  };

  return {
    /** `mainnet` or `testnet`, from the key's version bytes. */
    btcNetwork: btc.network satisfies BtcNetwork,

    /** The BTC receive address number `index` (chain 1: a change address, for checks against wallets). */
    btc(index: number, chain: Chain = 0): DerivedAddress {
      return {
        address: p2wpkhAddress(publicKeyAt(btcChains, chain, index), btc.network),
        index,
        path: `m/84'/${btcCoin}'/${btc.account}'/${chain}/${index}`,
      };
    },

    /** The TRC-20 (TRON) receive address number `index`; USDT deposits arrive there. */
    tron(index: number, chain: Chain = 0): DerivedAddress {
      return {
        address: tronAddress(publicKeyAt(tronChains, chain, index)),
        index,
        path: `m/44'/195'/${tron.account}'/${chain}/${index}`,
      };
    },
  };
}

export type DepositAddresses = ReturnType<typeof createDepositAddresses>;
