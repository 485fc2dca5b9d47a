import { describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config.ts';

// The chain settings of server/config.ts: defaults, and messages that name the variable.

describe('CHAIN, BITCOIND_RPC_URL, CHAIN_BLOCK_SECONDS', () => {
  it('defaults to the simulated chain with a block every 30 s', () => {
    expect(readConfig({})).toMatchObject({ CHAIN: 'simulated', CHAIN_BLOCK_SECONDS: 30 });
    expect(readConfig({ CHAIN: 'bitcoind', BITCOIND_RPC_URL: 'http://u:p@127.0.0.1:8332/wallet/w' })).toMatchObject({
      CHAIN: 'bitcoind',
      BITCOIND_RPC_URL: 'http://u:p@127.0.0.1:8332/wallet/w',
    });
  });

  it.each([
    [{ CHAIN: 'ethereum' }, 'CHAIN="ethereum": must be simulated or bitcoind'],
    [{ CHAIN: 'bitcoind' }, 'BITCOIND_RPC_URL="": is required when CHAIN=bitcoind'],
    [
      { CHAIN: 'bitcoind', BITCOIND_RPC_URL: 'ftp://node' },
      'BITCOIND_RPC_URL="ftp:…": must be an http:// or https:// URL',
    ],
    [{ CHAIN_BLOCK_SECONDS: '0' }, 'CHAIN_BLOCK_SECONDS="0": must be between 1 and 3600'],
    [{ CHAIN_BLOCK_SECONDS: 'fast' }, 'CHAIN_BLOCK_SECONDS="fast": must be a whole number of seconds'],
  ])('refuses %j', (env, message) => {
    expect(() => readConfig(env)).toThrow(message);
  });

  it('never prints the node password', () => {
    expect(() => readConfig({ CHAIN: 'bitcoind', BITCOIND_RPC_URL: 'ftp://rpcuser:secret@node' })).toThrow(
      /^(?![\s\S]*secret)/,
    );
  });
});
