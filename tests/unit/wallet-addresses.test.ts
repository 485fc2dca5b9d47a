import { secp256k1 } from '@noble/curves/secp256k1.js';
import { pbkdf2 } from '@noble/hashes/pbkdf2.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../server/config.ts';
import {
  createDepositAddresses,
  DEVELOPMENT_BTC_XPUB,
  DEVELOPMENT_TRON_XPUB,
  MAX_ADDRESS_INDEX,
  validateBtcAddress,
  validateUsdtAddress,
} from '../../server/services/wallet/addresses.ts';
import {
  base58check,
  eip55,
  ethereumAddress,
  p2wpkhAddress,
  tronAddress,
  tronAddressFromBytes,
} from '../../server/services/wallet/encoding.ts';
import { parseAccountKey } from '../../server/services/wallet/extended-keys.ts';

// Vectors: BIP84 (mnemonic "abandon × 11 about"), BIP173/BIP350 address lists, EIP-55's examples,
// well-known keys (private key 1's Ethereum address) and TRON addresses published by wallets.

const hex = (text: string) => Uint8Array.from(Buffer.from(text, 'hex'));

/** The BIP39 seed of the test mnemonic (PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic"). */
const TEST_MNEMONIC = `${'abandon '.repeat(11)}about`;
const seed = pbkdf2(sha512, new TextEncoder().encode(TEST_MNEMONIC), new TextEncoder().encode('mnemonic'), {
  c: 2048,
  dkLen: 64,
});
const ZPRV_VERSIONS = { public: 0x04b24746, private: 0x04b2430c };

const BIP84 = {
  zpub: 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
  /** The same account key with xpub version bytes. */
  xpub: 'xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V',
  rootZpub:
    'zpub6jftahH18ngZxLmXaKw3GSZzZsszmt9WqedkyZdezFtWRFBZqsQH5hyUmb4pCEeZGmVfQuP5bedXTB8is6fTv19U1GQRyQUKQGUTzyHACMF',
  receive0: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
  receive0PublicKey: '0330d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c',
  receive1: 'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g',
  receive1PublicKey: '03e775fd51f0dfb8cd865d9ff1cca2a158cf651fe997fdc9fee9c1d3b5e995ea77',
  change0: 'bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el',
};

