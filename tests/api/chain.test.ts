import { afterEach, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase } from '../../db/client.ts';
import { chainCommands } from '../../server/admin/chain-commands.ts';
import { CommandError } from '../../server/admin/user-commands.ts';
import { type BusEvent, createInProcessBus } from '../../server/realtime/bus.ts';
import type { ChainAdapter, DepositObservation } from '../../server/services/chain/adapter.ts';
import { createChainService } from '../../server/services/chain/chain.ts';
import { createChainRepository } from '../../server/services/chain/repository.ts';
import { createSimulatedChain } from '../../server/services/chain/simulated.ts';
import { createServices } from '../../server/services/container.ts';
import { type AuthState, personContext, systemContext } from '../../server/services/context.ts';
import { verifyLedger } from '../../server/services/ledger/invariants.ts';
import { createLedgerService } from '../../server/services/ledger/ledger.ts';
import { createLedgerRepository } from '../../server/services/ledger/repository.ts';
import { createSimulatedPriceFeed } from '../../server/services/price-feed/simulated.ts';
import { createAddressBook } from '../../server/services/wallet/address-book.ts';
import { createDepositAddresses } from '../../server/services/wallet/addresses.ts';
import { TEST_NOW } from '../support/test-app.ts';
import { createTestDb } from '../support/test-db.ts';

// The chain job over a real database file: deposits credited exactly once whatever runs twice,
// a restart in the middle (a second service over the same file), the durable block clock, the
// admin CLI, and deposits seen by a scanning adapter. verifyLedger after every test.

const testContext = systemContext('test');
/** The chain job's own context, as its timer runs it. */
const job = systemContext('chain');
/** A signed-in person's context, for the wallet's reads. */
const personOf = (id: number) => personContext({ user: { id } } as AuthState);
let testDb: ReturnType<typeof createTestDb>;
const opened: ReturnType<typeof openDatabase>[] = [];
afterEach(async () => {
  if (!testDb) return;
  expect(await verifyLedger(testDb.db)).toEqual([]);
  for (const db of opened.splice(0)) closeDatabase(db);
  testDb.close();
});

const clock = { now: TEST_NOW };
const now = () => clock.now;
const quiet = { info() {}, error: (m: string, e?: unknown) => console.error(m, e) };

/** The services a server process builds, over `db` (a second one over the same file is a restart). */
function servicesOver(db = testDb.db, bus = createInProcessBus()) {
  return createServices({
    db,
    priceFeed: createSimulatedPriceFeed({ tickSeconds: 10, anchors: { BTC: 90_000, USDT: 1 }, random: () => 0.5, now }),
    config: { AUTH_CHALLENGE: 'off', MAIL_FROM: 'x <x@example.com>', UPLOADS_DIR: '/tmp/coinfair-unused' },
    log: quiet,
    now,
    bus,
  });
}

function setup() {
  testDb = createTestDb();
  clock.now = TEST_NOW;
  const sql = testDb.db.$client;
  const buyer = sql.prepare("SELECT id FROM users WHERE email = 'buyer@example.com'").pluck().get() as number;
  const balanceOf = (userId = buyer) =>
    (sql
      .prepare("SELECT balance FROM ledger_accounts WHERE kind = 'user_wallet' AND owner_id = ? AND currency = 'BTC'")
      .pluck()
      .get(userId) as number | undefined) ?? 0;
  const deposits = () => sql.prepare("SELECT count(*) FROM ledger_transactions WHERE kind = 'deposit'").pluck().get();
  return { sql, buyer, balanceOf, deposits };
}

