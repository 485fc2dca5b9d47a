// Trades benchmark (issue 6), run by `npm run bench` or alone (`node tests/bench/trades.ts`):
// 1. Full lifecycles (start → paid → release) over HTTP with sessions, many buyers and sellers in
//    parallel, against the same lifecycles through the trades service directly (no HTTP) on a copy
//    of the same database in the same run; the ledger's invariants are checked afterwards.
// 2. Chat: 1000 sockets connected (both parties of 500 trades), messages posted over HTTP, time
//    until the counterpart's socket has them.
// Everything on 127.0.0.1, bounded in time and count; nothing here fails a test.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';

const root = new URL('../..', import.meta.url).pathname;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PAIRS = 20;
const LOOPS = 32;
const CHAT_TRADES = 500;
const CHAT_MESSAGES = 2000;
const CSRF = 'c'.repeat(43);
const PASSWORD = 'Coinfair-demo-2026!';

if (!existsSync(join(root, 'build/app/main.js'))) {
  execFileSync(process.execPath, [join(root, 'scripts/build.ts')], { cwd: root, stdio: 'inherit' });
}
const work = mkdtempSync(join(tmpdir(), 'coinfair-bench-trades-'));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

function startServer(database: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', `import('./build/app/main.js').then((m) => m.main('build'))`], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      DATABASE_URL: database,
      AUTH_CHALLENGE: 'off',
      DEMO_DATA: 'on',
      GEOIP: 'off',
      UPLOADS_DIR: join(work, 'uploads'),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve({ url: match[1], child });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

// ——— a database with PAIRS buyers and PAIRS vendors, each vendor with coins and one offer ———
const db = join(work, 'trades.db');
{
  const first = await startServer(db);
  first.child.kill('SIGTERM');
  await new Promise((r) => first.child.once('exit', r));
  const { openDatabase, closeDatabase } = await import('../../db/client.ts');
  const { newId, newOfferHash } = await import('../../db/ids.ts');
  const scratch = openDatabase(db);
  const sql = scratch.$client;
  const template = sql.prepare(`SELECT * FROM users WHERE email = 'buyer@example.com'`).get() as Record<
    string,
    unknown
  >;
  const offerTemplate = sql.prepare(`SELECT * FROM offers WHERE status = 'active' LIMIT 1`).get() as Record<
    string,
    unknown
  >;
  const usd = sql.prepare(`SELECT id FROM fiat_currencies WHERE code = 'USD'`).pluck().get();
  const bank = sql.prepare(`SELECT id FROM payment_methods WHERE slug = 'bank-transfer'`).pluck().get();
  const insertUser = (name: string, vendor: boolean) => {
    const row: Record<string, unknown> = {
      ...template,
      public_id: newId('usr'),
      username: name,
      email: `${name}@bench.example`,
    };
    row.is_vendor = vendor ? 1 : 0;
    row.referral_code = null;
    row.last_seen_at = Date.now() + 86_400_000;
    delete row.id;
    const columns = Object.keys(row);
    const id = Number(
      sql
        .prepare(`INSERT INTO users (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`)
        .run(row).lastInsertRowid,
    );
    // Every verification step, so the trading limit (level 4) never stops the run.
    sql
      .prepare(`INSERT INTO phones (user_id, number, verified_at, codes_sent_at) VALUES (?, ?, ?, '[]')`)
      .run(id, `+49151${String(id).padStart(8, '0')}`, Date.now());
    sql
      .prepare('UPDATE users SET id_verified_at = ?, address_verified_at = ? WHERE id = ?')
      .run(Date.now(), Date.now(), id);
    return id;
  };
  const ledgerModule = await import('../../server/services/ledger/ledger.ts');
  const { createLedgerRepository } = await import('../../server/services/ledger/repository.ts');
  const { createInProcessBus } = await import('../../server/realtime/bus.ts');
  const ledger = ledgerModule.createLedgerService({
    repo: createLedgerRepository(scratch),
    bus: createInProcessBus(),
    now: Date.now,
  });
  for (let i = 0; i < PAIRS; i++) {
    insertUser(`benchbuyer${i}`, false);
    const vendor = insertUser(`benchvendor${i}`, true);
    await ledger.post(
      { actor: { type: 'system', name: 'bench' } },
      {
        kind: 'deposit',
        idempotencyKey: `bench:fund:${vendor}`,
        legs: [
          { account: ledgerModule.systemAccount('chain_in', 'BTC'), amount: -10_000_000_000 },
          { account: ledgerModule.walletOf(vendor, 'BTC'), amount: 10_000_000_000 },
        ],
      },
    );
    const offer = {
      ...offerTemplate,
      hash: newOfferHash(),
      owner_id: vendor,
      type: 'sell',
      crypto_currency_id: 1,
      fiat_currency_id: usd,
      payment_method_id: bank,
      price_type: 'fixed',
      fixed_price_minor: 10_000_000,
      fiat_min_minor: 1_000,
      fiat_max_minor: 1_000_000,
      predefined_amounts_minor: '[]',
      new_buyer_max_fiat_minor: null,
      require_min_past_trades: 0,
      show_only_trusted_user: 0,
      require_verified_id: 0,
      allowed_countries: '[]',
      blocked_countries: '[]',
      trade_requirements: '[]',
      is_gold: 0,
      location_id: null,
      status: 'active',
      // What the vendor must hold to be listed, as the repository sets it (funding-needs.ts).
      need_usd: 0,
      need_crypto: 10_100,
    };
    delete (offer as { id?: unknown }).id;
    const columns = Object.keys(offer);
    sql
      .prepare(`INSERT INTO offers (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`)
      .run(offer);
  }
  sql.pragma('wal_checkpoint(TRUNCATE)');
  closeDatabase(scratch);
}
const directDb = join(work, 'direct.db');
copyFileSync(db, directDb);

const server = await startServer(db);
const { url } = server;

interface Session {
  cookie: string;
  csrf: string;
}
async function login(email: string): Promise<Session> {
  const res = await fetch(`${url}/rest/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${CSRF}`, 'x-csrf-token': CSRF },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  const cookies = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .filter((c) => c.startsWith('session=') || c.startsWith('XSRF-TOKEN='));
  const csrf = cookies.find((c) => c.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '';
  return { cookie: cookies.join('; '), csrf };
}
async function call<T>(session: Session, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      cookie: session.cookie,
      'x-csrf-token': session.csrf,
      origin: url,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as { data: T; errors?: unknown };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json.errors)}`);
  return json.data;
}

const pairs = await Promise.all(
  Array.from({ length: PAIRS }, async (_, i) => ({
    buyer: await login(`benchbuyer${i}@bench.example`),
    vendor: await login(`benchvendor${i}@bench.example`),
    offer: (
      await call<{ hash: string; originalData: string }[]>(
        await login(`benchvendor${i}@bench.example`),
        'GET',
        `/rest/v1/users/benchvendor${i}/offers`,
      )
    )[0] as { hash: string; originalData: string },
  })),
);
const startBody = (offer: { hash: string; originalData: string }) => ({
  offer_hash: offer.hash,
  amount_fiat: '50',
  amount_btc: '0.00050000',
  gold_terms: 0,
  original_data: offer.originalData,
});

// ——— 1. lifecycles over HTTP ———
let lifecycles = 0;
let failures = 0;
const latencies: number[] = [];
const until = performance.now() + SECONDS * 1000;
await Promise.all(
  Array.from({ length: LOOPS }, async (_, loop) => {
    const pair = pairs[loop % PAIRS] as (typeof pairs)[number];
    while (performance.now() < until) {
      const began = performance.now();
      try {
        const trade = await call<{ hash: string }>(pair.buyer, 'POST', '/rest/v1/trade', startBody(pair.offer));
        await call(pair.buyer, 'POST', `/rest/v1/trade/${trade.hash}/paid`);
        await call(pair.vendor, 'POST', `/rest/v1/trade/${trade.hash}/release`, {});
        lifecycles++;
        latencies.push(performance.now() - began);
      } catch (error) {
        failures++;
        if (failures <= 3) console.error(String(error));
      }
    }
  }),
);
const httpRate = lifecycles / SECONDS;

// ——— the same lifecycles through the service, no HTTP, same kind of database ———
const directOut = execFileSync(
  process.execPath,
  [join(root, 'tests/bench/bare-trades.ts'), directDb, String(PAIRS), String(SECONDS)],
  { cwd: root, encoding: 'utf8' },
);
const [, directCount = '0'] = /lifecycles (\d+)/.exec(directOut) ?? [];
const directRate = Number(directCount) / SECONDS;
latencies.sort((a, b) => a - b);
const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0;

// ——— 2. chat with 1000 sockets ———
const chatTrades: { hash: string; pair: (typeof pairs)[number] }[] = [];
for (let i = 0; i < CHAT_TRADES; i++) {
  const pair = pairs[i % PAIRS] as (typeof pairs)[number];
  const trade = await call<{ hash: string }>(pair.buyer, 'POST', '/rest/v1/trade', startBody(pair.offer));
  chatTrades.push({ hash: trade.hash, pair });
}
const wsUrl = `${url.replace('http', 'ws')}/ws`;
const sentAt = new Map<string, number>();
const delays: number[] = [];
const open = (session: Session, channel: string, onMessage?: (text: string) => void) =>
  new Promise<WebSocket>((resolve, reject) => {
    const socket = new WebSocket(wsUrl, { headers: { cookie: session.cookie, origin: url } });
    socket.once('error', reject);
    socket.once('open', () => socket.send(JSON.stringify({ type: 'subscribe', channel })));
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as {
        type: string;
        event?: { type: string; payload: { text?: string } };
      };
      if (frame.type === 'subscribed') resolve(socket);
      else if (frame.type === 'error') reject(new Error(JSON.stringify(frame)));
      else if (frame.event?.type === 'message' && frame.event.payload.text) onMessage?.(frame.event.payload.text);
    });
  });
const sockets: WebSocket[] = [];
for (const { hash, pair } of chatTrades) {
  const receive = (text: string) => {
    const at = sentAt.get(text);
    if (at !== undefined) {
      delays.push(performance.now() - at);
      sentAt.delete(text);
    }
  };
  sockets.push(await open(pair.buyer, `trade:${hash}`), await open(pair.vendor, `trade:${hash}`, receive));
}
let next = 0;
await Promise.all(
  Array.from({ length: 16 }, async () => {
    while (next < CHAT_MESSAGES) {
      const n = next++;
      const { hash, pair } = chatTrades[n % CHAT_TRADES] as (typeof chatTrades)[number];
      const text = `bench message ${n}`;
      sentAt.set(text, performance.now());
      await call(pair.buyer, 'POST', `/rest/v1/trade/${hash}/messages`, { text });
    }
  }),
);
await new Promise((r) => setTimeout(r, 500));
for (const socket of sockets) socket.terminate();
delays.sort((a, b) => a - b);
const chatP50 = delays[Math.floor(delays.length * 0.5)] ?? 0;
const chatP99 = delays[Math.floor(delays.length * 0.99)] ?? 0;

server.child.kill('SIGTERM');
await new Promise((r) => server.child.once('exit', r));
let violations = -1;
{
  const { openDatabase, closeDatabase } = await import('../../db/client.ts');
  const { verifyLedger } = await import('../../server/services/ledger/invariants.ts');
  const check = openDatabase(db);
  violations = (await verifyLedger(check)).length;
  closeDatabase(check);
}

console.log(
  `\nTrades (${PAIRS} buyers and ${PAIRS} vendors, ${LOOPS} loops, ${SECONDS} s): ${Math.round(httpRate)} lifecycles/s over HTTP ` +
    `(start → paid → release, 3 requests each; p99 ${Math.round(p99)} ms a lifecycle, ${failures} failed), ` +
    `${Math.round(directRate)} /s through the service directly: ratio ${(httpRate / directRate).toFixed(2)} ` +
    `(goal ≥ 300 /s); ledger invariants: ${violations === 0 ? 'hold' : `${violations} VIOLATIONS`}`,
);
console.log(
  `Trade chat (${sockets.length} sockets connected, ${delays.length}/${CHAT_MESSAGES} messages received): ` +
    `POST → counterpart socket p50 ${chatP50.toFixed(1)} ms, p99 ${chatP99.toFixed(1)} ms (goal p99 ≤ 50 ms)`,
);
process.exit(0);
