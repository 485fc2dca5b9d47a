// `npm start`: checks the configuration, builds when there is no build (or the sources are newer
// than it), then starts the server. Migrations and the first-run seed happen inside the server;
// on a first start they run beside the build instead (scripts/build.ts), and the assets are
// compressed once the server answers (decision 127).
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, readConfig } from '../server/config.ts';
import { compressionPendingMarker } from '../server/http/static-files.ts';
import { BUILD_DIR as buildDir, buildIsCurrent, ROOT as root } from './build-freshness.ts';
import { precompress, precompressCacheDir } from './precompress.ts';

try {
  readConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

/**
 * The build a first start needs: it prepares the database beside the site and compresses nothing
 * yet (scripts/build.ts; compressWhileServing).
 */
function buildQuickly(): Promise<void> {
  const child = spawn(process.execPath, [join(root, 'scripts/build.ts')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, COINFAIR_BUILD: 'first-start' },
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the build failed (exit code ${code})`))));
  });
}

if (!buildIsCurrent()) {
  console.log('No current build: building (once, a few seconds) while the database is prepared…');
  try {
    await buildQuickly();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}

/**
 * A first start's build has no brotli/gzip variants: they are written at quick quality once the
 * server answers, renamed into place, and the server caches files again when the marker is gone.
 */
async function compressWhileServing(): Promise<void> {
  const marker = compressionPendingMarker(buildDir);
  if (!existsSync(marker)) return;
  const started = performance.now();
  try {
    await precompress(join(buildDir, 'client'), 'fast', precompressCacheDir(root));
    rmSync(marker, { force: true });
    console.log(`Assets compressed for sending (${Math.round(performance.now() - started)} ms).`);
  } catch (error) {
    console.error('Compressing the assets failed; they are sent uncompressed:', error);
  }
}

const { main } = await import(pathToFileURL(join(buildDir, 'app/main.js')).href);
await main(buildDir);
await compressWhileServing();