describe('deposits on the simulated chain', () => {
  it('credits exactly once when rounds overlap and the credit step runs again', async () => {
    const { buyer, balanceOf, deposits } = setup();
    const { chain } = servicesOver();
    const row = await chain.simulateDeposit(job, { userId: buyer, currency: 'BTC', amount: 70_000 });
    await chain.mine(job, { ticks: 1 });
    expect(await chain.creditDeposit(job, { id: row.id })).toBe(false);
    expect(balanceOf()).toBe(0);
    await (chain.adapter as ReturnType<typeof createSimulatedChain>).mine(1, now());
    await Promise.all([chain.tick(), chain.tick(), chain.tick()]);
    expect(await chain.creditDeposit(job, { id: row.id })).toBe(false);
    await chain.tick();
    expect(balanceOf()).toBe(70_000);
    expect(deposits()).toBe(1);
    expect(await chain.byPublicId(job, { publicId: row.publicId })).toMatchObject({
      status: 'confirmed',
      confirmations: 2,
      settledAt: clock.now,
      ledgerTransactionId: expect.any(Number),
    });
  });

  it('survives a restart in the middle: a second process continues and nothing is credited twice', async () => {
    const { buyer, balanceOf, deposits } = setup();
    const first = servicesOver();
    const row = await first.chain.simulateDeposit(job, { userId: buyer, currency: 'BTC', amount: 123_456 });
    await first.chain.mine(job, { ticks: 1 });

    // "Restart": another connection and fresh services over the same file.
    const db = openDatabase(testDb.path);
    opened.push(db);
    const second = servicesOver(db);
    await second.chain.mine(job, { ticks: 1 });
    expect(balanceOf()).toBe(123_456);

    // The first process wakes up with its stale view and runs everything again.
    await first.chain.tick();
    expect(await first.chain.creditDeposit(job, { id: row.id })).toBe(false);
    await second.chain.tick();
    expect(balanceOf()).toBe(123_456);
    expect(deposits()).toBe(1);
  });

  it('replays the ledger posting if a credit is attempted again for the same output', async () => {
    const { buyer, sql, balanceOf } = setup();
    const { chain, ledger } = servicesOver();
    const row = await chain.simulateDeposit(job, { userId: buyer, currency: 'BTC', amount: 5_000 });
    sql.prepare('UPDATE chain_transactions SET confirmations = 2 WHERE id = ?').run(row.id);
    expect(await chain.creditDeposit(job, { id: row.id })).toBe(true);
    // Even with the row's status put back by hand, the idempotency key keeps the money where it is.
    const credit = sql.prepare('SELECT ledger_transaction_id FROM chain_transactions WHERE id = ?').pluck().get(row.id);
    expect(credit).toEqual(expect.any(Number));
    expect(() =>
      sql
        .prepare("UPDATE chain_transactions SET status = 'incoming', ledger_transaction_id = NULL WHERE id = ?")
        .run(row.id),
    ).not.toThrow();
    expect(await chain.creditDeposit(job, { id: row.id })).toBe(true);
    expect(balanceOf()).toBe(5_000);
    expect((await ledger.balances(testContext, { userId: buyer })).BTC).toBe(5_000);
  });

  it('keeps its block clock in the database: a restart mines only the ticks that fell due', async () => {
    setup();
    const first = createSimulatedChain({ repo: createChainRepository(testDb.db), blockSeconds: 30 });
    await first.advance?.(clock.now);
    expect(await first.height('bitcoin')).toBe(0);
    clock.now += 30_000;
    await first.advance?.(clock.now);
    expect([await first.height('bitcoin'), await first.height('TRC20')]).toEqual([1, 10]);
    clock.now += 65_000;
    const second = createSimulatedChain({ repo: createChainRepository(testDb.db), blockSeconds: 30 });
    await second.advance?.(clock.now);
    await first.advance?.(clock.now);
    expect([await second.height('bitcoin'), await second.height('TRC20')]).toEqual([3, 30]);
    // The 5 s left over count toward the next block.
    clock.now += 25_000;
    await first.advance?.(clock.now);
    expect(await first.height('bitcoin')).toBe(4);
  });

  it('credits a USDT deposit only after 19 TRON blocks', async () => {
    const { buyer, sql } = setup();
    const { chain, ledger } = servicesOver();
    await chain.simulateDeposit(job, { userId: buyer, currency: 'USDT', amount: 2_500_000 });
    await chain.mine(job, { ticks: 1 });
    expect((await ledger.balances(testContext, { userId: buyer })).USDT).toBe(0);
    expect(await chain.incomingOf(job, { userId: buyer })).toEqual({ BTC: 0, USDT: 2_500_000 });
    expect(sql.prepare('SELECT confirmations FROM chain_transactions').pluck().get()).toBe(10);
    await chain.mine(job, { ticks: 1 });
    expect((await ledger.balances(testContext, { userId: buyer })).USDT).toBe(2_500_000);
    expect(await chain.incomingOf(job, { userId: buyer })).toEqual({ BTC: 0, USDT: 0 });
  });
});

