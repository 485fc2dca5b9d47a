// Whether build/ holds what the sources say: `npm start` builds when it does not, and the browser
// tests refuse to run against an older build (they would test old code).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = new URL('..', import.meta.url).pathname;
export const BUILD_DIR = join(ROOT, 'build');
const STAMP = join(BUILD_DIR, 'build-info.json');
// docs/api.md too: the developers' page shows its bot example.
const SOURCES = ['src', 'server', 'db', 'locales', 'public', 'astro.config.mjs', 'package-lock.json', 'docs/api.md'];

/** The newest file under `path` and when it changed. */
function newestChange(path: string): { path: string; at: number } {
  if (!existsSync(path)) return { path, at: 0 };
  const stat = statSync(path);
  if (!stat.isDirectory()) return { path, at: stat.mtimeMs };
  return readdirSync(path).reduce(
    (newest, name) => {
      const inner = newestChange(join(path, name));
      return inner.at > newest.at ? inner : newest;
    },
    { path, at: stat.mtimeMs },
  );
}

/** Why the build is not current (a source newer than it, or no build), or undefined when it is. */
export function staleBuildReason(): string | undefined {
  if (!existsSync(STAMP) || !existsSync(join(BUILD_DIR, 'app/main.js'))) return 'there is no build';
  const builtAt = statSync(STAMP).mtimeMs;
  for (const source of SOURCES) {
    const newest = newestChange(join(ROOT, source));
    if (newest.at > builtAt) return `${newest.path.slice(ROOT.length)} changed after the last build`;
  }
  return undefined;
}

export function buildIsCurrent(): boolean {
  return staleBuildReason() === undefined;
}
