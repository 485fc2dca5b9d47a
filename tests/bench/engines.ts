// Engines and processes (issue 17), run by `npm run bench` or alone (`node tests/bench/engines.ts`):
// 1. The same build on SQLite and on PostgreSQL + Redis, one process each, over the same seed
//    (the demo plus 100,000 offers): the session read, an offers search that misses the cache and
//    conversions, in one run, so the columns compare like with like.
// 2. One vs two processes behind nginx (deploy/nginx.conf) on PostgreSQL + Redis.
// wrk drives the load (tests/bench/wrk.ts); everything is on 127.0.0.1, bounded, and fails no test.

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, NGINX, startNginx } from '../support/nginx.ts';
import { cpuPerRequest, cpuSnapshot } from './cpu.ts';
import { scratchPostgres } from './scratch-postgres.ts';
import { conversionsScript, generatorCpu, offersMissScript, type WrkResult, wrk } from './wrk.ts';

const root = new URL('../..', import.meta.url).pathname;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const OFFERS = Number(process.env.BENCH_OFFERS ?? 100_000);
const CONNECTIONS = 32;
const POSTGRES_ADMIN = process.env.BENCH_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CSRF = 'e'.repeat(43);
/** Buyer and vendor pairs, and the loops running lifecycles among them at once (as tests/bench/trades.ts). */
const PAIRS = 20;
const LOOPS = 32;

if (!existsSync(join(root, 'build/app/main.js'))) {
  execFileSync(process.execPath, [join(root, 'scripts/build.ts')], { cwd: root, stdio: 'inherit' });
}
const work = mkdtempSync(join(tmpdir(), 'coinfair-bench-engines-'));
const children: ChildProcess[] = [];
const pgName = `coinfair_bench_${process.pid}`;
const scratch = scratchPostgres(POSTGRES_ADMIN, pgName);
const pgUrl = scratch.url;
const postgresAdmin = scratch.admin;

process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

