// Notification fan-out (issue 7), run by `npm run bench` (tests/bench/run.ts) or alone:
// `node tests/bench/fanout.ts [offers.db]`. 1000 sockets on one server process, each on its own
// `notifications:<usr_…>` channel as the bell's: msgs/s of a burst of rounds (one notification to
// every socket per round) and p50/p99 from publish to receipt of paced rounds, through the bus and
// the realtime hub against a bare `ws` server sending the same frames, in the same run. Then the
// resident memory of the hub process, and of the built server (over the bench's database with
// 100,000 offers when given) with 1000 sockets. 127.0.0.1 only, bounded; nothing passes or fails.
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';

const root = new URL('../..', import.meta.url).pathname;
const SOCKETS = 1000;
const BURST_ROUNDS = 20;
const PACED_ROUNDS = 30;
const PACE_MS = 25;
const children: ChildProcess[] = [];
const work = mkdtempSync(join(tmpdir(), 'coinfair-fanout-'));
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

function start(args: string[], ready: RegExp, env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(child);
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const next = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${pattern} from ${args.join(' ')}`)), 120_000);
      const onLine = (line: string) => {
        const match = pattern.exec(line);
        if (!match) return;
        clearTimeout(timer);
        lines.off('line', onLine);
        resolve(match);
      };
      lines.on('line', onLine);
    });
  return { child, next, ready: next(ready) };
}

const now = () => performance.timeOrigin + performance.now();
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/** Opens `count` sockets, 100 at a time; `subscribe` names each one's channel. */
async function connect(url: string, count: number, subscribe?: (i: number) => string) {
  const sockets: WebSocket[] = [];
  for (let from = 0; from < count; from += 100) {
    const batch = Array.from({ length: Math.min(100, count - from) }, async (_, k) => {
      const i = from + k;
      const ws = new WebSocket(url);
      await new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
      if (subscribe) {
        const joined = new Promise((resolve) => ws.once('message', resolve));
        ws.send(JSON.stringify({ type: 'subscribe', channel: subscribe(i) }));
        await joined;
      }
      sockets[i] = ws;
    });
    await Promise.all(batch);
  }
  return sockets;
}

async function measure(mode: 'hub' | 'bare') {
  const server = start([join(root, 'tests/bench/fanout-server.ts'), mode], /^ready (\d+)/);
  const port = (await server.ready)[1];
  const sockets = await connect(
    `ws://127.0.0.1:${port}/ws`,
    SOCKETS,
    mode === 'hub' ? (i) => `notifications:usr_${String(i).padStart(16, '0')}` : undefined,
  );
  let received = 0;
  let latencies: number[] = [];
  let firstSent = Number.POSITIVE_INFINITY;
  let lastReceived = 0;
  let expected = 0;
  let done: () => void = () => {};
  for (const ws of sockets) {
    ws.on('message', (data) => {
      const at = now();
      const frame = JSON.parse(data.toString()) as { event?: { payload?: { sentAt?: number } } };
      const sentAt = frame.event?.payload?.sentAt ?? at;
      firstSent = Math.min(firstSent, sentAt);
      lastReceived = at;
      latencies.push(at - sentAt);
      if (++received === expected) done();
    });
  }
  const run = (command: string, messages: number) => {
    received = 0;
    latencies = [];
    firstSent = Number.POSITIVE_INFINITY;
    expected = messages;
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    server.child.stdin?.write(`${command} ${SOCKETS}\n`);
    return finished;
  };
  await run(`burst 2 0`, 2 * SOCKETS); // warm-up
  await run(`burst ${BURST_ROUNDS} 0`, BURST_ROUNDS * SOCKETS);
  const rate = (BURST_ROUNDS * SOCKETS) / ((lastReceived - firstSent) / 1000);
  await run(`paced ${PACED_ROUNDS} ${PACE_MS}`, PACED_ROUNDS * SOCKETS);
  const sorted = [...latencies].sort((a, b) => a - b);
  server.child.stdin?.write('rss\n');
  const rss = Number((await server.next(/^rss (\d+)/))[1]);
  for (const ws of sockets) ws.terminate();
  server.child.kill('SIGTERM');
  return { rate, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), rss };
}

const hub = await measure('hub');
const bare = await measure('bare');
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const ratio = hub.rate / bare.rate;
console.log(`\nNotification fan-out: ${SOCKETS} sockets on one process, one channel each (tests/bench/fanout.ts)`);
console.table([
  {
    target: 'bus + realtime hub',
    'msgs/s': Math.round(hub.rate),
    'p50 ms': hub.p50.toFixed(1),
    'p99 ms': hub.p99.toFixed(1),
    RSS: mb(hub.rss),
  },
  {
    target: 'bare ws, same frames',
    'msgs/s': Math.round(bare.rate),
    'p50 ms': bare.p50.toFixed(1),
    'p99 ms': bare.p99.toFixed(1),
    RSS: mb(bare.rss),
  },
]);
console.log(
  `ratio ${ratio.toFixed(2)} (goal ≥ 0.8: ${ratio >= 0.8 ? 'yes' : 'NO'}), p99 ${hub.p99.toFixed(1)} ms (goal ≤ 50 ms: ${hub.p99 <= 50 ? 'yes' : 'NO'}); ` +
    `burst of ${BURST_ROUNDS} rounds, then ${PACED_ROUNDS} rounds every ${PACE_MS} ms for the latencies`,
);

// The built server itself with 1000 sockets (anonymous ones on `rates`), over the bench's
// 100,000-offer database when run.ts passes it.
const database = process.argv[2];
if (database) {
  const copy = join(work, 'fanout.db');
  copyFileSync(database, copy);
  const server = start(
    ['-e', `import('./build/app/main.js').then((m) => m.main('build'))`],
    /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    { PORT: '0', DATABASE_URL: copy, AUTH_CHALLENGE: 'off' },
  );
  const port = (await server.ready)[1];
  const rssOf = () =>
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  await fetch(`http://127.0.0.1:${port}/rest/v1/offers?type=buy`);
  const before = rssOf();
  const sockets = await connect(`ws://127.0.0.1:${port}/ws`, SOCKETS, () => 'rates');
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = rssOf();
  console.log(
    `Built server RSS over the given database (npm run bench: 100,000 more offers): ${mb(before)} idle, ${mb(after)} with ${SOCKETS} sockets (goal ≤ 250 MB: ${after <= 250 * 1024 * 1024 ? 'yes' : 'NO'})`,
  );
  for (const ws of sockets) ws.terminate();
}
process.exit(0);
