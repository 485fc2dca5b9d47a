// `npm run build`: the Astro site, the server bundle, the migrations beside it, and brotli/gzip
// variants of every text asset (neither Astro nor the node adapter compresses responses).
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { build } from 'esbuild';
import { checkContent, formatReport } from './check-content.ts';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'build');
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.svg', '.json', '.txt', '.xml', '.webmanifest']);

function step(label: string, run: () => unknown) {
  const started = performance.now();
  run();
  console.log(`build: ${label} (${Math.round(performance.now() - started)} ms)`);
}

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

// The marketing pages' content first: an editor's mistake stops the build naming the file and
// field, and languages shown in English (`fallback: en`) are listed (docs/editing-content.md).
step('content check', () => {
  const report = checkContent();
  console.log(formatReport(report));
  if (report.errors.length > 0) process.exit(1);
});

rmSync(out, { recursive: true, force: true });

step('astro site', () =>
  execFileSync(join(root, 'node_modules/.bin/astro'), ['build', '--silent'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  }),
);

// Bundling the server halves cold start: unbundled drizzle-orm alone costs ~430 ms of module
// resolution on Node 24 (ARCHITECTURE.md). Native addons and the Astro entry stay external.
await build({
  entryPoints: { main: join(root, 'server/main.ts') },
  outdir: join(out, 'app'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  sourcemap: 'linked',
  external: ['better-sqlite3', '@node-rs/argon2', 'sharp', 'bufferutil', 'utf-8-validate'],
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
console.log('build: server bundle');

cpSync(join(root, 'db/migrations'), join(out, 'migrations'), { recursive: true });
cpSync(join(root, 'db/migrations-pg'), join(out, 'migrations-pg'), { recursive: true });

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Both variants of one file, each kept only when smaller than the file. */
async function compress(file: string): Promise<void> {
  const raw = readFileSync(file);
  const [br, gz] = await Promise.all([
    brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
    gzipAsync(raw, { level: 9 }),
  ]);
  if (br.length < raw.length) writeFileSync(`${file}.br`, br);
  if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
}

// On libuv's thread pool, a few files at a time: every core compresses instead of one.
const started = performance.now();
const queue = [...files(join(out, 'client'))].filter((file) => COMPRESSIBLE.has(extname(file)));
await Promise.all(
  Array.from({ length: 4 }, async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) await compress(file);
  }),
);
console.log(`build: precompress (${Math.round(performance.now() - started)} ms)`);

writeFileSync(join(out, 'build-info.json'), JSON.stringify({ builtAt: new Date().toISOString() }));
