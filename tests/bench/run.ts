// `npm run bench`: each target against a bare node:http baseline in the same run (these machines
// are noisy; only ratios mean something), JS shipped per static page, and cold start.
// Everything runs on 127.0.0.1, bounded in time; nothing here passes or fails a test.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';

const root = new URL('../..', import.meta.url).pathname;
const buildDir = join(root, 'build');
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 32;

if (!existsSync(join(buildDir, 'app/main.js'))) {
  console.log('bench: no build, building first');
  execFileSync(process.execPath, [join(root, 'scripts/build.ts')], { cwd: root, stdio: 'inherit' });
}

const work = mkdtempSync(join(tmpdir(), 'coinfair-bench-'));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

/** Starts a child and resolves with its URL once `pattern` shows up on stdout. */
function startChild(
  args: string[],
  pattern: RegExp,
  env: NodeJS.ProcessEnv = {},
): Promise<{ url: string; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`child did not start: ${args.join(' ')}`)), 60_000);
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const match = pattern.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1]?.startsWith('http') ? match[1] : `http://127.0.0.1:${match[1]}`,
          ms: performance.now() - started,
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`child exited with ${code}: ${args.join(' ')}`)));
  });
}

async function load(url: string, options: Partial<autocannon.Options> = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS, ...options });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

function row(
  name: string,
  ours: Awaited<ReturnType<typeof load>>,
  bare: Awaited<ReturnType<typeof load>>,
  target: number,
) {
  const ratio = ours.rps / bare.rps;
  return {
    target: name,
    'req/s': Math.round(ours.rps),
    'p50 ms': ours.p50,
    'p99 ms': ours.p99,
    'bare req/s': Math.round(bare.rps),
    'bare p99 ms': bare.p99,
    ratio: ratio.toFixed(2),
    goal: `≥ ${target}`,
    met: ratio >= target ? 'yes' : 'NO',
  };
}

// A database that is already migrated and seeded: cold start measures start-up, not the one-off seed.
const db = join(work, 'bench.db');
{
  const seeded = await startChild(
    ['-e', `import('./build/app/main.js').then((m) => m.main('build'))`],
    /listening on (http:\/\/\S+)/,
    {
      PORT: '0',
      DATABASE_URL: db,
    },
  );
  children.pop()?.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  void seeded;
}

const coldStarts: number[] = [];
for (let i = 0; i < 3; i++) {
  const copy = join(work, `cold-${i}.db`);
  copyFileSync(db, copy);
  const started = performance.now();
  const { url } = await startChild([join(root, 'scripts/start.ts')], /listening on (http:\/\/\S+)/, {
    PORT: '0',
    DATABASE_URL: copy,
  });
  await fetch(`${url}/`);
  coldStarts.push(performance.now() - started);
  children.pop()?.kill('SIGTERM');
}

const ours = await startChild(
  ['-e', `import('./build/app/main.js').then((m) => m.main('build'))`],
  /listening on (http:\/\/\S+)/,
  // Automation mode: the proof-of-work challenge would make every sign-in a different request.
  { PORT: '0', DATABASE_URL: db, AUTH_CHALLENGE: 'off' },
);
const bareStatic = await startChild(
  [join(root, 'tests/bench/bare-server.ts'), 'static', join(buildDir, 'client/index.html')],
  /ready (\d+)/,
);
const bareApi = await startChild([join(root, 'tests/bench/bare-server.ts'), 'api', db], /ready (\d+)/);

// A signed-in browser: sign in once as the demo buyer and keep its cookies.
const csrf = 'b'.repeat(43);
const signIn = () =>
  fetch(`${ours.url}/rest/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${csrf}`, 'x-csrf-token': csrf },
    body: JSON.stringify({ email: 'buyer@example.com', password: 'Coinfair-demo-2026!' }),
  });
const signedIn = await signIn();
if (!signedIn.ok) throw new Error(`bench sign-in failed: ${signedIn.status} ${await signedIn.text()}`);
// Both cookies a browser holds after signing in: the session and the CSRF token bound to it.
const sessionCookie = signedIn.headers
  .getSetCookie()
  .map((c) => c.split(';')[0] ?? '')
  .filter((c) => c.startsWith('session=') || c.startsWith('XSRF-TOKEN='))
  .join('; ');
