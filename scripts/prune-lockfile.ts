// The npm registry these machines reach carries only the linux-x64 builds of packages that ship
// one binary package per platform, so npm cannot record the others in package-lock.json, and
// `npm ci` then calls the lockfile out of sync ("Missing: …-darwin-arm64 from lock file").
// This removes optional-dependency edges to packages the lockfile has no entry for. Run it after
// `npm install` changes the lockfile; on a machine with the full registry, don't.
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8')) as {
  packages: Record<string, { optionalDependencies?: Record<string, string> }>;
};

const present = new Set(Object.keys(lock.packages));
/** npm resolves a dependency from the nearest node_modules up the tree. */
function resolvable(from: string, name: string): boolean {
  let base = from;
  for (;;) {
    if (present.has(`${base ? `${base}/` : ''}node_modules/${name}`)) return true;
    const cut = base.lastIndexOf('/node_modules/');
    if (cut === -1) return base !== '' && present.has(`node_modules/${name}`);
    base = base.slice(0, cut);
  }
}

let removed = 0;
for (const [at, entry] of Object.entries(lock.packages)) {
  if (!entry.optionalDependencies) continue;
  for (const name of Object.keys(entry.optionalDependencies)) {
    if (!resolvable(at, name)) {
      delete entry.optionalDependencies[name];
      removed++;
    }
  }
  if (Object.keys(entry.optionalDependencies).length === 0) delete entry.optionalDependencies;
}
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: removed ${removed} optional edges to packages this registry does not carry.`);
