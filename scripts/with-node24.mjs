// Runs a command under Node 22.12+ (24 LTS preferred). Plain JavaScript on purpose: it must run
// on the old Node a machine ships (20 on these machines), which cannot read TypeScript.
//
//   node scripts/with-node24.mjs <command> [args…]
//
// With a recent enough `node` it simply runs the command. With an older one it fetches Node 24
// from the npm registry into .node/ once (the `node-<platform>-<arch>` package, the same binaries
// nodejs.org ships), rebuilds the native modules for it, and runs the command with that Node first
// on PATH, so `npm start` and `npm test` work on a fresh clone with nothing else installed.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const MIN_MAJOR = 22;
const root = new URL('..', import.meta.url).pathname;
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/with-node24.mjs <command> [args…]');
  process.exit(2);
}

const run = (cmd, argv, env = process.env) => {
  const result = spawnSync(cmd, argv, { stdio: 'inherit', env, cwd: root });
  if (result.error) throw result.error;
  return result.status ?? 1;
};

const major = Number(process.versions.node.split('.')[0]);
if (major >= MIN_MAJOR) process.exit(run(command, args));

const platform = { linux: 'linux', darwin: 'darwin' }[process.platform];
const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
if (!platform || !arch) {
  console.error(
    `Coinfair needs Node.js ${MIN_MAJOR}.12 or later (24 LTS recommended); this is ${process.version}. Install it from https://nodejs.org and run this again.`,
  );
  process.exit(1);
}
const pkg = `node-${platform}-${arch}`;
const prefix = join(root, '.node');
const home = join(prefix, 'node_modules', pkg);
const node24 = join(home, 'bin', 'node');
const env = {
  ...process.env,
  PATH: `${join(home, 'bin')}${delimiter}${process.env.PATH ?? ''}`,
  // Native addons build against the Node that runs them.
  npm_config_nodedir: home,
};

if (!existsSync(node24)) {
  console.log(
    `Node ${process.version} is too old for Coinfair: fetching Node 24 from the npm registry into .node/ (once)…`,
  );
  const fetched = spawnSync(
    'npm',
    ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `${pkg}@24`],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const status = fetched.status ?? 1;
  if (status !== 0 || !existsSync(node24)) {
    console.error(
      `Could not fetch ${pkg}@24 from the npm registry. Install Node.js 24 yourself (https://nodejs.org) and run this again.`,
    );
    process.exit(1);
  }
}

// Native modules installed under the old Node do not load in the new one: rebuild them once.
const loads = spawnSync(node24, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], {
  cwd: root,
  env,
  stdio: 'ignore',
});
if (loads.status !== 0) {
  console.log('Rebuilding the native modules for Node 24 (once)…');
  if (run('npm', ['rebuild', '--no-audit', '--no-fund', '--loglevel=error'], env) !== 0) process.exit(1);
}

process.exit(run(command, args, env));