describe('BTC deposit addresses (BIP84)', () => {
  it('derives the BIP84 test vectors from the account zpub', () => {
    const addresses = createDepositAddresses({ btcXpub: BIP84.zpub });
    expect(addresses.btcNetwork).toBe('mainnet');
    expect(addresses.btc(0)).toEqual({ address: BIP84.receive0, index: 0, path: "m/84'/0'/0'/0/0" });
    expect(addresses.btc(1)).toEqual({ address: BIP84.receive1, index: 1, path: "m/84'/0'/0'/0/1" });
    expect(addresses.btc(0, 1)).toEqual({ address: BIP84.change0, index: 0, path: "m/84'/0'/0'/1/0" });
  });

  it('encodes the vectors’ public keys as their addresses', () => {
    expect(p2wpkhAddress(hex(BIP84.receive0PublicKey), 'mainnet')).toBe(BIP84.receive0);
    expect(p2wpkhAddress(hex(BIP84.receive1PublicKey), 'mainnet')).toBe(BIP84.receive1);
  });

  it('reads the same account key with xpub version bytes, and defaults to it', () => {
    const fromXpub = createDepositAddresses({ btcXpub: BIP84.xpub });
    expect(fromXpub.btc(0).address).toBe(BIP84.receive0);
    expect(DEVELOPMENT_BTC_XPUB).toBe(BIP84.zpub);
    expect(createDepositAddresses().btc(1).address).toBe(BIP84.receive1);
  });

  it('matches derivation from the private root for many indexes', () => {
    const root = HDKey.fromMasterSeed(seed);
    const account = HDKey.fromMasterSeed(seed, ZPRV_VERSIONS).derive("m/84'/0'/0'");
    expect(account.publicExtendedKey).toBe(BIP84.zpub);
    const addresses = createDepositAddresses();
    for (const index of [2, 19, 20, 1000, 123_456]) {
      const key = root.derive(`m/84'/0'/0'/0/${index}`).publicKey as Uint8Array;
      expect(addresses.btc(index).address).toBe(p2wpkhAddress(key, 'mainnet'));
    }
    const last = root.derive(`m/84'/0'/0'/0/${MAX_ADDRESS_INDEX}`).publicKey as Uint8Array;
    expect(addresses.btc(MAX_ADDRESS_INDEX).address).toBe(p2wpkhAddress(last, 'mainnet'));
  });

  it('gives testnet addresses (tb1…) for a vpub of m/84h/1h/0h', () => {
    const vpub = HDKey.fromMasterSeed(seed, { public: 0x045f1cf6, private: 0x045f18bc }).derive("m/84'/1'/0'");
    expect(vpub.publicExtendedKey.startsWith('vpub')).toBe(true);
    const addresses = createDepositAddresses({ btcXpub: vpub.publicExtendedKey });
    expect(addresses.btcNetwork).toBe('testnet');
    const first = addresses.btc(0);
    expect(first.path).toBe("m/84'/1'/0'/0/0");
    expect(first.address).toBe('tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl');
    expect(validateBtcAddress(first.address, 'testnet')).toEqual({
      ok: true,
      normalized: first.address,
      kind: 'p2wpkh',
    });
  });

  it('names the account of the key in the path', () => {
    const account3 = HDKey.fromMasterSeed(seed, ZPRV_VERSIONS).derive("m/84'/0'/3'").publicExtendedKey;
    expect(createDepositAddresses({ btcXpub: account3 }).btc(7).path).toBe("m/84'/0'/3'/0/7");
  });

  it('holds public keys only', () => {
    const parsed = parseAccountKey(BIP84.zpub, ['zpub']);
    expect(parsed.ok && parsed.value.key.privateKey).toBeNull();
  });

  it.each([-1, 1.5, MAX_ADDRESS_INDEX + 1, Number.NaN])('refuses index %s', (index) => {
    expect(() => createDepositAddresses().btc(index)).toThrow(RangeError);
  });
});

describe('USDT (TRC-20) deposit addresses', () => {
  it('derives m/44h/195h/0h/0/i from the account xpub', () => {
    const root = HDKey.fromMasterSeed(seed);
    expect(root.derive("m/44'/195'/0'").publicExtendedKey).toBe(DEVELOPMENT_TRON_XPUB);
    const addresses = createDepositAddresses();
    // The address wallets (Trust Wallet's wallet-core tests) show for the test mnemonic.
    expect(addresses.tron(0)).toEqual({
      address: 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
      index: 0,
      path: "m/44'/195'/0'/0/0",
    });
    for (const index of [1, 2, 50, 99_999]) {
      const key = root.derive(`m/44'/195'/0'/0/${index}`).publicKey as Uint8Array;
      expect(addresses.tron(index).address).toBe(tronAddress(key));
    }
    expect(addresses.tron(1).address).toBe('TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK');
  });

  it('encodes a public key as TRON and Ethereum addresses (Keccak-256, last 20 bytes)', () => {
    // Trust Wallet's published TRON vector.
    const trust = secp256k1.getPublicKey(hex('BE88DF1D0BF30A923CB39C3BB953178BAAF3726E8D3CE81E7C8462E046E0D835'));
    expect(tronAddress(trust)).toBe('THRF3GuPnvvPzKoaT8pJex5XHmo8NNbCb3');
    // Private keys 1 and 2: their Ethereum addresses are well known; TRON uses the same 20 bytes.
    const one = secp256k1.getPublicKey(hex(`${'00'.repeat(31)}01`), false);
    expect(ethereumAddress(one)).toBe('0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf');
    expect(ethereumAddress(secp256k1.getPublicKey(hex(`${'00'.repeat(31)}02`)))).toBe(
      '0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF',
    );
    expect(tronAddress(one)).toBe(tronAddressFromBytes(hex('7e5f4552091a69125d5dfcb7b8c2659029395bdf')));
  });

  it('encodes known TRON hex addresses', () => {
    expect(tronAddressFromBytes(hex('a614f803b6fd780986a42c78ec9c7f77e6ded13c'))).toBe(
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', // the USDT contract
    );
    expect(tronAddressFromBytes(hex('59d3ad9d126e153b9564417d3a05cf51c1964edf'))).toBe(
      'TJAAinkKN2h9KxtBZXw6SyL7HwCQXnzFsE',
    );
    expect(tronAddressFromBytes(new Uint8Array(20))).toBe('T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb');
  });
});

