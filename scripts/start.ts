// `npm start`: checks the configuration, builds when there is no build (or the sources are newer
// than it), then starts the server. Migrations and the first-run seed happen inside the server.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, readConfig } from '../server/config.ts';
import { BUILD_DIR as buildDir, buildIsCurrent, ROOT as root } from './build-freshness.ts';

try {
  readConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

if (!buildIsCurrent()) {
  console.log('No current build: building (about half a minute, once)…');
  execFileSync(process.execPath, [join(root, 'scripts/build.ts')], { cwd: root, stdio: 'inherit' });
}

const { main } = await import(pathToFileURL(join(buildDir, 'app/main.js')).href);
await main(buildDir);
