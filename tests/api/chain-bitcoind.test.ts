import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BroadcastRejected } from '../../server/services/chain/adapter.ts';
import { createBitcoindChain, createJsonRpcClient, RpcError } from '../../server/services/chain/bitcoind.ts';
import { createChainRepository } from '../../server/services/chain/repository.ts';
import { systemContext } from '../../server/services/context.ts';
import { verifyLedger } from '../../server/services/ledger/invariants.ts';
import { browserSession } from '../support/browser-session.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';

// The bitcoind adapter's contract against a fake Bitcoin Core JSON-RPC server on 127.0.0.1: real
// HTTP, Basic auth, JSON-RPC 1.0 envelopes and Core's error shapes (HTTP 500 with a JSON error,
// 401 without a body). The fake answers from a small in-memory wallet the test edits.

interface Receive {
  address: string;
  category: 'receive' | 'send';
  amount: number;
  vout: number;
  txid: string;
  confirmations: number;
  blockheight?: number;
}

interface Call {
  method: string;
  params: unknown[];
}

/** The chain job's own context, as its timer runs it. */
const job = systemContext('chain');
const USER = 'coinfair';
const PASSWORD = 'p@ss:word';

let server: Server | undefined;
let t: TestApp | undefined;
afterEach(async () => {
  if (t) {
    expect(await verifyLedger(t.db)).toEqual([]);
    await t.close();
    t = undefined;
  }
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function fakeBitcoind() {
  const calls: Call[] = [];
  const node = {
    height: 800_000,
    receives: [] as Receive[],
    removed: [] as Receive[],
    /** txid → confirmations, for gettransaction. */
    wallet: new Map<string, number>(),
    /** The next sendtoaddress fails with this RPC error. */
    sendError: undefined as { code: number; message: string } | undefined,
    /** Answer the next call with a bare 500 and no JSON, as a crashed proxy would. */
    brokenOnce: false,
    delayMs: 0,
  };
  const expectedAuth = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
  server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    if (req.headers.authorization !== expectedAuth) {
      res.writeHead(401).end();
      return;
    }
    const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: unknown[] };
    calls.push({ method, params });
    if (node.delayMs) await new Promise((resolve) => setTimeout(resolve, node.delayMs));
    if (node.brokenOnce) {
      node.brokenOnce = false;
      res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>502 Bad Gateway</h1>');
      return;
    }
    const answer = (result: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result, error: null, id }));
    const fail = (code: number, message: string) =>
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ result: null, error: { code, message }, id }));
    switch (method) {
      case 'getblockcount':
        return answer(node.height);
      case 'listsinceblock':
        return answer({ transactions: node.receives, removed: node.removed, lastblock: `block-${node.height - 1}` });
      case 'gettransaction': {
        const confirmations = node.wallet.get(String(params[0]));
        return confirmations === undefined
          ? fail(-5, 'Invalid or non-wallet transaction id')
          : answer({ confirmations, txid: params[0] });
      }
      case 'sendtoaddress': {
        if (node.sendError) return fail(node.sendError.code, node.sendError.message);
        const txid = String(calls.length).padStart(64, '0');
        node.wallet.set(txid, 0);
        return answer(txid);
      }
      default:
        return fail(-32601, 'Method not found');
    }
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/wallet/coinfair`;
  return { node, calls, url, port };
}

describe('JSON-RPC client', () => {
  it('sends Basic auth from the URL, not the credentials in the URL, and reads results and errors', async () => {
    const { url, port } = await fakeBitcoind();
    const rpc = createJsonRpcClient(url);
    expect(await rpc.call('getblockcount')).toBe(800_000);
    const error = await rpc.call('nosuchmethod').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32601, message: 'Method not found' });
    await expect(createJsonRpcClient(`http://${USER}:wrong@127.0.0.1:${port}/`).call('getblockcount')).rejects.toThrow(
      'HTTP 401',
    );
  });

  it('gives up after its timeout', async () => {
    const { url, node } = await fakeBitcoind();
    node.delayMs = 300;
    await expect(createJsonRpcClient(url, { timeoutMs: 50 }).call('getblockcount')).rejects.toThrow();
  });
});

