import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { HDKey } from '@scure/bip32';
import { openPostgres, type Postgres } from '../../db/postgres.ts';
import { staleBuildReason } from '../../scripts/build-freshness.ts';
import { freePort, NGINX, startNginx } from '../support/nginx.ts';
import { POSTGRES_ADMIN_URL, postgresReachable } from '../support/postgres.ts';
import { redisReachable, TEST_REDIS_URL } from '../support/redis.ts';

// The deployment of issue 17 in miniature: two processes of the built server (what `npm start`
// runs) on one fresh PostgreSQL database and one Redis, behind nginx configured from
// deploy/nginx.conf. Everything is made per run and removed at the end.

export const ROOT = join(import.meta.dirname, '..', '..');
const BUILD_DIR = join(ROOT, 'build');
export const REDIS_ADMIN_URL = TEST_REDIS_URL;
/** Start-up takes ~3 s with reference data only; a loaded CI machine gets far more. */
const START_TIMEOUT_MS = 90_000;

/** Why this machine cannot run the cluster (printed when the suite skips), or undefined when it can. */
export async function missingPrerequisite(): Promise<string | undefined> {
  try {
    accessSync(NGINX, constants.X_OK);
  } catch {
    return `nginx is not installed at ${NGINX} (apt-get install nginx)`;
  }
  if (!(await postgresReachable())) return `PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL}`;
  if (!(await redisReachable(REDIS_ADMIN_URL))) return `Redis is not reachable at ${REDIS_ADMIN_URL}`;
  return undefined;
}

