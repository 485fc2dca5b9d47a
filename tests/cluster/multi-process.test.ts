import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SESSION_END_POLL_MS } from '../../server/realtime/session-ends.ts';
import { CRYPTO_DECIMALS, toMinorUnits } from '../../src/lib/shared/money.ts';
import { type AppProcess, type Cluster, missingPrerequisite, startCluster } from './cluster-harness.ts';
import { runLoad } from './load.ts';
import {
  balance,
  deposit,
  everyoneOnline,
  type Offer,
  openMarket,
  PASSWORD,
  type Person,
  signUp,
  startBody,
  startTrade,
} from './market.ts';
import { dataOf, type Frame, openSocket, type WebClient, webClient } from './web-client.ts';

// Issue 17's multi-process test: two processes of the built server on one PostgreSQL database and
// one Redis, behind nginx configured from deploy/nginx.conf (round-robin, no sticky sessions).
// Each case asserts what a person sees over HTTP and WebSocket; where a request must be proven to
// have crossed processes, it goes to a process's own port instead of the proxy.

const problem = await missingPrerequisite();
if (problem) console.warn(`The multi-process test is skipped: ${problem}.`);

/** Trade amounts at the offer's 100,000 USD per BTC: 50 USD is 50,000 satoshi, plus a 1% fee. */
const TRADE_SATOSHI = 50_000;
const ESCROW_SATOSHI = 50_500;

