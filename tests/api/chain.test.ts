import { afterEach, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../db/database.ts';
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
import { createTestDb, type TestDb } from '../support/test-db.ts';

// The chain job over a real database: deposits credited exactly once whatever runs twice,
// a restart in the middle (a second service over the same database), the durable block clock, the
// admin CLI, and deposits seen by a scanning adapter. verifyLedger after every test.

const testContext = systemContext('test');
/** The chain job's own context, as its timer runs it. */
const job = systemContext('chain');
/** A signed-in person's context, for the wallet's reads. */
const personOf = (id: number) => personContext({ user: { id } } as AuthState);
let testDb: TestDb;
const opened: Database[] = [];
afterEach(async () => {
  if (!testDb) return;
  expect(await verifyLedger(testDb.db)).toEqual([]);
  for (const db of opened.splice(0)) await db.close();
  await testDb.close();
});

const clock = { now: TEST_NOW };
const now = () => clock.now;
const quiet = { info() {}, error: (m: string, e?: unknown) => console.error(m, e) };

/** The services a server process builds, over `db` (a second one over the same database is a restart). */
function servicesOver(db: Database = testDb.db, bus = createInProcessBus()) {
  return createServices({
    db,
    priceFeed: createSimulatedPriceFeed({ tickSeconds: 10, anchors: { BTC: 90_000, USDT: 1 }, random: () => 0.5, now }),
    config: { AUTH_CHALLENGE: 'off', MAIL_FROM: 'x <x@example.com>', UPLOADS_DIR: '/tmp/coinfair-unused' },
    log: quiet,
    now,
    bus,
  });
}

/** Another process's connection to the test's database (closed after the test). */
async function anotherConnection() {
  const db = await connectDatabase(testDb.url, { poolSize: 2 });
  opened.push(db);
  return db;
}

async function setup() {
  testDb = await createTestDb();
  clock.now = TEST_NOW;
  const sql = testDb.db.sql;
  const buyerRow = await sql.get<{ id: number }>("SELECT id FROM users WHERE email = 'buyer@example.com'");
  const buyer = buyerRow?.id as number;
  const balanceOf = async (userId = buyer) =>
    (
      await sql.get<{ balance: number }>(
        "SELECT balance FROM ledger_accounts WHERE kind = 'user_wallet' AND owner_id = ? AND currency = 'BTC'",
        [userId],
      )
    )?.balance ?? 0;
  const deposits = async () =>
    (await sql.get<{ n: number }>("SELECT count(*) AS n FROM ledger_transactions WHERE kind = 'deposit'"))?.n;
  return { sql, buyer, balanceOf, deposits };
}

describe('deposits on the simulated chain', () => {
  it('credits exactly once when rounds overlap and the credit step runs again', async () => {
    const { buyer, balanceOf, deposits } = await setup();
    const { chain } = servicesOver();
    const row = await chain.simulateDeposit(job, { userId: buyer, currency: 'BTC', amount: 70_000 });
    await chain.mine(job, { ticks: 1 });
    expect(await chain.creditDeposit(job, { id: row.id })).toBe(false);
    expect(await balanceOf()).toBe(0);
    await (chain.adapter as ReturnType<typeof createSimulatedChain>).mine(1, now());
    await Promise.all([chain.tick(), chain.tick(), chain.tick()]);
    expect(await chain.creditDeposit(job, { id: row.id })).toBe(false);
    await chain.tick();
    expect(await balanceOf()).toBe(70_000);
    expect(await deposits()).toBe(1);
    expect(await chain.byPublicId(job, { publicId: row.publicId })).toMatchObject({
      status: 'confirmed',
      confirmations: 2,
      settledAt: clock.now,
      ledgerTransactionId: expect.any(Number),
    });
  });

  it('survives a restart in the middle: a second process continues and nothing is credited twice', async () => {
    const { buyer, balanceOf, deposits } = await setup();
    const first = servicesOver();
    const row = await first.chain.simulateDeposit(job, { userId: buyer, currency: 'BTC', amount: 123_456 });
    await first.chain.mine(job, { ticks: 1 });

    // "Restart": another connection and fresh services over the same database.
    const second = servicesOver(await anotherConnection());
    await second.chain.mine(job, { ticks: 1 });
    expect(await balanceOf()).toBe(123_456);

    // The first process wakes up with its stale view and runs everything again.
    await first.chain.tick();
    expect(await first.chain.creditDeposit(job, { id: row.id })).toBe(false);
    await second.chain.tick();
    expect(await balanceOf()).toBe(123_456);
    expect(await deposits()).toBe(1);
  });

  it('replays the ledger posting if a credit is attempted again for the same output', async () => {
    const { buyer, sql, balanceOf } = await setup();
    const { chain, ledger } = servicesOver();
    const row = await chain.simulateDeposit(job, { userId: buyer, currency: 'BTC', amount: 5_000 });
    await sql.run('UPDATE chain_transactions SET confirmations = 2 WHERE id = ?', [row.id]);
    expect(await chain.creditDeposit(job, { id: row.id })).toBe(true);
    // Even with the row's status put back by hand, the idempotency key keeps the money where it is.
    const credit = await sql.get<{ ledger_transaction_id: number }>(
      'SELECT ledger_transaction_id FROM chain_transactions WHERE id = ?',
      [row.id],
    );
    expect(credit?.ledger_transaction_id).toEqual(expect.any(Number));
    await expect(
      sql.run("UPDATE chain_transactions SET status = 'incoming', ledger_transaction_id = NULL WHERE id = ?", [row.id]),
    ).resolves.toEqual({ changes: 1 });
    expect(await chain.creditDeposit(job, { id: row.id })).toBe(true);
    expect(await balanceOf()).toBe(5_000);
    expect((await ledger.balances(testContext, { userId: buyer })).BTC).toBe(5_000);
  });

  it('keeps its block clock in the database: a restart mines only the ticks that fell due', async () => {
    await setup();
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
    const { buyer, sql } = await setup();
    const { chain, ledger } = servicesOver();
    await chain.simulateDeposit(job, { userId: buyer, currency: 'USDT', amount: 2_500_000 });
    await chain.mine(job, { ticks: 1 });
    expect((await ledger.balances(testContext, { userId: buyer })).USDT).toBe(0);
    expect(await chain.incomingOf(job, { userId: buyer })).toEqual({ BTC: 0, USDT: 2_500_000 });
    expect(
      (await sql.get<{ confirmations: number }>('SELECT confirmations FROM chain_transactions'))?.confirmations,
    ).toBe(10);
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
    const { buyer, balanceOf, sql } = await setup();
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
    expect(await sql.all('SELECT txid, vout, status, simulated FROM chain_transactions ORDER BY id')).toEqual([
      { txid: 'a'.repeat(64), vout: 1, status: 'incoming', simulated: 0 },
      { txid: 'c'.repeat(64), vout: 0, status: 'incoming', simulated: 0 },
    ]);
    expect(await sql.get("SELECT cursor, height FROM chain_state WHERE network = 'bitcoin'")).toEqual({
      cursor: 'tip',
      height: 800_000,
    });
    Object.assign(outputs[0] as DepositObservation, { confirmations: 2, blockHeight: 799_999 });
    Object.assign(outputs[2] as DepositObservation, { confirmations: -1 });
    await chain.tick();
    await chain.tick();
    expect(await balanceOf()).toBe(40_000);
    expect(await sql.all('SELECT status, failure_reason FROM chain_transactions ORDER BY id')).toEqual([
      { status: 'confirmed', failure_reason: null },
      { status: 'failed', failure_reason: expect.stringContaining('conflicted') },
    ]);
  });
});

describe('npm run admin -- chain:…', () => {
  it('creates an incoming deposit, prints its txid, mines and credits; a running server announces it', async () => {
    const { sql, buyer, balanceOf } = await setup();
    const bus = createInProcessBus();
    const server = servicesOver(testDb.db, bus);
    const publicId = (await sql.get<{ public_id: string }>('SELECT public_id FROM users WHERE id = ?', [buyer]))
      ?.public_id;
    const events: BusEvent[] = [];
    bus.subscribe(`wallet:${publicId}`, (event) => events.push(event));

    // The CLI is another process: its own connection, its own services.
    const cli = await anotherConnection();
    const commands = chainCommands(cli, {}, now);
    const printed = await commands.deposit('Buyer@Example.com', '0.25', 'btc');
    const txid = /txid ([0-9a-f]{64})/.exec(printed)?.[1];
    expect(printed).toContain('Incoming 0.25 BTC to bc1q');
    expect(printed).toContain('chain:mine 2');
    expect(await sql.get('SELECT txid, amount, status FROM chain_transactions')).toEqual({
      txid,
      amount: 25_000_000,
      status: 'incoming',
    });

    // The server's next round notices the CLI's deposit and tells the person's wallet screen.
    await server.chain.tick();
    expect(events).toEqual([{ type: 'balances', payload: null }]);
    expect((await server.wallet.balances(personOf(buyer)))[0]).toMatchObject({ incoming: '0.25000000' });

    expect(await commands.mine('2')).toBe('Mined 2 tick(s): bitcoin at height 2, TRON at 20; 1 deposit(s) credited.');
    expect(await balanceOf()).toBe(25_000_000);
    await server.chain.tick();
    expect(events).toHaveLength(2);
  });

  it('names what is wrong', async () => {
    await setup();
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
