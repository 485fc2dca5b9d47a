// `npm start`: checks the configuration, builds when there is no build (or the sources are newer
// than it), then starts the server. Migrations and the first-run seed happen inside the server;
// on a first start they run beside the build instead, which leaves the other core idle.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Config, ConfigError, readConfig } from '../server/config.ts';
import { BUILD_DIR as buildDir, buildIsCurrent, ROOT as root } from './build-freshness.ts';

let config: Config;
try {
  config = readConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

/** The build a first start needs, with quick compression (scripts/precompress.ts). */
function buildQuickly(): Promise<void> {
  const child = spawn(process.execPath, [join(root, 'scripts/build.ts')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, COINFAIR_PRECOMPRESS: 'fast' },
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the build failed (exit code ${code})`))));
  });
}

/**
 * Migrates and seeds from the sources while the build runs. A failure here is left for the server,
 * which prepares the database again at start and says what is wrong.
 */
async function prepareDatabaseMeanwhile(): Promise<void> {
  try {
    const { consoleLogger, openPreparedDatabase } = await import('../server/backend.ts');
    const db = await openPreparedDatabase(config, config.DEMO_DATA === 'on', undefined, consoleLogger);
    await db.close();
  } catch {}
}

if (!buildIsCurrent()) {
  console.log('No current build: building (once, a few seconds) while the database is prepared…');
  try {
    await Promise.all([buildQuickly(), prepareDatabaseMeanwhile()]);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}

const { main } = await import(pathToFileURL(join(buildDir, 'app/main.js')).href);
await main(buildDir);
