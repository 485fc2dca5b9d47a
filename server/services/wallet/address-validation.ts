import { sha256 } from '@noble/hashes/sha2.js';
import { base58, bech32, bech32m } from '@scure/base';
import { eip55, SEGWIT_HRP, TRON_VERSION } from './encoding.ts';
import type { BtcNetwork } from './extended-keys.ts';

// Is this text an address we can send to? Per network, with the reason when not, so a withdrawal
// form can say precisely what is wrong:
//   format   — not an address of the kind asked for (length, characters, mixed-case bech32,
//              an unknown or unsafe version);
//   checksum — the right shape, but a character is wrong (a typo: the checksum does not match);
//   network  — a valid address, but of another network (testnet on mainnet, a TRON address in an
//              ERC-20 field, a bitcoin address in a USDT field).
// `normalized` is the form to store and show: lower-case bech32, EIP-55 for Ethereum.

export type AddressProblem = 'format' | 'checksum' | 'network';
export type AddressCheck<Extra = unknown> =
  | ({ ok: true; normalized: string } & Extra)
  | { ok: false; reason: AddressProblem };

export type BtcAddressKind = 'p2pkh' | 'p2sh' | 'p2wpkh' | 'p2wsh' | 'p2tr';
export type UsdtNetwork = 'TRC20' | 'ERC20';
export const usdtNetworks: readonly UsdtNetwork[] = ['TRC20', 'ERC20'];

const fail = (reason: AddressProblem) => ({ ok: false, reason }) as const;

const BECH32_CHARSET = /^[qpzry9x8gf2tvdw0s3jn54khce6mua7l]+$/;
const BASE58_CHARSET = /^[1-9A-HJ-NP-Za-km-z]+$/;
const EVM_SHAPE = /^0x[0-9a-fA-F]{40}$/;
/** BIP173: at most 90 characters; 6 checksum characters plus at least the version. */
const BECH32_MAX_LENGTH = 90;

/** Version bytes of bitcoin's base58check addresses. */
const LEGACY_VERSIONS: Record<number, { network: BtcNetwork; kind: BtcAddressKind }> = {
  0: { network: 'mainnet', kind: 'p2pkh' },
  5: { network: 'mainnet', kind: 'p2sh' },
  111: { network: 'testnet', kind: 'p2pkh' },
  196: { network: 'testnet', kind: 'p2sh' },
};

const networkOfHrp = (hrp: string): BtcNetwork | undefined =>
  (Object.keys(SEGWIT_HRP) as BtcNetwork[]).find((n) => SEGWIT_HRP[n] === hrp);

function checksumMatches(payload: Uint8Array, checksum: Uint8Array): boolean {
  const expected = sha256(sha256(payload));
  return checksum.length === 4 && checksum.every((byte, i) => byte === expected[i]);
}

/** Base58 text as its payload (without the checksum), or why it cannot be one. */
function decodeBase58check(text: string, length: number): Uint8Array | AddressProblem {
  if (!BASE58_CHARSET.test(text)) return 'format';
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(text);
  } catch {
    return 'format';
  }
  if (bytes.length !== length + 4) return 'format';
  const payload = bytes.subarray(0, length);
  return checksumMatches(payload, bytes.subarray(length)) ? payload : 'checksum';
}

function segwit(text: string, network: BtcNetwork): AddressCheck<{ kind: BtcAddressKind }> {
  // BIP173: either all lower or all upper case; the canonical form is lower case.
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) return fail('format');
  const s = text.toLowerCase();
  const separator = s.lastIndexOf('1');
  const hrp = s.slice(0, separator);
  const data = s.slice(separator + 1);
  const hrpNetwork = networkOfHrp(hrp);
  if (!hrpNetwork || s.length > BECH32_MAX_LENGTH || data.length < 7 || !BECH32_CHARSET.test(data)) {
    return fail('format');
  }
  const asBech32 = bech32.decodeUnsafe(s, BECH32_MAX_LENGTH);
  const asBech32m = bech32m.decodeUnsafe(s, BECH32_MAX_LENGTH);
  const decoded = asBech32 || asBech32m;
  if (!decoded) return fail('checksum');
  const [version, ...programWords] = decoded.words;
  // BIP350: version 0 uses the bech32 checksum, versions 1-16 bech32m; the other one is a bad checksum.
  if (version === undefined || version > 16) return fail('format');
  if ((version === 0) !== Boolean(asBech32)) return fail('checksum');
  const program = bech32.fromWordsUnsafe(programWords);
  if (!program) return fail('format');
  let kind: BtcAddressKind;
  if (version === 0 && program.length === 20) kind = 'p2wpkh';
  else if (version === 0 && program.length === 32) kind = 'p2wsh';
  else if (version === 1 && program.length === 32) kind = 'p2tr';
  // Other programs are valid bech32m but not yet spendable rules: coins sent there can be lost.
  else return fail('format');
  if (hrpNetwork !== network) return fail('network');
  return { ok: true, normalized: s, kind };
}