/** A fresh, empty database for this run: the first process migrates and seeds it. */
async function createClusterDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `coinfair_cluster_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = openPostgres(POSTGRES_ADMIN_URL, { max: 1 });
  await admin.exec(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}

/**
 * This run's own wallet keys, gift code key and API key root: DEMO_DATA=off (a quick start, reference data only)
 * refuses the public development keys, as a real marketplace must.
 */
export function randomKeys(): Record<
  'WALLET_BTC_XPUB' | 'WALLET_TRON_XPUB' | 'GIFT_CODE_KEY' | 'API_KEY_ROOT',
  string
> {
  const root = HDKey.fromMasterSeed(randomBytes(32));
  return {
    WALLET_BTC_XPUB: root.derive("m/84'/0'/0'").publicExtendedKey,
    WALLET_TRON_XPUB: root.derive("m/44'/195'/0'").publicExtendedKey,
    GIFT_CODE_KEY: randomBytes(32).toString('hex'),
    API_KEY_ROOT: randomBytes(32).toString('hex'),
  };
}

export interface AppProcess {
  name: string;
  url: string;
  pid: number;
  /** What the process printed so far (start-up lines, errors), for failure messages. */
  output(): string;
  /** Resolves once the process has exited. */
  exited: Promise<void>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/**
 * One process of the built server, as `npm start` runs it (scripts/start.ts without its build step),
 * on `port` when given (a restart where nginx expects it), else on a free one.
 */
export async function startAppProcess(name: string, env: Record<string, string>, port?: number): Promise<AppProcess> {
  port ??= await freePort();
  const entry = `const { main } = await import(process.argv[1]); await main(process.argv[2]);`;
  const child: ChildProcess = spawn(
    process.execPath,
    ['--input-type=module', '-e', entry, join(BUILD_DIR, 'app', 'main.js'), BUILD_DIR],
    { cwd: ROOT, env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: 'pipe' },
  );
  let out = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    out += chunk;
  });
  let hasExited = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      hasExited = true;
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  // Ready when it answers its health check (the last thing main() does is listen).
  while (!(await answers(`${url}/healthz`))) {
    if (hasExited) throw new Error(`process ${name} exited during start-up:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`process ${name} did not answer within ${START_TIMEOUT_MS} ms:\n${out}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    name,
    url,
    pid: child.pid ?? 0,
    output: () => out,
    exited,
    async kill(signal) {
      if (!hasExited) child.kill(signal);
      // A clean stop takes at most 10 s (server/main.ts); past that it is stuck.
      const stuck = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(stuck);
    },
  };
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url);
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

export interface AdminResult {
  status: number;
  output: string;
}

/** `npm run admin -- <args>` against the cluster's database, as an operator runs it. */
export function runAdmin(env: Record<string, string>, args: string[]): Promise<AdminResult> {
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'admin.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: 'pipe',
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve({ status: code ?? 1, output }));
  });
}

/** Both starts, settled before either failure is thrown, so no process is left behind unregistered. */
async function bothStarted(a: Promise<AppProcess>, b: Promise<AppProcess>): Promise<[AppProcess, AppProcess]> {
  const [first, second] = await Promise.allSettled([a, b]);
  if (first.status === 'rejected') throw first.reason;
  if (second.status === 'rejected') throw second.reason;
  return [first.value, second.value];
}

export interface Cluster {
  a: AppProcess;
  b: AppProcess;
  /** nginx in front of both: round-robin, no sticky sessions. */
  proxyUrl: string;
  /** The environment both processes run with (DATABASE_URL, REDIS_URL, keys…), for admin commands. */
  env: Record<string, string>;
  /** The cluster's database, for reading what happened and for states no page reaches. */
  db: Postgres;
  admin(...args: string[]): Promise<AdminResult>;
  /**
   * Starts a process that was killed again on its own port, so nginx's upstream finds it there
   * once it tries the address again; it replaces the dead one as `a` or `b`.
   */
  restart(dead: AppProcess): Promise<AppProcess>;
  stop(): Promise<void>;
}

/**
 * The whole deployment. `together`: both processes start at the same moment on the empty
 * database (migrations and seed under the advisory lock); otherwise one after the other.
 */
export async function startCluster({ together = false } = {}): Promise<Cluster> {
  const stale = staleBuildReason();
  if (stale) throw new Error(`The build is not current (${stale}): run \`npm run build\` first (\`npm test\` does).`);
  const database = await createClusterDatabase();
  const cleanups: (() => Promise<void>)[] = [() => database.drop()];
  const stopAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((e) => console.error(e));
  };
  try {
    // The run's own Redis prefix: another run (or deployment) on this Redis hears none of its events.
    const env: Record<string, string> = {
      DATABASE_URL: database.url,
      REDIS_URL: REDIS_ADMIN_URL,
      REDIS_PREFIX: `coinfair-cluster-${randomBytes(4).toString('hex')}:`,
      DEMO_DATA: 'off',
      AUTH_CHALLENGE: 'off',
      GEOIP: 'off',
      TRUST_PROXY: 'on',
      DISPUTE_WAIT_MINUTES: '0',
      ...randomKeys(),
    };
    const startOne = async (name: string, port?: number) => {
      const started = await startAppProcess(name, env, port);
      cleanups.push(() => started.kill('SIGTERM'));
      return started;
    };
    const [a, b] = together
      ? await bothStarted(startOne('A'), startOne('B'))
      : [await startOne('A'), await startOne('B')];
    const nginx = await startNginx([a.url, b.url], await freePort());
    cleanups.push(() => nginx.stop());
    const db = openPostgres(database.url, { max: 4 });
    cleanups.push(() => db.close());
    const cluster: Cluster = {
      a,
      b,
      proxyUrl: nginx.url,
      env,
      db,
      admin: (...args) => runAdmin(env, args),
      async restart(dead) {
        const slot = dead === cluster.a ? 'a' : dead === cluster.b ? 'b' : undefined;
        if (!slot) throw new Error(`process ${dead.name} is not one of the cluster's`);
        await dead.exited;
        const restarted = await startOne(dead.name, Number(new URL(dead.url).port));
        cluster[slot] = restarted;
        return restarted;
      },
      stop: stopAll,
    };
    return cluster;
  } catch (error) {
    await stopAll();
    throw error;
  }
}
