import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { proofCommands } from '../../server/admin/proof-commands.ts';
import { createBitcoindChain } from '../../server/services/chain/bitcoind.ts';
import { createChainRepository } from '../../server/services/chain/repository.ts';
import { systemContext } from '../../server/services/context.ts';
import type { ProofPublicationView, ReservesView } from '../../src/lib/shared/views/proof.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { tradeFixtures } from '../support/trade-fixtures.ts';

// The reserves side of the proof page (decision 149): GET /rest/v1/proof/reserves is public, reads
// what the platform's addresses hold from the chain adapter (the simulated chain here), sets it
// beside the latest published liabilities, and serves one reading for a minute unless the chain's
// rows change.

let t: TestApp;
const job = systemContext('test');

beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t?.close());

const reserves = async () => {
  const res = await t.send('/rest/v1/proof/reserves');
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('cache-control')).toBe('public, max-age=60');
  return (await res.json()).data as ReservesView;
};

/** A confirmed deposit on the simulated chain to the user's own deposit address. */
async function deposit(email: string, currency: 'BTC' | 'USDT', amount: number) {
  const id = await tradeFixtures(t).userId(email);
  await t.services.chain.simulateDeposit(job, { userId: id, currency, amount });
  await t.services.chain.mine(job, { ticks: 20 });
  await t.services.chain.tick();
}

describe('GET /rest/v1/proof/reserves', () => {
  it('answers a visitor before anything is published: the chain read, no liabilities, no ratio', async () => {
    const data = await reserves();
    expect(data.chain).toBe('simulated');
    expect(data.publication).toBeNull();
    expect(data.readAt).toBe(t.clock.now);
    expect(data.currencies.map((c) => [c.currency, c.network, c.available])).toEqual([
      ['BTC', 'bitcoin', true],
      ['USDT', 'TRC20', true],
    ]);
    for (const currency of data.currencies)
      expect(currency).toMatchObject({ liabilities: null, ratio: null, totalMinorUnits: 0, addresses: [] });
  });

  it('lists the addresses holding coins and the ratio against the latest published root', async () => {
    await deposit('buyer@example.com', 'BTC', 70_000);
    await deposit('vendor@example.com', 'BTC', 130_000);
    await deposit('buyer@example.com', 'USDT', 5_000_000);
    await proofCommands(t.db, () => t.clock.now).publish();
    const [published] = (await (await t.send('/rest/v1/proof')).json()).data as ProofPublicationView[];
    const data = await reserves();
    expect(data.publication).toEqual({ id: published?.id, publishedAt: published?.publishedAt });
    const btc = data.currencies.find((c) => c.currency === 'BTC');
    const owed = published?.roots.find((r) => r.currency === 'BTC');
    expect(btc?.addresses.map((a) => a.balanceMinorUnits)).toEqual([130_000, 70_000]);
    expect(btc?.addresses[0]?.balance).toBe('0.00130000');
    expect(btc?.addresses[0]?.address).toMatch(/^(bc1|tb1|bcrt1)/);
    expect(btc).toMatchObject({ total: '0.00200000', totalMinorUnits: 200_000, liabilities: owed?.total });
    expect(btc?.ratio).toBeCloseTo(200_000 / (owed?.totalMinorUnits as number), 12);
    const usdt = data.currencies.find((c) => c.currency === 'USDT');
    expect(usdt).toMatchObject({ total: '5.000000', totalMinorUnits: 5_000_000 });
    expect(usdt?.addresses).toHaveLength(1);
  });

  it('serves one reading for a minute, and a new one once the chain changes or the minute is over', async () => {
    const first = await reserves();
    t.clock.now += 30_000;
    expect((await reserves()).readAt).toBe(first.readAt);
    await deposit('buyer@example.com', 'BTC', 50_000);
    const after = await reserves();
    expect(after.readAt).toBe(t.clock.now);
    expect(after.currencies[0]?.totalMinorUnits).toBe(50_000);
    t.clock.now += 61_000;
    expect((await reserves()).readAt).toBe(t.clock.now);
  });

  it('spends sendouts from the deposit addresses, oldest first', async () => {
    await deposit('buyer@example.com', 'BTC', 70_000);
    await deposit('vendor@example.com', 'BTC', 130_000);
    // A broadcast sendout of 50,000 + 2,000 network fee, as the chain job leaves it.
    const { id: ledgerId } = (await t.db.sql.get<{ id: number }>('SELECT max(id) AS id FROM ledger_transactions')) as {
      id: number;
    };
    const buyer = await tradeFixtures(t).userId('buyer@example.com');
    await t.db.sql.run(
      `INSERT INTO chain_transactions (public_id, direction, currency, network, user_id, address, amount, fee, txid,
         required_confirmations, status, ledger_transaction_id, idempotency_key, seq, created_at, updated_at)
       VALUES ('chn_0000000000000001', 'out', 'BTC', 'bitcoin', ?, 'bcrt1qexternal', 50000, 2000, 'ab', 2,
         'broadcast', ?, 'sendout:test', 1000, 0, 0)`,
      [buyer, ledgerId],
    );
    const btc = (await reserves()).currencies[0];
    expect(btc?.addresses.map((a) => a.balanceMinorUnits)).toEqual([130_000, 18_000]);
    expect(btc?.totalMinorUnits).toBe(148_000);
  });
});

describe('a chain that cannot read its addresses', () => {
  it('says so rather than show zero reserves', async () => {
    await t.close();
    t = await createTestApp({
      chainAdapter: () => ({
        kind: 'bitcoind',
        depositNetworks: ['bitcoin'],
        sendNetworks: ['bitcoin'],
        scanDeposits: async () => ({ deposits: [] }),
        broadcast: async () => ({ txid: 'x' }),
        confirmations: async () => null,
      }),
    });
    const data = await reserves();
    expect(data.chain).toBe('bitcoind');
    expect(data.currencies.map((c) => [c.currency, c.available, c.ratio])).toEqual([
      ['BTC', false, null],
      ['USDT', false, null],
    ]);
  });
});

describe('bitcoind', () => {
  it("sums the wallet's confirmed unspent outputs per address (listunspent 1)", async () => {
    const calls: unknown[][] = [];
    const adapter = createBitcoindChain({
      rpc: {
        call: async <T>(method: string, params: unknown[] = []) => {
          calls.push([method, ...params]);
          return [
            { address: 'bcrt1qa', amount: 0.0007 },
            { address: 'bcrt1qb', amount: 0.1 },
            { address: 'bcrt1qa', amount: 0.00000001 },
            { amount: 1 },
          ] as T;
        },
      },
      repo: createChainRepository(t.db),
      now: () => t.clock.now,
    });
    expect(await adapter.holdings?.('bitcoin')).toEqual([
      { address: 'bcrt1qa', balance: 70_001 },
      { address: 'bcrt1qb', balance: 10_000_000 },
    ]);
    expect(calls).toEqual([['listunspent', 1]]);
    expect(await adapter.holdings?.('TRC20')).toEqual([]);
  });
});