function legacy(text: string, network: BtcNetwork): AddressCheck<{ kind: BtcAddressKind }> {
  const payload = decodeBase58check(text, 21);
  if (typeof payload === 'string') return fail(payload);
  const version = payload[0] as number;
  const known = LEGACY_VERSIONS[version];
  // A TRON address is base58check with version 0x41: valid, but not bitcoin.
  if (!known) return fail(version === TRON_VERSION ? 'network' : 'format');
  if (known.network !== network) return fail('network');
  return { ok: true, normalized: text, kind: known.kind };
}

const looksSegwit = (text: string) => /^(bc|tb)1/i.test(text);

function btcOnly(text: string, network: BtcNetwork): AddressCheck<{ kind: BtcAddressKind }> {
  return looksSegwit(text) ? segwit(text, network) : legacy(text, network);
}

function tronOnly(text: string): AddressCheck {
  // 0x41 followed by 20 bytes and a 4-byte checksum is always 34 base58 characters starting with T.
  if (text.length !== 34 || !text.startsWith('T')) return fail('format');
  const payload = decodeBase58check(text, 21);
  if (typeof payload === 'string') return fail(payload);
  const version = payload[0] as number;
  if (version !== TRON_VERSION) return fail(LEGACY_VERSIONS[version] ? 'network' : 'format');
  return { ok: true, normalized: text };
}

function evmOnly(text: string): AddressCheck {
  if (!EVM_SHAPE.test(text)) return fail('format');
  const hex = text.slice(2);
  const normalized = eip55(hex);
  // All-lower and all-upper hex carry no checksum (EIP-55); mixed case must match it exactly.
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return { ok: true, normalized };
  return normalized === text ? { ok: true, normalized } : fail('checksum');
}

const isBitcoin = (text: string) => btcOnly(text, 'mainnet').ok || btcOnly(text, 'testnet').ok;

/** When the text is not of the kind asked for: is it a valid address of another network? */
function orOtherNetwork<T>(result: AddressCheck<T>, text: string, others: ((text: string) => boolean)[]) {
  if (result.ok || result.reason !== 'format') return result;
  return others.some((valid) => valid(text)) ? fail('network') : result;
}

/**
 * A bitcoin address of `network`: native segwit v0 (P2WPKH, P2WSH; bech32), taproot (segwit v1;
 * bech32m), or legacy base58check P2PKH/P2SH. Testnet means `tb1…`, `m…`/`n…` and `2…` (signet
 * shares them); regtest's `bcrt1…` is not accepted.
 */
export function validateBtcAddress(text: string, network: BtcNetwork): AddressCheck<{ kind: BtcAddressKind }> {
  const t = text.trim();
  return orOtherNetwork(btcOnly(t, network), t, [(s) => evmOnly(s).ok, (s) => tronOnly(s).ok]);
}

/**
 * A tether address on `network`: TRC-20 is a TRON address (base58check, version 0x41, 34
 * characters from `T`); ERC-20 an Ethereum address (`0x` + 40 hex digits, EIP-55 checksum
 * verified when the letters are mixed case).
 */
export function validateUsdtAddress(text: string, network: UsdtNetwork): AddressCheck {
  const t = text.trim();
  if (network === 'TRC20') return orOtherNetwork(tronOnly(t), t, [(s) => evmOnly(s).ok, isBitcoin]);
  return orOtherNetwork(evmOnly(t), t, [(s) => tronOnly(s).ok, isBitcoin]);
}
