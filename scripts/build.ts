// `npm run build`: the Astro site, the server bundle, the migrations beside it, and brotli/gzip
// variants of every text asset (scripts/precompress.ts).
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { viewerAsset, viewerSource } from '../src/lib/server/api-reference-viewer.ts';
import { checkContent, formatReport } from './check-content.ts';
import { precompress } from './precompress.ts';

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

// The API reference's viewer (/developers/api): Scalar's standalone bundle from npm, served as one
// of our own assets (no CDN).
cpSync(viewerSource(root), join(out, 'client', viewerAsset(root)));

cpSync(join(root, 'db/migrations'), join(out, 'migrations'), { recursive: true });
cpSync(join(root, 'db/migrations-pg'), join(out, 'migrations-pg'), { recursive: true });

// `COINFAIR_PRECOMPRESS=fast`: the quick build of a first `npm start` (scripts/precompress.ts).
const effort = process.env.COINFAIR_PRECOMPRESS === 'fast' ? 'fast' : 'best';
const started = performance.now();
// COINFAIR_PRECOMPRESS_CACHE: elsewhere than node_modules/.cache (the bench's fresh start uses an empty one).
const cacheDir = process.env.COINFAIR_PRECOMPRESS_CACHE ?? join(root, 'node_modules/.cache/coinfair-precompress');
await precompress(join(out, 'client'), effort, cacheDir);
console.log(`build: precompress, ${effort} (${Math.round(performance.now() - started)} ms)`);

writeFileSync(join(out, 'build-info.json'), JSON.stringify({ builtAt: new Date().toISOString() }));