describe('deposits seen by a scanning adapter', () => {
  /** A chain that reports what the test says, like a node's listsinceblock. */
  function scripted() {
    const outputs: DepositObservation[] = [];
    const adapter: ChainAdapter = {
      kind: 'bitcoind',
      depositNetworks: ['bitcoin'],
      sendNetworks: ['bitcoin'],
      scanDeposits: async () => ({
        deposits: outputs.map((o) => ({ ...o })),
        cursor: { value: 'tip', height: 800_000 },
      }),
      broadcast: async () => ({ txid: 'f'.repeat(64) }),
      confirmations: async () => null,
    };
    return { outputs, adapter };
  }

  function chainWith(adapter: ChainAdapter) {
    const db = testDb.db;
    return createChainService({
      repo: createChainRepository(db),
      adapter,
      ledger: createLedgerService({ repo: createLedgerRepository(db), bus: createInProcessBus(), now }),
      addressBook: createAddressBook({ db, derive: createDepositAddresses(), now }),
      bus: createInProcessBus(),
      now,
      log: quiet,
    });
  }

  it('records outputs to our addresses only, follows confirmations, credits once and drops conflicts', async () => {
    const { buyer, balanceOf, sql } = setup();
    const { outputs, adapter } = scripted();
    const chain = chainWith(adapter);
    const address = (await servicesOver().wallet.depositAddress(personOf(buyer), { currency: 'BTC' })).address;
    outputs.push(
      { txid: 'a'.repeat(64), vout: 1, address, amount: 40_000, confirmations: 0, blockHeight: null },
      {
        txid: 'b'.repeat(64),
        vout: 0,
        address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
        amount: 1,
        confirmations: 9,
        blockHeight: 1,
      },
      { txid: 'c'.repeat(64), vout: 0, address, amount: 9_000, confirmations: 0, blockHeight: null },
    );
    await chain.tick();
    expect(sql.prepare('SELECT txid, vout, status, simulated FROM chain_transactions ORDER BY id').all()).toEqual([
      { txid: 'a'.repeat(64), vout: 1, status: 'incoming', simulated: 0 },
      { txid: 'c'.repeat(64), vout: 0, status: 'incoming', simulated: 0 },
    ]);
    expect(sql.prepare("SELECT cursor, height FROM chain_state WHERE network = 'bitcoin'").get()).toEqual({
      cursor: 'tip',
      height: 800_000,
    });
    Object.assign(outputs[0] as DepositObservation, { confirmations: 2, blockHeight: 799_999 });
    Object.assign(outputs[2] as DepositObservation, { confirmations: -1 });
    await chain.tick();
    await chain.tick();
    expect(balanceOf()).toBe(40_000);
    expect(sql.prepare('SELECT status, failure_reason FROM chain_transactions ORDER BY id').all()).toEqual([
      { status: 'confirmed', failure_reason: null },
      { status: 'failed', failure_reason: expect.stringContaining('conflicted') },
    ]);
  });
});

describe('npm run admin -- chain:…', () => {
  it('creates an incoming deposit, prints its txid, mines and credits; a running server announces it', async () => {
    const { sql, buyer, balanceOf } = setup();
    const bus = createInProcessBus();
    const server = servicesOver(testDb.db, bus);
    const publicId = sql.prepare('SELECT public_id FROM users WHERE id = ?').pluck().get(buyer);
    const events: BusEvent[] = [];
    bus.subscribe(`wallet:${publicId}`, (event) => events.push(event));

    // The CLI is another process: its own connection, its own services.
    const cli = openDatabase(testDb.path);
    opened.push(cli);
    const commands = chainCommands(cli, {}, now);
    const printed = await commands.deposit('Buyer@Example.com', '0.25', 'btc');
    const txid = /txid ([0-9a-f]{64})/.exec(printed)?.[1];
    expect(printed).toContain('Incoming 0.25 BTC to bc1q');
    expect(printed).toContain('chain:mine 2');
    expect(sql.prepare('SELECT txid, amount, status FROM chain_transactions').get()).toEqual({
      txid,
      amount: 25_000_000,
      status: 'incoming',
    });

    // The server's next round notices the CLI's deposit and tells the person's wallet screen.
    await server.chain.tick();
    expect(events).toEqual([{ type: 'balances', payload: null }]);
    expect((await server.wallet.balances(personOf(buyer)))[0]).toMatchObject({ incoming: '0.25000000' });

    expect(await commands.mine('2')).toBe('Mined 2 tick(s): bitcoin at height 2, TRON at 20; 1 deposit(s) credited.');
    expect(balanceOf()).toBe(25_000_000);
    await server.chain.tick();
    expect(events).toHaveLength(2);
  });

  it('names what is wrong', async () => {
    setup();
    const commands = chainCommands(testDb.db, {}, now);
    await expect(commands.deposit('buyer@example.com', '0.5', 'ETH')).rejects.toThrow('BTC or USDT');
    await expect(commands.deposit('buyer@example.com', '0.123456789', 'BTC')).rejects.toThrow('at most 8 decimals');
    await expect(commands.deposit('buyer@example.com', '1.1234567', 'USDT')).rejects.toThrow('at most 6 decimals');
    await expect(commands.deposit('buyer@example.com', '0', 'BTC')).rejects.toThrow(CommandError);
    await expect(commands.deposit('nobody@example.com', '1', 'BTC')).rejects.toThrow('No account');
    await expect(commands.mine('zero')).rejects.toThrow('Mine 1 to 99999 blocks');
    const real = chainCommands(testDb.db, { CHAIN: 'bitcoind', BITCOIND_RPC_URL: 'http://u:p@127.0.0.1:1/' }, now);
    await expect(real.deposit('buyer@example.com', '1', 'BTC')).rejects.toThrow('CHAIN=simulated only');
    await expect(real.mine()).rejects.toThrow('CHAIN=simulated only');
  });
});
