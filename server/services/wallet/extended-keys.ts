import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import { HDKey } from '@scure/bip32';

// Account-level extended public keys from configuration (WALLET_BTC_XPUB, WALLET_TRON_XPUB). The
// server derives receive addresses from them and never holds a private key: an extended private
// key is refused, with a message that never repeats it.

export type BtcNetwork = 'mainnet' | 'testnet';

const base58check = createBase58check(sha256);

/** BIP32 serialisation: 4 version bytes, depth, fingerprint (4), index (4), chain code (32), key (33). */
const SERIALIZED_LENGTH = 78;

interface KeyVersion {
  prefix: string;
  public: number;
  /** The matching private version: HDKey wants both, and we refuse keys of this one. */
  private: number;
  network: BtcNetwork;
}

/**
 * SLIP-132 version bytes we read. zpub/vpub name BIP84 (native segwit) accounts; many wallets
 * (Ledger Live, Sparrow's "xpub" view, Bitcoin Core descriptors) show the same key as xpub/tpub.
 */
const PUBLIC_VERSIONS: readonly KeyVersion[] = [
  { prefix: 'xpub', public: 0x0488b21e, private: 0x0488ade4, network: 'mainnet' },
  { prefix: 'zpub', public: 0x04b24746, private: 0x04b2430c, network: 'mainnet' },
  { prefix: 'tpub', public: 0x043587cf, private: 0x04358394, network: 'testnet' },
  { prefix: 'vpub', public: 0x045f1cf6, private: 0x045f18bc, network: 'testnet' },
];

/** Versions we recognise only to explain why they are refused. */
const REFUSED_VERSIONS: Record<number, string> = {
  76066276: 'is an extended private key (xprv); give the account public key: the server never holds a private key',
  78791436: 'is an extended private key (zprv); give the account public key: the server never holds a private key',
  70615956: 'is an extended private key (tprv); give the account public key: the server never holds a private key',
  73341116: 'is an extended private key (vprv); give the account public key: the server never holds a private key',
  77429938: 'is a BIP49 (wrapped segwit) key (ypub); deposits use BIP84 native segwit: give the zpub of m/84h/0h/0h',
  71979618: 'is a BIP49 (wrapped segwit) key (upub); deposits use BIP84 native segwit: give the vpub of m/84h/1h/0h',
  77428856: 'is an extended private key (yprv); give the account public key: the server never holds a private key',
  44728019: 'is a multisig key (Zpub); deposits need a single-signature BIP84 account key (zpub)',
  39277699: 'is a multisig key (Vpub); deposits need a single-signature BIP84 account key (vpub)',
};

/** BIP44/BIP84 account keys sit at m / purpose' / coin' / account'. */
export const ACCOUNT_DEPTH = 3;
export const HARDENED = 0x80000000;

export interface AccountKey {
  key: HDKey;
  network: BtcNetwork;
  /** The account number of the key's last, hardened step (usually 0). */
  account: number;
}

export type ParsedAccountKey = { ok: true; value: AccountKey } | { ok: false; message: string };

function readVersion(text: string): { bytes: Uint8Array } | { message: string } {
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(text.trim());
  } catch {
    return { message: 'is not an extended public key (base58 text with a valid checksum, such as zpub6r…)' };
  }
  if (bytes.length !== SERIALIZED_LENGTH) {
    return { message: `is not an extended public key (${bytes.length} bytes instead of ${SERIALIZED_LENGTH})` };
  }
  return { bytes };
}

/**
 * An account-level extended public key (depth 3, hardened account step), in any of the prefixes
 * `allowed` names. Refuses private keys, other script types and keys of another depth with a
 * message for the start-up error ("WALLET_BTC_XPUB=…: <message>").
 */
export function parseAccountKey(text: string, allowed: readonly string[]): ParsedAccountKey {
  const read = readVersion(text);
  if ('message' in read) return { ok: false, message: read.message };
  const version = new DataView(read.bytes.buffer, read.bytes.byteOffset).getUint32(0);
  const known = PUBLIC_VERSIONS.find((v) => v.public === version);
  if (!known) {
    const refused = REFUSED_VERSIONS[version];
    return { ok: false, message: refused ?? `has unknown version bytes 0x${version.toString(16).padStart(8, '0')}` };
  }
  if (!allowed.includes(known.prefix)) {
    return { ok: false, message: `is a ${known.prefix}; this setting takes ${allowed.join(', ')}` };
  }
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(text.trim(), { public: known.public, private: known.private });
  } catch (error) {
    return { ok: false, message: `is not a valid extended public key (${(error as Error).message})` };
  }
  if (key.depth !== ACCOUNT_DEPTH || key.index < HARDENED) {
    return {
      ok: false,
      message: `must be an account key (depth ${ACCOUNT_DEPTH}, such as m/84h/0h/0h); this one has depth ${key.depth}`,
    };
  }
  return { ok: true, value: { key, network: known.network, account: key.index - HARDENED } };
}

/** The message for a bad key, or undefined when `text` is a usable account key (config.ts). */
export function accountKeyProblem(text: string, allowed: readonly string[]): string | undefined {
  const parsed = parseAccountKey(text, allowed);
  return parsed.ok ? undefined : parsed.message;
}

/** What WALLET_BTC_XPUB takes. */
export const BTC_KEY_PREFIXES = ['zpub', 'vpub', 'xpub', 'tpub'] as const;
/** What WALLET_TRON_XPUB takes: TRON has no SLIP-132 variants; wallets export xpub. */
export const TRON_KEY_PREFIXES = ['xpub'] as const;

/**
 * Development defaults: the account public keys of the BIP39 test mnemonic "abandon abandon …
 * about" (BIP84 test vectors; m/44'/195'/0' for TRON). Its private keys are public knowledge:
 * anything sent to these addresses can be taken by anyone. NEVER for real money.
 */
export const DEVELOPMENT_BTC_XPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
export const DEVELOPMENT_TRON_XPUB =
  'xpub6D1AabNHCupeiLM65ZR9UStMhJ1vCpyV4XbZdyhMZBiJXALQtmn9p42VTQckoHVn8WNqS7dqnJokZHAHcHGoaQgmv8D45oNUKx6DZMNZBCd';
