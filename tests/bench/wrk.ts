import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// wrk (C, Debian's package) as the load generator: a Node generator on the same two cores
// saturates before the server does (issue 23). Its own CPU use is reported with each run, so a
// generator that became the bottleneck shows.

export interface WrkResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** Connect, read, write and timeout errors. */
  errors: number;
  /** The generator's CPU use over the run (user + system over wall time), in percent of one core. */
  wrkCpu: number;
}

/** At or above this share of one core the generator may be what limits the run (issue 23). */
export const GENERATOR_SATURATED_PERCENT = 90;

/** "92 %", flagged when the generator may have been the bottleneck. */
export const generatorCpu = (percent: number) =>
  `${percent} %${percent >= GENERATOR_SATURATED_PERCENT ? ' SATURATED' : ''}`;

let checked = false;

/**
 * wrk on the PATH, installed with apt-get when missing and the bench runs as root (the package is
 * Debian's); otherwise the bench stops and says how to install it.
 */
export function ensureWrk(): void {
  if (checked) return;
  const found = () => {
    try {
      execFileSync('sh', ['-c', 'command -v wrk'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  if (!found() && process.getuid?.() === 0) {
    console.log('bench: wrk is missing, installing it (apt-get install wrk)');
    try {
      execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'wrk'], { stdio: 'inherit' });
    } catch {
      // Said below.
    }
  }
  if (!found())
    throw new Error(
      'bench: the HTTP rows need wrk (a C load generator). Install it: `sudo apt-get install wrk` ' +
        '(Debian, Ubuntu), `brew install wrk` (macOS), or build https://github.com/wg/wrk.',
    );
  checked = true;
}

const scripts = mkdtempSync(join(tmpdir(), 'coinfair-wrk-'));

/** A Lua script for wrk, written once to a temporary file. */
export function wrkScript(name: string, lua: string): string {
  const path = join(scripts, `${name}.lua`);
  writeFileSync(path, lua);
  return path;
}

/**
 * GET /rest/v1/offers with a different minimum amount on every request, interleaved between wrk's
 * threads: every search misses the caches, so a row measures running the search.
 */
export const offersMissScript = () =>
  wrkScript(
    'offers-miss',
    `local counter = 0
function setup(thread) counter = counter + 1; thread:set("tid", counter) end
local n = 0
function request()
  n = n + 1
  return wrk.format("GET", string.format("/rest/v1/offers?type=buy&currency=USD&fiat-min=%.2f", 100 + (n * 2 + tid) / 100))
end
`,
  );

/** USDT → BTC at the quote given as the script's first argument, a new order id (tagged by the second) per request. */
export const conversionsScript = () =>
  wrkScript(
    'conversions',
    `local counter = 0
function setup(thread) counter = counter + 1; thread:set("tid", counter) end
local n = 0
function init(args) quote = args[1]; tag = args[2] end
function request()
  n = n + 1
  local body = string.format('{"from_crypto_currency_code":"USDT","to_crypto_currency_code":"BTC","amount":"10","quote_id":"%s","order_id":"%s-%d-%d"}', quote, tag, tid, n)
  return wrk.format("POST", "/rest/v1/hedging/convert", nil, body)
end
`,
  );

/** A wrk script sending one fixed POST: `body` as JSON, with `headers`. */
export function wrkPost(name: string, body: string, headers: Record<string, string>): string {
  const lines = Object.entries({ 'Content-Type': 'application/json', ...headers }).map(
    ([key, value]) => `wrk.headers[${JSON.stringify(key)}] = ${JSON.stringify(value)}`,
  );
  return wrkScript(name, [`wrk.method = "POST"`, `wrk.body = ${JSON.stringify(body)}`, ...lines, ''].join('\n'));
}

const MS_PER_UNIT: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };
/** Linux counts a process's CPU time in clock ticks of 1/100 s. */
const TICK_MS = 10;

function parse(output: string): Omit<WrkResult, 'wrkCpu'> {
  const latency = (pct: string) => {
    const [, value, unit] = new RegExp(`\\s${pct}%\\s+([\\d.]+)(us|ms|s|m)`).exec(output) ?? [];
    return value && unit ? Number((Number(value) * (MS_PER_UNIT[unit] ?? Number.NaN)).toFixed(2)) : Number.NaN;
  };
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? 0),
    p50: latency('50'),
    p99: latency('99'),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0),
    errors: socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}

export interface WrkOptions {
  seconds: number;
  connections: number;
  headers?: Record<string, string>;
  script?: string;
  /** Passed to the script's `init(args)`. */
  scriptArgs?: string[];
}

// wrk runs under a shell that, once wrk has ended, prints its own /proc stat: fields 16 and 17
// (cutime, cstime) are the CPU ticks of the children it waited for, which is wrk alone.
const MEASURED = 'wrk "$@"; code=$?; echo "wrk-ticks $(cut -d" " -f16,17 /proc/$$/stat)" >&2; exit $code';

/** One bounded wrk run (two threads, one per core) against `url`. */
export async function wrk(url: string, options: WrkOptions): Promise<WrkResult> {
  ensureWrk();
  const args = ['-t2', `-c${options.connections}`, `-d${options.seconds}s`, '--latency', '--timeout', '10s'];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  if (options.script) args.push('-s', options.script);
  args.push(url);
  if (options.scriptArgs) args.push('--', ...options.scriptArgs);
  const started = performance.now();
  const child = spawn('sh', ['-c', MEASURED, 'sh', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), (options.seconds + 30) * 1000);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`wrk ${url} failed (exit ${code}): ${stderr.trim()}`);
  const wallMs = performance.now() - started;
  const [, user = '0', system = '0'] = /wrk-ticks (\d+) (\d+)/.exec(stderr) ?? [];
  const cpuMs = (Number(user) + Number(system)) * TICK_MS;
  return { ...parse(stdout), wrkCpu: Math.round((100 * cpuMs) / wallMs) };
}
