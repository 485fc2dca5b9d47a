// `npm start`: checks the configuration, builds when there is no build (or the sources are newer
// than it), then starts the server. Migrations and the first-run seed happen inside the server.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, readConfig } from '../server/config.ts';

const root = new URL('..', import.meta.url).pathname;
const buildDir = join(root, 'build');
const stamp = join(buildDir, 'build-info.json');
const SOURCES = ['src', 'server', 'db', 'locales', 'public', 'astro.config.mjs', 'package-lock.json'];

function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stat.mtimeMs);
}

function buildIsCurrent(): boolean {
  if (!existsSync(stamp) || !existsSync(join(buildDir, 'app/main.js'))) return false;
  const builtAt = statSync(stamp).mtimeMs;
  return SOURCES.every((source) => newestChange(join(root, source)) <= builtAt);
}

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
