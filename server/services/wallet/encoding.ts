import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bech32, createBase58check } from '@scure/base';
import type { BtcNetwork } from './extended-keys.ts';

// Address encodings from public keys and hashes: bitcoin's P2WPKH (BIP173), TRON's base58check
// with version byte 0x41, Ethereum's 20 bytes with the EIP-55 mixed-case checksum.

/** base58 with a 4-byte double-SHA-256 checksum (bitcoin legacy addresses, TRON). */
export const base58check = createBase58check(sha256);

/** Human-readable part of segwit addresses. */
export const SEGWIT_HRP: Record<BtcNetwork, string> = { mainnet: 'bc', testnet: 'tb' };

/** TRON's address version byte: every TRON address (main and test networks) starts with it, so with `T`. */
export const TRON_VERSION = 0x41;

export const hash160 = (bytes: Uint8Array): Uint8Array => ripemd160(sha256(bytes));

/** Native segwit v0 pay-to-witness-public-key-hash address of a compressed public key. */
export function p2wpkhAddress(compressedPublicKey: Uint8Array, network: BtcNetwork): string {
  if (compressedPublicKey.length !== 33) throw new Error('P2WPKH needs a 33-byte compressed public key');
  return bech32.encode(SEGWIT_HRP[network], [0, ...bech32.toWords(hash160(compressedPublicKey))]);
}

/**
 * The 20 bytes Ethereum and TRON both address a secp256k1 key by: the last 20 bytes of the
 * Keccak-256 of the uncompressed key without its 0x04 prefix. Takes a compressed or uncompressed key.
 */
export function keccakAccountBytes(publicKey: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return keccak_256(uncompressed.subarray(1)).subarray(12);
}

export function tronAddressFromBytes(accountBytes: Uint8Array): string {
  if (accountBytes.length !== 20) throw new Error('a TRON address holds 20 bytes');
  const payload = new Uint8Array(21);
  payload[0] = TRON_VERSION;
  payload.set(accountBytes, 1);
  return base58check.encode(payload);
}

export const tronAddress = (publicKey: Uint8Array): string => tronAddressFromBytes(keccakAccountBytes(publicKey));

const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * EIP-55: a hex letter of the address is upper case when the matching nibble of Keccak-256 of the
 * lower-case hex (ASCII, without 0x) is 8 or more. `hex40` is 40 hex digits, any case.
 */
export function eip55(hex40: string): string {
  const lower = hex40.toLowerCase();
  const hash = toHex(keccak_256(new TextEncoder().encode(lower)));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    const c = lower[i] as string;
    out += c >= 'a' && Number.parseInt(hash[i] as string, 16) >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

export const ethereumAddress = (publicKey: Uint8Array): string => eip55(toHex(keccakAccountBytes(publicKey)));