describe('bitcoind adapter', () => {
  async function adapterOver(url: string) {
    t = await createTestApp();
    return createBitcoindChain({ rpc: createJsonRpcClient(url), repo: createChainRepository(t.db), now: Date.now });
  }

  it('reports receives to our addresses in satoshi, exactly, and continues from the stored cursor', async () => {
    const { url, node, calls } = await fakeBitcoind();
    const adapter = await adapterOver(url);
    const ours = new Set(['bc1qours1', 'bc1qours2']);
    node.receives = [
      {
        address: 'bc1qours1',
        category: 'receive',
        amount: 0.1,
        vout: 0,
        txid: 'a1',
        confirmations: 1,
        blockheight: 800_000,
      },
      { address: 'bc1qours2', category: 'receive', amount: 20999999.99999999, vout: 3, txid: 'a2', confirmations: 0 },
      {
        address: 'bc1qours1',
        category: 'receive',
        amount: 0.00000001,
        vout: 1,
        txid: 'a3',
        confirmations: 5,
        blockheight: 799_996,
      },
      { address: 'bc1qsomeoneelse', category: 'receive', amount: 1, vout: 0, txid: 'a4', confirmations: 1 },
      { address: 'bc1qours1', category: 'send', amount: -0.5, vout: 0, txid: 'a5', confirmations: 1 },
    ];
    node.removed = [{ address: 'bc1qours2', category: 'receive', amount: 0.3, vout: 0, txid: 'a6', confirmations: -1 }];
    const scan = await adapter.scanDeposits('bitcoin', (address) => ours.has(address));
    expect(scan).toEqual({
      deposits: [
        { txid: 'a1', vout: 0, address: 'bc1qours1', amount: 10_000_000, confirmations: 1, blockHeight: 800_000 },
        {
          txid: 'a2',
          vout: 3,
          address: 'bc1qours2',
          amount: 2_099_999_999_999_999,
          confirmations: 0,
          blockHeight: null,
        },
        { txid: 'a3', vout: 1, address: 'bc1qours1', amount: 1, confirmations: 5, blockHeight: 799_996 },
        { txid: 'a6', vout: 0, address: 'bc1qours2', amount: 30_000_000, confirmations: 0, blockHeight: null },
      ],
      cursor: { value: 'block-799999', height: 800_000 },
    });
    // target_confirmations = 2: every deposit is reported again until it has its two blocks.
    expect(calls[0]).toEqual({ method: 'listsinceblock', params: ['', 2, true, true] });
    await createChainRepository((t as NonNullable<typeof t>).db).setCursor(
      'bitcoin',
      'block-799999',
      800_000,
      Date.now(),
    );
    await adapter.scanDeposits('bitcoin', () => false);
    expect(calls.filter((c) => c.method === 'listsinceblock').at(-1)?.params).toEqual(['block-799999', 2, true, true]);
    expect(await adapter.scanDeposits('TRC20', () => true)).toEqual({ deposits: [] });
  });

  it('sends the amount as exact text, and tells a refusal from an unknown outcome', async () => {
    const { url, node, calls } = await fakeBitcoind();
    const adapter = await adapterOver(url);
    const request = { publicId: 'chn_test', network: 'bitcoin' as const, address: 'bc1qdest', amount: 150_000 };
    const { txid } = await adapter.broadcast(request);
    expect(calls.at(-1)).toEqual({ method: 'sendtoaddress', params: ['bc1qdest', '0.00150000', 'chn_test'] });
    expect(await adapter.confirmations('bitcoin', txid)).toBe(0);
    node.wallet.set(txid, -3);
    expect(await adapter.confirmations('bitcoin', txid)).toBe(-3);
    expect(await adapter.confirmations('bitcoin', 'unknown')).toBeNull();

    node.sendError = { code: -6, message: 'Insufficient funds' };
    const refused = await adapter.broadcast(request).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BroadcastRejected);
    node.sendError = undefined;
    node.brokenOnce = true;
    const unknown = await adapter.broadcast(request).catch((e: unknown) => e);
    expect(unknown).not.toBeInstanceOf(BroadcastRejected);
    expect(String(unknown)).toContain('HTTP 500');
    await expect(adapter.broadcast({ ...request, network: 'TRC20' })).rejects.toBeInstanceOf(BroadcastRejected);
  });
});

describe('the wallet over bitcoind', () => {
  it('credits a deposit the node reports after 2 confirmations and confirms a sendout through the node', async () => {
    const { url, node } = await fakeBitcoind();
    t = await createTestApp({
      config: { CHAIN: 'bitcoind', BITCOIND_RPC_URL: url },
    });
    const app = t;
    const b = browserSession(app);
    expect(
      (await b.post('/rest/v1/auth/login', { email: (await createUser(app)).email, password: 'Coinfair-demo-2026!' }))
        .status,
    ).toBe(200);
    const { address } = (await (await b.get('/rest/v1/wallet/deposit-address?currency=BTC')).json()).data;
    const deposit: Receive = {
      address,
      category: 'receive',
      amount: 0.02,
      vout: 0,
      txid: 'd'.repeat(64),
      confirmations: 0,
    };
    node.receives = [deposit];
    await app.services.chain.tick();
    const balances = async () => (await (await b.get('/rest/v1/balances')).json()).data[0];
    expect(await balances()).toEqual({ cryptoCurrencyCode: 'BTC', balance: '0.00000000', incoming: '0.02000000' });
    Object.assign(deposit, { confirmations: 2, blockheight: 799_999 });
    await app.services.chain.tick();
    expect(await balances()).toEqual({ cryptoCurrencyCode: 'BTC', balance: '0.02000000', incoming: '0.00000000' });

    const sent = await b.post('/rest/v1/wallet/send', {
      currency: 'BTC',
      address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      amount: '0.01',
      request_id: 'node-1',
    });
    expect(sent.status).toBe(201);
    const { id } = (await sent.json()).data;
    await app.services.chain.tick();
    const row = await app.services.chain.byPublicId(job, { publicId: id });
    expect(row).toMatchObject({ status: 'broadcast', simulated: 0 });
    node.wallet.set(row?.txid ?? '', 2);
    await app.services.chain.tick();
    expect(await app.services.chain.byPublicId(job, { publicId: id })).toMatchObject({
      status: 'confirmed',
      confirmations: 2,
    });
    expect(await balances()).toMatchObject({ balance: '0.00998000' });

    // USDT cannot leave through a bitcoin node.
    const usdt = await b.post('/rest/v1/wallet/send', {
      currency: 'USDT',
      address: 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
      amount: '5',
      network: 'TRC20',
      request_id: 'node-2',
    });
    expect(usdt.status).toBe(503);
  });
});
