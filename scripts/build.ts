// `npm run build`: the Astro site, the server bundle, the migrations beside it, and brotli/gzip
// variants of every text asset (scripts/precompress.ts).
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';
import { compressionPendingMarker } from '../server/http/static-files.ts';
import { viewerAsset, viewerSource } from '../src/lib/server/api-reference-viewer.ts';
import { checkContent, formatReport } from './check-content.ts';
import { precompress, precompressCacheDir } from './precompress.ts';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'build');

function step(label: string, run: () => unknown) {
  const started = performance.now();
  run();
  console.log(`build: ${label} (${Math.round(performance.now() - started)} ms)`);
}

// The marketing pages' content first: an editor's mistake stops the build naming the file and
// field, and languages shown in English (`fallback: en`) are listed (docs/editing-content.md).
step('content check', () => {
  const report = checkContent();
  console.log(formatReport(report));
  if (report.errors.length > 0) process.exit(1);
});

rmSync(out, { recursive: true, force: true });

/** Astro's build, in a child: it empties build/ first, so nothing else may be written there before it ends. */
function buildSite(): Promise<void> {
  const started = performance.now();
  const child = spawn(join(root, 'node_modules/.bin/astro'), ['build', '--silent'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`astro build failed (exit code ${code})`));
      console.log(`build: astro site (${Math.round(performance.now() - started)} ms)`);
      resolve();
    });
  });
}

// Bundling the server halves cold start: unbundled drizzle-orm alone costs ~430 ms of module
// resolution on Node 24 (ARCHITECTURE.md). Native addons and the Astro entry stay external.
// The bundle (2.5 s, on esbuild's own threads) is made beside Astro's build, which leaves a core
// idle much of its time, and written once Astro has emptied and filled build/ (issue 22: first start).
// A first start (`COINFAIR_BUILD=first-start`, scripts/start.ts) also prepares the database from
// the bundle meanwhile, written for that aside in node_modules/.cache.
const firstStart = process.env.COINFAIR_BUILD === 'first-start';
const site = buildSite().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
const serverBundle = await bundleServer();
const databasePrepared = firstStart ? prepareDatabaseFromBundle(serverBundle.outputFiles) : undefined;
await site;
writeBundle(serverBundle.outputFiles, join(out, 'app'));
console.log('build: server bundle');
await databasePrepared;

function bundleServer() {
  return build({
    write: false,
    entryPoints: { main: join(root, 'server/main.ts'), 'prepare-database': join(root, 'server/prepare-database.ts') },
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
}

type BundleFile = Awaited<ReturnType<typeof bundleServer>>['outputFiles'][number];

/** The bundle's files under `dir` (esbuild made their paths for build/app). */
function writeBundle(files: BundleFile[], dir: string): void {
  for (const file of files) {
    const path = join(dir, relative(join(out, 'app'), file.path));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.contents);
  }
}

/** Migrations and seed in a child running the bundle; its failure is the server's to report. */
function prepareDatabaseFromBundle(files: BundleFile[]): Promise<void> {
  const aside = join(root, 'node_modules/.cache/coinfair-first-start');
  rmSync(aside, { recursive: true, force: true });
  writeBundle(files, aside);
  const started = performance.now();
  const child = spawn(process.execPath, [join(aside, 'prepare-database.js'), join(root, 'db/migrations')], {
    cwd: root,
    stdio: 'inherit',
  });
  return new Promise((resolve) => {
    child.on('error', () => resolve());
    child.on('exit', () => {
      console.log(`build: database prepared beside the site (${Math.round(performance.now() - started)} ms)`);
      resolve();
    });
  });
}

// The API reference's viewer (/developers/api): Scalar's standalone bundle from npm, served as one
// of our own assets (no CDN).
cpSync(viewerSource(root), join(out, 'client', viewerAsset(root)));

cpSync(join(root, 'db/migrations'), join(out, 'migrations'), { recursive: true });
cpSync(join(root, 'db/migrations-pg'), join(out, 'migrations-pg'), { recursive: true });

// A first start compresses quickly once it serves (scripts/start.ts, decision 127); the server
// caches no file while the marker says so.
if (firstStart) {
  writeFileSync(compressionPendingMarker(out), '');
  console.log('build: precompress, later (once the server listens)');
} else {
  const started = performance.now();
  await precompress(join(out, 'client'), 'best', precompressCacheDir(root));
  console.log(`build: precompress, best (${Math.round(performance.now() - started)} ms)`);
}

writeFileSync(join(out, 'build-info.json'), JSON.stringify({ builtAt: new Date().toISOString() }));
