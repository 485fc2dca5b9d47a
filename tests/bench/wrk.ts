import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// wrk (C, Debian's package) as the load generator: a Node generator on the same two cores
// saturates before the server does (issue 23). Its own CPU use is reported with each run, so a
// generator that became the bottleneck shows.

const run = promisify(execFile);

export interface WrkResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** The generator's CPU use over the run, in percent of one core. */
  wrkCpu: number;
}

const scripts = mkdtempSync(join(tmpdir(), 'coinfair-wrk-'));

/** A Lua script for wrk, written once to a temporary file. */
export function wrkScript(name: string, lua: string): string {
  const path = join(scripts, `${name}.lua`);
  writeFileSync(path, lua);
  return path;
}

const MS_PER_UNIT: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function parse(output: string, cpu: string): WrkResult {
  const latency = (pct: string) => {
    const [, value, unit] = new RegExp(`\\s${pct}%\\s+([\\d.]+)(us|ms|s|m)`).exec(output) ?? [];
    return value && unit ? Number((Number(value) * (MS_PER_UNIT[unit] ?? Number.NaN)).toFixed(2)) : Number.NaN;
  };
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? 0),
    p50: latency('50'),
    p99: latency('99'),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0),
    wrkCpu: Number(/wrk-cpu (\d+)%/.exec(cpu)?.[1] ?? 0),
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

/** One bounded wrk run (two threads, one per core) against `url`. */
export async function wrk(url: string, options: WrkOptions): Promise<WrkResult> {
  const args = ['-t2', `-c${options.connections}`, `-d${options.seconds}s`, '--latency', '--timeout', '10s'];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  if (options.script) args.push('-s', options.script);
  args.push(url);
  if (options.scriptArgs) args.push('--', ...options.scriptArgs);
  // GNU time reports the generator's own CPU share on stderr.
  const { stdout, stderr } = await run('/usr/bin/time', ['-f', 'wrk-cpu %P', 'wrk', ...args], {
    timeout: (options.seconds + 30) * 1000,
  });
  return parse(stdout, stderr);
}