describe.skipIf(problem !== undefined)('two built processes on PostgreSQL and Redis behind nginx', () => {
  let cluster: Cluster;
  let vendor: Person;
  let buyer: Person;
  let offer: Offer;

  beforeAll(async () => {
    // Both at the same moment on the empty database: one migrates and seeds under the deployment's
    // lock (db/seed/index.ts), the other waits and finds everything in place.
    cluster = await startCluster({ together: true });
    ({ vendor, buyer, offer } = await openMarket(cluster, '1'));
  });
  afterAll(async () => cluster?.stop());

  it("echoes nginx's request id through the proxy, and makes its own without one", async () => {
    const proxied = await fetch(`${cluster.proxyUrl}/healthz`);
    expect(proxied.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
    const direct = await fetch(`${cluster.a.url}/healthz`);
    expect(direct.headers.get('x-request-id')).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
  });

  it('a session made on process A works on process B and through the proxy; signing out on B ends it on A, its socket on A included', async () => {
    const person = await signUp(cluster.a.url);
    const browser = webClient();
    await dataOf(await browser.post(cluster.a.url, '/rest/v1/auth/login', { email: person.email, password: PASSWORD }));
    for (const base of [cluster.a.url, cluster.b.url, cluster.proxyUrl, cluster.proxyUrl]) {
      const me = await dataOf<{ id: string; isLogged: boolean }>(await browser.get(base, '/rest/v1/users/me'));
      expect(me).toMatchObject({ id: person.publicId, isLogged: true });
    }
    // The signed-in page's socket is held by A; the sign-up session's (another one) by A too.
    const personal = `notifications:${person.publicId}`;
    const ending = await followOn(cluster.a.url, browser, [personal, 'rates']);
    const staying = await followOn(cluster.a.url, person.client, [personal]);
    try {
      // The cookie as it was: the client forgets it when signing out, a thief would not.
      const ended = browser.cookieHeader();
      await dataOf(await browser.post(cluster.b.url, '/rest/v1/auth/logout'));
      const signedOut = await fetch(`${cluster.a.url}/rest/v1/users/me`, { headers: { cookie: ended } });
      expect(signedOut.status).toBe(401);
      await expectCut(ending, [personal]);
      // The same end, handled by A's hub for every socket it holds, left the other session's alone.
      await flush(staying);
      expect(staying.frames.filter((f) => f.type === 'error')).toEqual([]);
      // The sign-up session is still live on both.
      expect((await person.client.get(cluster.b.url, '/rest/v1/users/me')).status).toBe(200);
    } finally {
      ending.close();
      staying.close();
    }
  });

  // The other way a socket hears its session ended (server/realtime/session-ends.ts): an operator's
  // command runs in a process of its own, with no bus, and each server finds the end in the log it
  // polls every SESSION_END_POLL_MS.
  it("`admin user:suspend` in a third process cuts the person's sockets on A and on B (the end log)", async () => {
    const person = await signUp(cluster.a.url);
    const personal = `notifications:${person.publicId}`;
    const onA = await followOn(cluster.a.url, person.client, [personal, 'rates']);
    const onB = await followOn(cluster.b.url, person.client, [personal, 'rates']);
    try {
      const suspended = await cluster.admin('user:suspend', person.email);
      expect(suspended.output).toMatch(/session\(s\) ended/);
      expect(suspended.status).toBe(0);
      await expectCut(onA, [personal]);
      await expectCut(onB, [personal]);
      expect((await person.client.get(cluster.proxyUrl, '/rest/v1/users/me')).status).toBe(401);
    } finally {
      onA.close();
      onB.close();
      await cluster.admin('user:reinstate', person.email);
    }
  });

  it("a trade started through A reaches the vendor's socket on B; a chat line from B reaches the buyer on A", async () => {
    const vendorSocket = await openSocket(cluster.b.url, vendor.client);
    const personal = `notifications:${vendor.publicId}`;
    try {
      expect(await vendorSocket.subscribe(personal)).toMatchObject({ type: 'subscribed' });
      const trade = await startTrade(cluster.a.url, buyer, offer);
      const event = await vendorSocket.waitFor(
        (f) => f.type === 'event' && f.channel === personal && JSON.stringify(f.event).includes(trade.hash),
        `notification of trade ${trade.hash} on B`,
      );
      expect(event.event?.type).toBe('notification');

      const buyerSocket = await openSocket(cluster.a.url, buyer.client);
      try {
        const room = `trade:${trade.hash}`;
        expect(await buyerSocket.subscribe(room)).toMatchObject({ type: 'subscribed' });
        const line = `paid? ${trade.hash}`;
        await dataOf(
          await vendor.client.post(cluster.b.url, `/rest/v1/trade/${trade.hash}/messages`, { text: line }),
          201,
        );
        await buyerSocket.waitFor(
          (f) => f.type === 'event' && f.channel === room && JSON.stringify(f.event).includes(line),
          `the chat line on A's socket`,
        );
      } finally {
        buyerSocket.close();
      }
    } finally {
      vendorSocket.close();
    }
  });

  it('release through A racing cancel through B, 10 trades: one wins each, the ledger holds one effect', async () => {
    const trades: string[] = [];
    for (let i = 0; i < 10; i++) {
      const { hash } = await startTrade(cluster.proxyUrl, buyer, offer);
      await dataOf(await buyer.client.post(cluster.proxyUrl, `/rest/v1/trade/${hash}/paid`));
      trades.push(hash);
    }
    const buyerBefore = await cluster.db.get<{ n: string }>(walletSql, [buyer.publicId]);
    let released = 0;
    for (const hash of trades) {
      const [release, cancel] = await Promise.all([
        vendor.client.post(cluster.a.url, `/rest/v1/trade/${hash}/release`, {}),
        buyer.client.post(cluster.b.url, `/rest/v1/trade/${hash}/cancel`),
      ]);
      const statuses = [release.status, cancel.status];
      expect(
        statuses.filter((s) => s === 200),
        `trade ${hash}: ${statuses}`,
      ).toHaveLength(1);
      const loser = release.status === 200 ? cancel : release;
      expect(loser.status).toBeGreaterThanOrEqual(400);
      expect(loser.status).toBeLessThan(500);
      expect((await loser.json()).errors?.[0]?.code, 'the loser hears why').toEqual(expect.any(String));
      if (release.status === 200) released += 1;

      const effects = await cluster.db.all<{ key: string }>(
        'SELECT idempotency_key AS key FROM ledger_transactions WHERE idempotency_key IN (?, ?)',
        [`trade:${hash}:release`, `trade:${hash}:return`],
      );
      expect(effects.map((e) => e.key)).toEqual([`trade:${hash}:${release.status === 200 ? 'release' : 'return'}`]);
      const status = await cluster.db.get<{ status: string }>('SELECT status FROM trades WHERE hash = ?', [hash]);
      expect(status?.status).toBe(release.status === 200 ? 'released' : 'cancelled_buyer');
    }
    const buyerAfter = await cluster.db.get<{ n: string }>(walletSql, [buyer.publicId]);
    expect(Number(buyerAfter?.n ?? 0) - Number(buyerBefore?.n ?? 0)).toBe(released * TRADE_SATOSHI);
    await expectLedgerVerifies(cluster);
  });

  // Trade starts racing on one offer through two processes: the serializable retries of
  // db/postgres.ts let each through, or, when a start lost every retry, answer 503 BUSY with
  // Retry-After (nothing written); never a 500.
  it('200 trade starts from 4 clients through nginx: each acknowledged or refused, never a 500', async () => {
    await everyoneOnline(cluster);
    const load = runLoad(200, 4, async () => {
      const res = await buyer.client.post(cluster.proxyUrl, '/rest/v1/trade', startBody(offer));
      await res.body?.cancel();
      return res.status === 201 ? { ok: true, value: res.status } : { ok: false, status: res.status };
    });
    const { refused } = await load.done;
    expect(refused.filter((status) => status === 'network' || (status >= 500 && status !== 503))).toEqual([]);
  });

  // Issue 17: "a quote issued by A is accepted by B" (quotes shared through Redis).
  it('a conversion quote issued by process A is accepted by process B', async () => {
    await deposit(cluster, buyer, '100', 'USDT');
    const convertWith = async (quoteFrom: string, convertOn: string) => {
      const rates = await dataOf<{ quoteId: string }>(
        await buyer.client.get(quoteFrom, '/rest/v1/crypto-fiat-rates?camelCase=1'),
      );
      return buyer.client.post(convertOn, '/rest/v1/hedging/convert', {
        from_crypto_currency_code: 'USDT',
        to_crypto_currency_code: 'BTC',
        amount: '10',
        quote_id: rates.quoteId,
        order_id: `cluster-${randomBytes(6).toString('hex')}`,
      });
    };
    // B's own quote converts on B: what fails below fails for the crossing alone.
    const control = await convertWith(cluster.b.url, cluster.b.url);
    expect(control.status, await control.text()).toBe(200);
    const crossing = await convertWith(cluster.a.url, cluster.b.url);
    expect(crossing.status, await crossing.text()).toBe(200);
  });

  // Trades and conversions through nginx while the jobs leader dies: what was acknowledged stays,
  // on the ledger's books as acknowledged, and the process comes back on the same database.
  it('kill -9 of the jobs leader under trade and conversion load through nginx, then a restart: every acknowledged trade and conversion is kept, the survivor leads', async () => {
    await deposit(cluster, buyer, '5000', 'USDT');
    await everyoneOnline(cluster);
    const leader = await leaderOf(cluster);
    const survivor = leader === cluster.a ? cluster.b : cluster.a;
    const buyerId = await userIdOf(cluster, buyer);
    const before = { USDT: await balance(cluster, buyer, 'USDT'), BTC: await balance(cluster, buyer, 'BTC') };
    const run = randomBytes(4).toString('hex');
    const orderPrefix = `kill-${run}-`;

    /** Every answer that was not an acknowledgement, with what it was for. */
    const refusals: Refusal[] = [];
    const refused = (refusal: Refusal) => {
      refusals.push(refusal);
      return { ok: false as const, status: refusal.status };
    };
    const startOne = async (): Promise<LoadAnswer> => {
      const res = await buyer.client.post(cluster.proxyUrl, '/rest/v1/trade', startBody(offer));
      if (res.status !== 201) return refused({ kind: 'trade', status: res.status, code: await codeOf(res) });
      return { ok: true, value: { kind: 'trade', hash: (await dataOf<{ hash: string }>(res, 201)).hash } };
    };
    // A fresh quote for each conversion, from whichever process nginx picks, converted on
    // whichever it picks next (quotes are shared through Redis).
    const convertOne = async (orderId: string): Promise<LoadAnswer> => {
      const rates = await buyer.client.get(cluster.proxyUrl, '/rest/v1/crypto-fiat-rates?camelCase=1');
      if (rates.status !== 200) return refused({ kind: 'quote', status: rates.status, code: await codeOf(rates) });
      const { quoteId } = await dataOf<{ quoteId: string | null }>(rates);
      if (!quoteId) return refused({ kind: 'quote', status: rates.status, code: 'NO_QUOTE' });
      const res = await buyer.client.post(cluster.proxyUrl, '/rest/v1/hedging/convert', convertBody(quoteId, orderId));
      if (res.status !== 200)
        return refused({ kind: 'conversion', orderId, status: res.status, code: await codeOf(res) });
      return { ok: true, value: { kind: 'conversion', ...(await dataOf<ConvertAnswer>(res)) } };
    };
    const load = runLoad<Acknowledged>(300, 4, async (index) => {
      const orderId = `${orderPrefix}${index}`;
      try {
        return await (index % 2 === 0 ? startOne() : convertOne(orderId));
      } catch {
        // No answer at all: the connection died under the request.
        return refused({ kind: index % 2 === 0 ? 'trade' : 'conversion', orderId, status: 'network' });
      }
    });
    await load.acknowledgedAtLeast(60);
    await leader.kill('SIGKILL');
    const { acknowledged } = await load.done;
    const trades = acknowledged.flatMap((a) => (a.kind === 'trade' ? [a.hash] : []));
    const conversions: ConvertAnswer[] = acknowledged.flatMap((a) => (a.kind === 'conversion' ? [a] : []));

    // Only what was in flight on the dead process failed (nginx does not resend a POST it had
    // sent): at most one request per client, answered 502 or not at all. A 503 is a write that
    // lost every serializable retry, answered BUSY with nothing written: not the kill's doing.
    const lostInFlight = refusals.filter((r) => r.status !== 503);
    expect(lostInFlight.length, `refused: ${JSON.stringify(refusals)}`).toBeLessThanOrEqual(4);
    expect(
      lostInFlight.every((r) => r.status === 502 || r.status === 'network'),
      `refused: ${JSON.stringify(refusals)}`,
    ).toBe(true);
    expect(trades.length).toBeGreaterThan(50);
    expect(conversions.length).toBeGreaterThan(50);

    // The killed process again, on its port behind nginx and on the same database: it serves the
    // buyer's session and converts at a quote the survivor issued.
    const restarted = await cluster.restart(leader);
    const me = await dataOf<{ id: string }>(await buyer.client.get(restarted.url, '/rest/v1/users/me'));
    expect(me.id).toBe(buyer.publicId);
    const rates = await dataOf<{ quoteId: string }>(
      await buyer.client.get(survivor.url, '/rest/v1/crypto-fiat-rates?camelCase=1'),
    );
    const afterRestart = await dataOf<ConvertAnswer>(
      await buyer.client.post(
        restarted.url,
        '/rest/v1/hedging/convert',
        convertBody(rates.quoteId, `${orderPrefix}restarted`),
      ),
    );
    conversions.push(afterRestart);

    // Every acknowledged trade holds its escrow, and no trade is without one.
    const kept = await cluster.db.all<{ hash: string; lock: string | null }>(
      `SELECT t.hash, l.idempotency_key AS lock FROM trades t
       LEFT JOIN ledger_transactions l ON l.idempotency_key = 'trade:' || t.hash || ':lock'`,
    );
    const locked = new Set(kept.filter((row) => row.lock !== null).map((row) => row.hash));
    expect(trades.filter((hash) => !locked.has(hash))).toEqual([]);
    expect(kept.filter((row) => row.lock === null)).toEqual([]);
    const escrowed = await cluster.db.get<{ n: string }>(
      `SELECT sum(balance) AS n FROM ledger_accounts WHERE kind = 'trade_escrow' AND currency = 'BTC'`,
    );
    expect(Number(escrowed?.n)).toBeGreaterThanOrEqual(trades.length * ESCROW_SATOSHI);

    // Every acknowledged conversion is in the ledger as its answer said: its transaction, and the
    // amounts it took from and gave to the buyer's wallets.
    const booked = await conversionsInLedger(cluster, buyerId, orderPrefix);
    const byOrder = new Map(booked.map((row) => [row.orderId, row]));
    for (const answer of conversions) {
      expect(byOrder.get(answer.orderId), `conversion ${answer.orderId}`).toEqual({
        orderId: answer.orderId,
        transactionId: answer.transactionId,
        USDT: -minorUnits(answer.amountFrom, 'USDT'),
        BTC: minorUnits(answer.amountTo, 'BTC'),
      });
    }
    // And nothing else but what may have committed just before its answer was lost.
    const answered = new Set(conversions.map((c) => c.orderId));
    const unanswered = new Set(lostInFlight.flatMap((r) => (r.kind === 'conversion' && r.orderId ? [r.orderId] : [])));
    expect(booked.filter((row) => !answered.has(row.orderId) && !unanswered.has(row.orderId))).toEqual([]);
    // The buyer's wallets moved by exactly what these conversions booked.
    const sum = (currency: 'USDT' | 'BTC') => booked.reduce((total, row) => total + row[currency], 0);
    expect(await balance(cluster, buyer, 'USDT')).toBe(before.USDT + sum('USDT'));
    expect(await balance(cluster, buyer, 'BTC')).toBe(before.BTC + sum('BTC'));

    await expectLedgerVerifies(cluster);
    await waitForOutput(survivor, /Jobs: this process leads them\./);
    expect(restarted.output()).not.toMatch(/Jobs: this process leads them\./);
  });
});

/** What POST /rest/v1/hedging/convert answers (server/services/hedging/answer.ts). */
interface ConvertAnswer {
  orderId: string;
  transactionId: string;
  amountFrom: string;
  amountTo: string;
}
type Acknowledged = { kind: 'trade'; hash: string } | ({ kind: 'conversion' } & ConvertAnswer);
type LoadAnswer = { ok: true; value: Acknowledged } | { ok: false; status: number | 'network' };
interface Refusal {
  kind: 'trade' | 'quote' | 'conversion';
  status: number | 'network';
  code?: string;
  orderId?: string;
}

/** 10 USDT into bitcoin at `quoteId`, as the wallet's conversion form posts it. */
const convertBody = (quoteId: string, orderId: string) => ({
  from_crypto_currency_code: 'USDT',
  to_crypto_currency_code: 'BTC',
  amount: '10',
  quote_id: quoteId,
  order_id: orderId,
});

/** An answer's decimal amount in the currency's minor units. */
function minorUnits(text: string, currency: 'USDT' | 'BTC'): number {
  const minor = toMinorUnits(text, CRYPTO_DECIMALS[currency]);
  if (minor === undefined) throw new Error(`not an amount of ${currency}: ${text}`);
  return minor;
}

/** The error code of a refusal, when its body says one (nginx's 502 page does not). */
async function codeOf(res: Response): Promise<string | undefined> {
  const text = await res.text();
  try {
    return (JSON.parse(text) as { errors?: { code?: string }[] }).errors?.[0]?.code;
  } catch {
    return undefined;
  }
}

async function userIdOf(cluster: Cluster, person: Person): Promise<number> {
  const row = await cluster.db.get<{ id: number | string }>('SELECT id FROM users WHERE public_id = ?', [
    person.publicId,
  ]);
  if (!row) throw new Error(`no user ${person.publicId}`);
  return Number(row.id);
}

/** The conversions of `orderPrefix` in the ledger: each one's transaction and what it moved in the person's wallets. */
async function conversionsInLedger(cluster: Cluster, userId: number, orderPrefix: string) {
  const keyPrefix = `conversion:${userId}:`;
  const rows = await cluster.db.all<{ key: string; id: string; currency: 'USDT' | 'BTC'; amount: string | number }>(
    `SELECT t.idempotency_key AS key, t.public_id AS id, a.currency, p.amount
     FROM ledger_transactions t
     JOIN ledger_postings p ON p.transaction_id = t.id
     JOIN ledger_accounts a ON a.id = p.account_id
     WHERE t.kind = 'conversion' AND t.idempotency_key LIKE ? AND a.kind = 'user_wallet' AND a.owner_id = ?`,
    [`${keyPrefix}${orderPrefix}%`, userId],
  );
  const conversions = new Map<string, { orderId: string; transactionId: string; USDT: number; BTC: number }>();
  for (const row of rows) {
    const orderId = row.key.slice(keyPrefix.length);
    const conversion = conversions.get(orderId) ?? { orderId, transactionId: row.id, USDT: 0, BTC: 0 };
    conversion[row.currency] += Number(row.amount);
    conversions.set(orderId, conversion);
  }
  return [...conversions.values()];
}

type Socket = Awaited<ReturnType<typeof openSocket>>;

/** A socket on `base` with the client's cookie, subscribed to `channels` (each one granted). */
async function followOn(base: string, client: WebClient, channels: string[]): Promise<Socket> {
  const socket = await openSocket(base, client);
  for (const channel of channels) {
    expect(await socket.subscribe(channel)).toEqual({ type: 'subscribed', channel });
  }
  return socket;
}

/** Sends `message` and waits for the first answer after it (not an event) that matches `answer`. */
function ask(socket: Socket, message: unknown, answer: (frame: Frame) => boolean, what: string): Promise<Frame> {
  const from = socket.frames.length;
  socket.ws.send(JSON.stringify(message));
  return socket.waitFor(
    (frame) => socket.frames.indexOf(frame) >= from && frame.type !== 'event' && answer(frame),
    what,
  );
}

/** Returns once the hub answered a ping: every frame it sent this socket before is in `frames`. */
const flush = (socket: Socket) => ask(socket, { type: 'ping' }, (f) => f.type === 'pong', 'pong');

/**
 * The session behind `socket` ended: the hub says which channels went (ACCESS_DENIED), refuses
 * them from then on, and keeps the socket open for the public ones (decision 087: not closed, so
 * the page can re-authorise or keep showing prices). The bus brings the end at once, the end log
 * within SESSION_END_POLL_MS; the wait is bounded far above both, not a measure of speed.
 */
async function expectCut(socket: Socket, lost: string[]): Promise<void> {
  const denial = await socket.waitFor(
    (f) => f.type === 'error' && f.code === 'ACCESS_DENIED',
    'ACCESS_DENIED',
    15 * SESSION_END_POLL_MS,
  );
  expect(denial).toEqual({ type: 'error', code: 'ACCESS_DENIED', channels: lost });
  for (const channel of lost) {
    const again = await ask(socket, { type: 'subscribe', channel }, (f) => f.channel === channel, channel);
    expect(again).toMatchObject({ type: 'error', code: 'CHANNEL_FORBIDDEN', channel });
  }
  expect(await ask(socket, { type: 'subscribe', channel: 'quotes' }, (f) => f.channel === 'quotes', 'quotes')).toEqual({
    type: 'subscribed',
    channel: 'quotes',
  });
  expect(socket.ws.readyState).toBe(WebSocket.OPEN);
}

const walletSql = `SELECT a.balance AS n FROM ledger_accounts a JOIN users u ON u.id = a.owner_id
  WHERE u.public_id = ? AND a.kind = 'user_wallet' AND a.currency = 'BTC'`;

/** `npm run admin -- ledger:verify` on the cluster's database: exit status 0 and its OK line. */
async function expectLedgerVerifies(cluster: Cluster): Promise<void> {
  const verified = await cluster.admin('ledger:verify');
  expect(verified.output).toMatch(/Ledger OK/);
  expect(verified.status).toBe(0);
}

/** Waits (bounded) until `process` has printed `line`. */
async function waitForOutput(process: AppProcess, line: RegExp, withinMs = 30_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!line.test(process.output())) {
    if (Date.now() > deadline) throw new Error(`${process.name} never printed ${line}:\n${process.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The process running the jobs: the one that said it took the lead. */
async function leaderOf(cluster: Cluster): Promise<AppProcess> {
  const leads = /Jobs: this process leads them\./;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const leaders = [cluster.a, cluster.b].filter((p) => leads.test(p.output()));
    if (leaders.length === 1 && leaders[0]) return leaders[0];
    if (leaders.length > 1) throw new Error('both processes say they lead the jobs');
    if (Date.now() > deadline) throw new Error('no process leads the jobs');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