function prepare(database: string, dialect: 'sqlite' | 'postgres') {
  execFileSync(
    process.execPath,
    [join(root, 'tests/bench/prepare-engine.ts'), database, String(OFFERS), String(PAIRS)],
    {
      cwd: root,
      env: { ...process.env, COINFAIR_DIALECT: dialect },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

/** The built server on `port` (0: any) over `database`; resolves once it listens. */
function startServer(database: string, port = 0, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['-e', `import('./build/app/main.js').then((m) => m.main('build'))`], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: database,
      AUTH_CHALLENGE: 'off',
      GEOIP: 'off',
      UPLOADS_DIR: join(work, 'uploads'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise<{ url: string; child: ChildProcess }>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve({ url: match[1], child });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

async function stopServer(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A person's cookies and CSRF token after signing in (the demo buyer by default). */
async function signIn(url: string, email = 'buyer@example.com') {
  const res = await fetch(`${url}/rest/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${CSRF}`, 'x-csrf-token': CSRF },
    body: JSON.stringify({ email, password: 'Coinfair-demo-2026!' }),
  });
  if (!res.ok) throw new Error(`bench sign-in failed: ${res.status} ${await res.text()}`);
  const cookies = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .filter((c) => c.startsWith('session=') || c.startsWith('XSRF-TOKEN='));
  const csrf = cookies.find((c) => c.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '';
  return { cookie: cookies.join('; '), csrf };
}

const offersMiss = offersMissScript();
const conversions = conversionsScript();

async function currentQuote(url: string): Promise<string> {
  const answer = (await (await fetch(`${url}/rest/v1/crypto-fiat-rates?camelCase=1`)).json()) as {
    data: { quoteId: string };
  };
  return answer.data.quoteId;
}

type Measured = WrkResult & { appMs: number; postgresMs: number };
type Targets = Record<string, Measured>;

type Session = Awaited<ReturnType<typeof signIn>>;
async function call<T>(url: string, session: Session, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', cookie: session.cookie, 'x-csrf-token': session.csrf, origin: url },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as { data: T; errors?: unknown };
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json.errors)}`);
  return json.data;
}

/**
 * Trade lifecycles over HTTP (start → paid → release), LOOPS at once among PAIRS buyer/vendor
 * pairs: a scripted flow, so a Node client drives it. Counted as one "request" per lifecycle.
 */
async function lifecycles(url: string): Promise<WrkResult> {
  const pairs = await Promise.all(
    Array.from({ length: PAIRS }, async (_, i) => {
      const vendor = await signIn(url, `benchvendor${i}@bench.example`);
      const offers = await call<{ hash: string; originalData: string }[]>(
        url,
        vendor,
        `/rest/v1/users/benchvendor${i}/offers`,
      );
      return { buyer: await signIn(url, `benchbuyer${i}@bench.example`), vendor, offer: offers[0] };
    }),
  );
  const latencies: number[] = [];
  let failures = 0;
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: LOOPS }, async (_, loop) => {
      const pair = pairs[loop % PAIRS];
      if (!pair) return;
      const { buyer, vendor, offer } = pair;
      while (performance.now() < until) {
        const began = performance.now();
        try {
          const start = {
            offer_hash: offer?.hash,
            amount_fiat: '50',
            amount_btc: '0.00050000',
            gold_terms: 0,
            original_data: offer?.originalData,
          };
          const trade = await call<{ hash: string }>(url, buyer, '/rest/v1/trade', start);
          await call(url, buyer, `/rest/v1/trade/${trade.hash}/paid`, {});
          await call(url, vendor, `/rest/v1/trade/${trade.hash}/release`, {});
          latencies.push(performance.now() - began);
        } catch (error) {
          if (++failures <= 3) console.error(String(error));
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Number((latencies[Math.floor(latencies.length * q)] ?? 0).toFixed(1));
  return { rps: latencies.length / SECONDS, p50: at(0.5), p99: at(0.99), non2xx: failures, errors: 0, wrkCpu: 0 };
}

/** A wrk run, with the CPU time the servers (`pids`) and PostgreSQL spent per request. */
async function measured(pids: readonly number[], run: () => Promise<WrkResult>): Promise<Measured> {
  const before = cpuSnapshot(pids);
  const result = await run();
  return { ...result, ...cpuPerRequest(before, cpuSnapshot(pids), result.rps * SECONDS) };
}

/** The signed-in targets against one server (or nginx in front of several). */
async function measure(url: string, pids: number[], tag: string): Promise<Targets> {
  const { cookie, csrf } = await signIn(url);
  const session = { cookie };
  const base = { seconds: SECONDS, connections: CONNECTIONS };
  // Warm both paths (JIT, statement caches, pools) outside the measurement.
  await wrk(`${url}/rest/v1/users/me`, { ...base, seconds: 1, headers: session });
  await wrk(url, { ...base, seconds: 1, script: offersMiss });
  const targets: Targets = {
    'GET /rest/v1/users/me': await measured(pids, () => wrk(`${url}/rest/v1/users/me`, { ...base, headers: session })),
    'GET /rest/v1/offers (cache miss)': await measured(pids, () => wrk(url, { ...base, script: offersMiss })),
  };
  targets['trade lifecycles (start → paid → release)'] = await measured(pids, () => lifecycles(url));
  const quote = await currentQuote(url);
  targets['POST /rest/v1/hedging/convert'] = await measured(pids, () =>
    wrk(url, {
      seconds: SECONDS,
      connections: 16,
      headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf, origin: url },
      script: conversions,
      scriptArgs: [quote, `bench-${process.pid}-${tag}`],
    }),
  );
  return targets;
}

const cell = (r: Measured | undefined) =>
  r
    ? `${Math.round(r.rps)}/s p99 ${r.p99} ms${r.non2xx ? ` (${r.non2xx} refused)` : ''} · ` +
      `CPU/req app ${r.appMs.toFixed(2)} ms db ${r.postgresMs.toFixed(2)} ms${r.wrkCpu ? ` · wrk CPU ${generatorCpu(r.wrkCpu)}` : ''}`
    : '';

async function enginesTable() {
  const sqlitePath = join(work, 'engines.db');
  prepare(sqlitePath, 'sqlite');
  await postgresAdmin(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
  await postgresAdmin(`CREATE DATABASE ${pgName}`);
  prepare(pgUrl, 'postgres');

  const results: Record<string, Targets> = {};
  for (const [engine, database, env] of [
    ['SQLite', sqlitePath, {}],
    ['PostgreSQL + Redis', pgUrl, { REDIS_URL }],
  ] as const) {
    const server = await startServer(database, 0, env);
    results[engine] = await measure(server.url, [server.child.pid ?? 0], engine.slice(0, 2));
    await stopServer(server.child);
  }
  const sqlite = results.SQLite ?? {};
  const postgres = results['PostgreSQL + Redis'] ?? {};
  console.log(
    `\nEngines: one process each, ${OFFERS.toLocaleString('en')} more offers, ${CONNECTIONS} connections ` +
      `(16 for conversions; lifecycles: ${LOOPS} loops over ${PAIRS} pairs, Node client), ${SECONDS} s per target, wrk`,
  );
  console.table(
    Object.keys(sqlite).map((target) => ({
      target,
      SQLite: cell(sqlite[target]),
      'PostgreSQL + Redis': cell(postgres[target]),
      'PG / SQLite': ((postgres[target]?.rps ?? 0) / (sqlite[target]?.rps ?? 1)).toFixed(2),
    })),
  );
}

async function processesTable() {
  try {
    accessSync(NGINX, constants.X_OK);
  } catch {
    console.log('\nProcesses: nginx is not installed (apt-get install nginx); skipped.');
    return;
  }
  const results: Record<number, Targets> = {};
  for (const count of [1, 2]) {
    const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
    const servers = [];
    // One after the other: the first is the jobs' leader; the others follow (server/jobs/leadership.ts).
    for (const port of ports) servers.push(await startServer(pgUrl, port, { REDIS_URL, TRUST_PROXY: 'on' }));
    const nginx = await startNginx(
      servers.map((server) => server.url),
      await freePort(),
    );
    const pids = servers.map((server) => server.child.pid ?? 0);
    results[count] = await measure(nginx.url, pids, `p${count}`);
    await nginx.stop();
    for (const server of servers) await stopServer(server.child);
  }
  console.log(`\nProcesses behind nginx on PostgreSQL + Redis (${CONNECTIONS} connections, ${SECONDS} s per target)`);
  console.table(
    Object.keys(results[1] ?? {}).map((target) => ({
      target,
      '1 process': cell(results[1]?.[target]),
      '2 processes': cell(results[2]?.[target]),
      '2 / 1': ((results[2]?.[target]?.rps ?? 0) / (results[1]?.[target]?.rps ?? 1)).toFixed(2),
    })),
  );
}

try {
  await enginesTable();
  await processesTable();
} finally {
  await postgresAdmin(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
}
process.exit(0);