const bareSession = await startChild([join(root, 'tests/bench/bare-server.ts'), 'session', db], /ready (\d+)/);
// The baseline must give our answer byte for byte, or the ratio compares different work.
const [oursMe, bareMe] = await Promise.all(
  [`${ours.url}/rest/v1/users/me`, bareSession.url].map((url) =>
    fetch(url, { headers: { cookie: sessionCookie } }).then((res) => res.text()),
  ),
);
if (oursMe !== bareMe) console.warn('bench: users/me and its bare baseline answer differently; update bare-server.ts');

// Warm both sides so neither pays first-request costs or JIT compilation inside the measurement:
// a second of load on every endpoint measured below, the signed-in one included.
const withSession = { headers: { cookie: sessionCookie } };
const warm: [string, Partial<autocannon.Options>?][] = [
  [`${ours.url}/`],
  [bareStatic.url],
  [`${ours.url}/rest/v1/currencies`],
  [bareApi.url],
  [`${ours.url}/rest/v1/users/me`, withSession],
  [bareSession.url, withSession],
];
for (const [url, options] of warm) await autocannon({ url, connections: CONNECTIONS, duration: 1, ...options });

const results = [];
results.push(row('static page GET /', await load(`${ours.url}/`), await load(bareStatic.url), 0.8));
results.push(
  row('GET /rest/v1/currencies', await load(`${ours.url}/rest/v1/currencies`), await load(bareApi.url), 0.8),
);
results.push(
  row(
    'GET /rest/v1/users/me (session)',
    await load(`${ours.url}/rest/v1/users/me`, withSession),
    await load(bareSession.url, withSession),
    0.7,
  ),
);
// Sign-in is slow on purpose (argon2id, 19 MiB, 2 passes): reported, no baseline to beat.
const login = await load(`${ours.url}/rest/v1/auth/login`, {
  method: 'POST',
  connections: 4,
  headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${csrf}`, 'x-csrf-token': csrf },
  body: JSON.stringify({ email: 'buyer@example.com', password: 'Coinfair-demo-2026!' }),
});
console.log(
  `\nThroughput: ${CONNECTIONS} connections, ${DURATION_SECONDS} s per target, ratio = ours / bare (same run)`,
);
console.table(results);

// Offers at scale (issue 4): a scratch copy with 100,000 more offers, ours against the search's
// own prepared statements behind node:http, 50 connections.
const offersDb = join(work, 'offers.db');
copyFileSync(db, offersDb);
{
  const { openDatabase, closeDatabase } = await import('../../db/client.ts');
  const { seedMoreOffers } = await import('../../db/seed/demo.ts');
  const scratch = openDatabase(offersDb);
  await seedMoreOffers(scratch, 100_000);
  scratch.$client.pragma('wal_checkpoint(TRUNCATE)');
  closeDatabase(scratch);
}
const oursOffers = await startChild(
  ['-e', `import('./build/app/main.js').then((m) => m.main('build'))`],
  /listening on (http:\/\/\S+)/,
  { PORT: '0', DATABASE_URL: offersDb, AUTH_CHALLENGE: 'off' },
);
const bareOffers = await startChild([join(root, 'tests/bench/bare-server.ts'), 'offers', offersDb], /ready (\d+)/);
const realistic = `${oursOffers.url}/rest/v1/offers?type=buy&currency=USD&fiat-min=100`;
const listingPage = `${oursOffers.url}/buy-bitcoin/any/usd?fiat-min=100`;
const anyCurrency = `${oursOffers.url}/rest/v1/offers?type=buy`;
const at50 = { connections: 50 };
for (const url of [realistic, listingPage, anyCurrency, bareOffers.url])
  await autocannon({ url, duration: 1, ...at50 });
const bareSearch = await load(bareOffers.url, at50);
const offersApi = await load(realistic, at50);
const offersPage = await load(listingPage, at50);
const offersAny = await load(anyCurrency, at50);
const offerRows = [
  { ...row('GET /rest/v1/offers (USD, amount)', offersApi, bareSearch, 0.8), 'p99 goal': '≤ 20 ms' },
  { ...row('listing page /buy-bitcoin/any/usd', offersPage, bareSearch, 0.5), 'p99 goal': '' },
  { ...row('GET /rest/v1/offers (any currency)', offersAny, bareSearch, 0), goal: 'reported', met: '' },
];
console.log('\nOffers: 100,640 offers, 50 connections, bare = the same prepared search behind node:http');
console.table(offerRows);
console.log(
  `POST /rest/v1/auth/login (argon2id, 4 connections): ${Math.round(login.rps)} req/s, p50 ${login.p50} ms, p99 ${login.p99} ms`,
);

// A browser loads nothing inside <template> (the bell's live part waits there for a signed-in
// person, Header.astro): what a first visit loads leaves it out.
const withoutTemplates = (html: string) => html.replace(/<template[\s\S]*?<\/template>/g, '');

/**
 * Every script a first visit to `html` loads, gzip-compressed as served: its inline scripts, the
 * scripts, islands and preloads it names, and every module those import, followed through the
 * built files (a browser fetches the static imports at once, the lazy chunks when asked).
 */
function pageJs(page: string): { bytes: number; files: string[] } {
  const html = withoutTemplates(page);
  const queue = [
    ...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g),
    ...html.matchAll(/(?:component-url|renderer-url)="([^"]+)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ].map((m) => m[1] ?? '');
  const seen = new Set<string>();
  let bytes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].reduce(
    (sum, m) => sum + gzipSync(m[1] ?? '').length,
    0,
  );
  while (queue.length > 0) {
    const src = queue.pop() ?? '';
    if (!src.startsWith('/') || seen.has(src)) continue;
    seen.add(src);
    const file = join(client, src);
    if (!existsSync(file)) continue;
    const code = readFileSync(file, 'utf8');
    bytes += gzipSync(code).length;
    // Rolldown writes `import(\`./chunk.js\`)` with backticks for lazy chunks (the calculator's chart).
    for (const m of code.matchAll(/(?:from|import)\s*\(?\s*["'`](\.\/[^"'`]+\.js)["'`]/g)) {
      queue.push(new URL(m[1] ?? '', `http://x${src}`).pathname);
    }
  }
  return { bytes, files: [...seen] };
}

// JS shipped per static page.
const client = join(buildDir, 'client');
const pages = readdirSync(client, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('index.html') && !/^[a-z]{2}\//.test(f));
const sizes = pages.map((page) => {
  const html = readFileSync(join(client, page), 'utf8');
  const { bytes, files } = pageJs(html);
  const framework = files.some((f) => /react|client\.[\w-]+\.js/.test(f)) || html.includes('<astro-island');
  return {
    page: `/${page.replace(/index\.html$/, '')}`,
    'scripts (gz KB)': (bytes / 1024).toFixed(2),
    'framework JS': framework ? 'YES' : '0 KB',
    goal: '≤ 5 KB, 0 KB framework',
    met: bytes <= 5 * 1024 && !framework ? 'yes' : 'NO',
  };
});
console.log('\nJavaScript per static page (English; other languages ship the same scripts)');
console.table(sizes);

// Conversions (issue 5): USDT → BTC over HTTP with the signed-in buyer, each request with a new
// order id at the current quote, against the ledger service posting the same transaction directly.
// The buyer's USDT comes from a deposit posted before either side starts; the ledger's
// invariants are checked afterwards.
const conversionsDb = join(work, 'conversions.db');
copyFileSync(db, conversionsDb);
{
  const { openDatabase, closeDatabase } = await import('../../db/client.ts');
  const { createInProcessBus } = await import('../../server/realtime/bus.ts');
  const ledgerModule = await import('../../server/services/ledger/ledger.ts');
  const { createLedgerRepository } = await import('../../server/services/ledger/repository.ts');
  const scratch = openDatabase(conversionsDb);
  const ledger = ledgerModule.createLedgerService({
    repo: createLedgerRepository(scratch),
    bus: createInProcessBus(),
    now: Date.now,
  });
  const buyer = (
    scratch.$client.prepare(`SELECT id FROM users WHERE email = 'buyer@example.com'`).get() as { id: number }
  ).id;
  ledger.post(
    { actor: { type: 'system', name: 'bench' } },
    {
      kind: 'deposit',
      idempotencyKey: 'bench:fund',
      legs: [
        { account: ledgerModule.systemAccount('chain_in', 'USDT'), amount: -1_000_000_000_000_000 },
        { account: ledgerModule.walletOf(buyer, 'USDT'), amount: 1_000_000_000_000_000 },
      ],
    },
  );
  scratch.$client.pragma('wal_checkpoint(TRUNCATE)');
  closeDatabase(scratch);
}
const oursConversions = await startChild(
  ['-e', `import('./build/app/main.js').then((m) => m.main('build'))`],
  /listening on (http:\/\/\S+)/,
  { PORT: '0', DATABASE_URL: conversionsDb, AUTH_CHALLENGE: 'off' },
);
const converterLogin = await fetch(`${oursConversions.url}/rest/v1/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${csrf}`, 'x-csrf-token': csrf },
  body: JSON.stringify({ email: 'buyer@example.com', password: 'Coinfair-demo-2026!' }),
});
const converterCookies = converterLogin.headers
  .getSetCookie()
  .map((c) => c.split(';')[0] ?? '')
  .filter((c) => c.startsWith('session=') || c.startsWith('XSRF-TOKEN='));
const converterCsrf = converterCookies.find((c) => c.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '';
const currentQuote = async () =>
  (
    (await (await fetch(`${oursConversions.url}/rest/v1/crypto-fiat-rates?camelCase=1`)).json()) as {
      data: { quoteId: string };
    }
  ).data.quoteId;
let quoteId = await currentQuote();
const refresh = setInterval(async () => {
  quoteId = await currentQuote();
}, 5_000);
let order = 0;
const convertOnce = (): autocannon.Request => ({
  method: 'POST',
  path: '/rest/v1/hedging/convert',
  headers: {
    'content-type': 'application/json',
    cookie: converterCookies.join('; '),
    'x-csrf-token': converterCsrf,
    origin: oursConversions.url,
  },
  setupRequest: (request) => ({
    ...request,
    body: JSON.stringify({
      from_crypto_currency_code: 'USDT',
      to_crypto_currency_code: 'BTC',
      amount: '10',
      quote_id: quoteId,
      order_id: `bench-${process.pid}-${order++}`,
    }),
  }),
});
const conversions = await autocannon({
  url: oursConversions.url,
  connections: 16,
  duration: DURATION_SECONDS,
  requests: [convertOnce()],
});
clearInterval(refresh);
const bareOut = execFileSync(
  process.execPath,
  [join(root, 'tests/bench/bare-conversions.ts'), conversionsDb, 'buyer@example.com', String(DURATION_SECONDS)],
  { cwd: root, encoding: 'utf8' },
);
const [, bareCount = '0'] = /conversions (\d+)/.exec(bareOut) ?? [];
const bareRate = Number(bareCount) / DURATION_SECONDS;
// What durable commits cost (issue 16, synchronous=FULL): the same bare ledger, not waiting for the disk.
const relaxedOut = execFileSync(
  process.execPath,
  [
    join(root, 'tests/bench/bare-conversions.ts'),
    conversionsDb,
    'buyer@example.com',
    String(DURATION_SECONDS),
    'NORMAL',
  ],
  { cwd: root, encoding: 'utf8' },
);
const relaxedRate = Number(/conversions (\d+)/.exec(relaxedOut)?.[1] ?? 0) / DURATION_SECONDS;
let violations = -1;
{
  const { openDatabase, closeDatabase } = await import('../../db/client.ts');
  const { verifyLedger } = await import('../../server/services/ledger/invariants.ts');
  const check = openDatabase(conversionsDb);
  violations = (await verifyLedger(check)).length;
  closeDatabase(check);
}
const httpRate = conversions.requests.average;
console.log(
  `\nConversions (USDT → BTC, 16 connections, ${DURATION_SECONDS} s): ${Math.round(httpRate)} /s over HTTP ` +
    `(${conversions.non2xx} refused, p99 ${conversions.latency.p99} ms), ${Math.round(bareRate)} /s by the ledger directly: ` +
    `ratio ${(httpRate / bareRate).toFixed(2)} (goal ≥ 1,000 /s and ≥ 0.5×); ledger invariants: ${violations === 0 ? 'hold' : `${violations} VIOLATIONS`}`,
);
console.log(
  `Durable commits (synchronous=FULL, both sides above): the bare ledger posts ${Math.round(bareRate)} /s, ` +
    `${Math.round(relaxedRate)} /s with synchronous=NORMAL: FULL costs ${(100 * (1 - bareRate / relaxedRate)).toFixed(0)} % ` +
    `of the ledger's own rate (${(1000 / bareRate - 1000 / relaxedRate).toFixed(2)} ms per commit on this disk).`,
);

// JS of the pages with islands (issue 4: ≤ 120 KB gzip each), served by the running server.
const islandPages = [
  ['/buy-bitcoin/any/usd', 120],
  ['/calculator/btc-to-usd', 120],
] as const;
const islandSizes = [];
for (const [path, goal] of islandPages) {
  const { bytes } = pageJs(await (await fetch(`${oursOffers.url}${path}`)).text());
  islandSizes.push({
    page: path,
    'JS (gz KB)': (bytes / 1024).toFixed(1),
    goal: `≤ ${goal} KB`,
    met: bytes <= goal * 1024 ? 'yes' : 'NO',
  });
}
console.log('\nJavaScript per page with islands (all chunks a first visit loads, gzip)');
console.table(islandSizes);

// Trades (issue 6): lifecycles over HTTP against the service directly, and chat latency with 1000
// sockets; its own servers and database (tests/bench/trades.ts).
execFileSync(process.execPath, [join(root, 'tests/bench/trades.ts')], { cwd: root, stdio: 'inherit' });

// Affiliate shares (issue 20): releases with three fee shares against releases without, through the
// trades service on SQLite and PostgreSQL (tests/bench/affiliate-release.ts).
execFileSync(process.execPath, [join(root, 'tests/bench/affiliate-release.ts')], { cwd: root, stdio: 'inherit' });
// Merchants' webhooks (issue 21): the same releases, each writing two outbox rows in its transaction.
execFileSync(process.execPath, [join(root, 'tests/bench/affiliate-release.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, BENCH_WITH: 'webhooks' },
});

// Notifications (issue 7): fan-out to 1000 sockets through the hub against bare `ws`, and the built
// server's memory with 1000 sockets over the 100,000-offer database (tests/bench/fanout.ts).
execFileSync(process.execPath, [join(root, 'tests/bench/fanout.ts'), offersDb], { cwd: root, stdio: 'inherit' });

// Engines and processes (issue 17): SQLite vs PostgreSQL + Redis, and 1 vs 2 processes behind nginx,
// driven by wrk (tests/bench/engines.ts).
execFileSync(process.execPath, [join(root, 'tests/bench/engines.ts')], { cwd: root, stdio: 'inherit' });

// A newcomer's first npm start (issue 22): build and seed from nothing to the first page
// (tests/bench/first-start.ts).
execFileSync(process.execPath, [join(root, 'tests/bench/first-start.ts')], { cwd: root, stdio: 'inherit' });

const htmlSize = statSync(join(client, 'index.html')).size;
console.log(`Home page HTML: ${(htmlSize / 1024).toFixed(1)} KB raw`);
const sorted = [...coldStarts].sort((a, b) => a - b);
console.log(
  `\nCold start (node scripts/start.ts → first page answered), 3 runs: ${sorted.map((ms) => `${Math.round(ms)} ms`).join(', ')}; median ${Math.round(sorted[1] ?? 0)} ms (goal ≤ 1500 ms)`,
);
process.exit(0);