describe('account keys in configuration', () => {
  const zprv = HDKey.fromMasterSeed(seed, ZPRV_VERSIONS).derive("m/84'/0'/0'").privateExtendedKey;
  const xprv = HDKey.fromMasterSeed(seed).derive("m/44'/195'/0'").privateExtendedKey;
  const ypub = HDKey.fromMasterSeed(seed, { public: 0x049d7cb2, private: 0x049d7878 }).derive(
    "m/49'/0'/0'",
  ).publicExtendedKey;

  it('defaults to the development keys and reads given ones', () => {
    const config = readConfig({});
    expect(config.WALLET_BTC_XPUB).toBe(DEVELOPMENT_BTC_XPUB);
    expect(config.WALLET_TRON_XPUB).toBe(DEVELOPMENT_TRON_XPUB);
    expect(config.QUOTE_TTL_SECONDS).toBe(30);
    expect(readConfig({ WALLET_BTC_XPUB: ` ${BIP84.xpub}\n` }).WALLET_BTC_XPUB).toBe(BIP84.xpub);
  });

  it.each([
    [{ WALLET_BTC_XPUB: 'not a key' }, 'WALLET_BTC_XPUB="not …": is not an extended public key'],
    [{ WALLET_BTC_XPUB: 'nokey' }, 'WALLET_BTC_XPUB="nokey": is not an extended public key'],
    [{ WALLET_BTC_XPUB: BIP84.rootZpub }, 'must be an account key (depth 3'],
    [{ WALLET_BTC_XPUB: ypub }, 'BIP49'],
    [{ WALLET_BTC_XPUB: `${BIP84.zpub.slice(0, -1)}t` }, 'valid checksum'],
    [{ WALLET_TRON_XPUB: BIP84.zpub }, 'WALLET_TRON_XPUB="zpub…": is a zpub; this setting takes xpub'],
    [{ DEMO_DATA: 'off' }, 'WALLET_BTC_XPUB="": must be your own wallet\'s account public key when DEMO_DATA=off'],
    [{ DEMO_DATA: 'off', WALLET_BTC_XPUB: BIP84.xpub }, 'WALLET_TRON_XPUB'],
    [{ QUOTE_TTL_SECONDS: '1' }, 'QUOTE_TTL_SECONDS="1": must be between 5 and 300'],
    [{ QUOTE_TTL_SECONDS: 'soon' }, 'QUOTE_TTL_SECONDS="soon": must be a whole number'],
  ])('stops start-up for %j with a clear message', (env, message) => {
    expect(() => readConfig(env)).toThrow(ConfigError);
    expect(() => readConfig(env)).toThrow(message);
  });

  it('refuses extended private keys without printing them', () => {
    for (const [name, key] of [
      ['WALLET_BTC_XPUB', zprv],
      ['WALLET_TRON_XPUB', xprv],
    ] as const) {
      let message = '';
      try {
        readConfig({ [name]: key });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain(`${name}="${key.slice(0, 4)}…": is an extended private key`);
      expect(message).not.toContain(key.slice(4, 20));
    }
  });

  it('accepts the development keys with demo data and own keys without', () => {
    const own = HDKey.fromMasterSeed(new Uint8Array(32).fill(7));
    const env = {
      DEMO_DATA: 'off',
      WALLET_BTC_XPUB: own.derive("m/84'/0'/0'").publicExtendedKey,
      WALLET_TRON_XPUB: own.derive("m/44'/195'/0'").publicExtendedKey,
      GIFT_CODE_KEY: 'a1'.repeat(32),
      API_KEY_ROOT: 'b2'.repeat(32),
    };
    expect(readConfig(env).DEMO_DATA).toBe('off');
    expect(readConfig({ DEMO_DATA: 'on' }).WALLET_BTC_XPUB).toBe(DEVELOPMENT_BTC_XPUB);
  });
});

describe('validateBtcAddress', () => {
  it.each([
    ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'p2wpkh'],
    ['bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3', 'p2wsh'],
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', 'p2tr'],
    ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'p2pkh'],
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'p2pkh'],
    ['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 'p2sh'],
  ])('accepts %s on mainnet', (address, kind) => {
    expect(validateBtcAddress(address, 'mainnet')).toEqual({ ok: true, normalized: address, kind });
  });

  it.each([
    ['tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'p2wpkh'],
    ['tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', 'p2wsh'],
    ['tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c', 'p2tr'],
    ['mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', 'p2pkh'],
    ['2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc', 'p2sh'],
  ])('accepts %s on testnet', (address, kind) => {
    expect(validateBtcAddress(address, 'testnet')).toEqual({ ok: true, normalized: address, kind });
  });

  it('accepts upper-case bech32 and surrounding spaces, normalized to lower case', () => {
    expect(validateBtcAddress('BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'mainnet')).toEqual({
      ok: true,
      normalized: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      kind: 'p2wpkh',
    });
    expect(validateBtcAddress(`  ${BIP84.receive0}\n`, 'mainnet')).toMatchObject({ normalized: BIP84.receive0 });
  });

  it.each([
    // A changed character: the checksum catches it.
    ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyq', 'checksum'],
    ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306yfu', 'checksum'],
    ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', 'checksum'],
    ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fy', 'checksum'],
    ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3', 'checksum'],
    ['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLz', 'checksum'],
    // BIP350: version 0 needs bech32, versions 1-16 bech32m; the other checksum is wrong.
    ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', 'checksum'],
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', 'checksum'],
    ['BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL', 'checksum'],
    ['bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du', 'checksum'],
    // Mixed case, characters outside the alphabets, lengths, unknown prefixes.
    ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3t4', 'format'],
    ['bc1QCR8TE4KR609GCAWUTMRZA0J4XV80JY8Z306FYU', 'format'],
    ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyo', 'format'],
    ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyb', 'format'],
    ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'.padEnd(91, 'q'), 'format'],
    ['bc1', 'format'],
    ['bc1qqqqqq', 'format'],
    ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2a', 'format'],
    ['1BvBMSEYstWe', 'format'],
    ['0BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'format'],
    ['ltc1qg82uu8ew8fc5aqc2lhyxakqxjnlzlq5aagcjf6', 'format'],
    ['bcrt1qs758ursh4q9z627kt3pp5yysm78ddny6txaqgw', 'format'],
    ['', 'format'],
    ['hello world', 'format'],
    // Valid bech32m, but witness programs no wallet can spend yet: coins sent there could be lost.
    ['bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y', 'format'],
    ['BC1SW50QGDZ25J', 'format'],
    // Valid addresses of other networks.
    ['tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'network'],
    ['tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c', 'network'],
    ['mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', 'network'],
    ['2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc', 'network'],
    ['TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH', 'network'],
    ['0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf', 'network'],
  ])('refuses %s on mainnet: %s', (address, reason) => {
    expect(validateBtcAddress(address, 'mainnet')).toEqual({ ok: false, reason });
  });

  it.each([
    [BIP84.receive0, 'network'],
    ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'network'],
    ['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 'network'],
    ['tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsy', 'checksum'],
    ['mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfm', 'checksum'],
  ])('refuses %s on testnet: %s', (address, reason) => {
    expect(validateBtcAddress(address, 'testnet')).toEqual({ ok: false, reason });
  });
});

describe('validateUsdtAddress', () => {
  it.each([
    'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
    'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    'TJAAinkKN2h9KxtBZXw6SyL7HwCQXnzFsE',
    'THRF3GuPnvvPzKoaT8pJex5XHmo8NNbCb3',
  ])('accepts TRC-20 %s', (address) => {
    expect(validateUsdtAddress(address, 'TRC20')).toEqual({ ok: true, normalized: address });
    expect(validateUsdtAddress(` ${address} `, 'TRC20')).toEqual({ ok: true, normalized: address });
  });

  const withVersion = (version: number) => {
    const payload = new Uint8Array(21).fill(0x5a);
    payload[0] = version;
    return base58check.encode(payload);
  };

  it('encodes with version 0x41 only: other version bytes are refused', () => {
    expect(validateUsdtAddress(withVersion(0x41), 'TRC20').ok).toBe(true);
    expect(withVersion(0x42)).toHaveLength(34);
    expect(validateUsdtAddress(withVersion(0x42), 'TRC20')).toEqual({ ok: false, reason: 'format' });
    expect(validateUsdtAddress(withVersion(0xa0), 'TRC20')).toEqual({ ok: false, reason: 'format' });
    // Version 0x00 is a bitcoin address: valid, but of another network.
    expect(validateUsdtAddress(withVersion(0x00), 'TRC20')).toEqual({ ok: false, reason: 'network' });
  });

  it.each([
    ['TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdJ', 'checksum'],
    ['TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYDH', 'checksum'],
    ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', 'checksum'],
    ['TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYd', 'format'],
    ['TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdHH', 'format'],
    ['TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYd0', 'format'],
    ['TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdl', 'format'],
    ['tuezsdksodhqmezwihtdobin46zxhgwydh', 'format'],
    ['41a614f803b6fd780986a42c78ec9c7f77e6ded13c', 'format'],
    ['', 'format'],
    ['0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf', 'network'],
    [BIP84.receive0, 'network'],
    ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'network'],
  ])('refuses TRC-20 %s: %s', (address, reason) => {
    expect(validateUsdtAddress(address, 'TRC20')).toEqual({ ok: false, reason });
  });

  // EIP-55's own examples: all caps, all lower, and mixed case with the checksum.
  const EIP55 = [
    '0x52908400098527886E0F7030069857D2E4169EE7',
    '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
    '0xde709f2102306220921060314715629080e2fb77',
    '0x27b1fdb04752bbc536007a920d24acb045561c26',
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];

  it.each(EIP55)('accepts ERC-20 %s', (address) => {
    const result = validateUsdtAddress(address, 'ERC20');
    expect(result.ok).toBe(true);
    // The normalized form carries the checksum whatever case came in.
    expect(result.ok && result.normalized).toBe(eip55(address.slice(2)));
  });

  it('normalizes lower and upper case to the EIP-55 form', () => {
    for (const address of EIP55.slice(4)) {
      const digits = address.slice(2);
      expect(validateUsdtAddress(`0x${digits.toLowerCase()}`, 'ERC20')).toEqual({ ok: true, normalized: address });
      expect(validateUsdtAddress(`0x${digits.toUpperCase()}`, 'ERC20')).toEqual({ ok: true, normalized: address });
    }
  });

  it.each([
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', 'checksum'],
    ['0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'checksum'],
    ['0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d35A', 'checksum'],
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe', 'format'],
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed0', 'format'],
    ['5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'format'],
    ['0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'format'],
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg', 'format'],
    ['', 'format'],
    ['TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH', 'network'],
    [BIP84.receive0, 'network'],
  ])('refuses ERC-20 %s: %s', (address, reason) => {
    expect(validateUsdtAddress(address, 'ERC20')).toEqual({ ok: false, reason });
  });

  it('accepts every derived deposit address it gives out', () => {
    const addresses = createDepositAddresses();
    for (let index = 0; index < 25; index++) {
      expect(validateBtcAddress(addresses.btc(index).address, 'mainnet').ok).toBe(true);
      expect(validateUsdtAddress(addresses.tron(index).address, 'TRC20').ok).toBe(true);
    }
  });
});
