// A newcomer's first `npm start` (issue 22): a copy of this checkout with no build and no
// database, its node_modules shared but an empty precompress cache, as on a fresh clone after
// `npm install`. Timed from the command to the first page answered. One run: it builds. The load
// average is printed with it, since the Astro build is most of the time and slows on a busy machine.
//
//   node tests/bench/first-start.ts        (part of npm run bench)
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const GOAL_MS = 10_000;
const work = mkdtempSync(join(tmpdir(), 'coinfair-first-start-'));
const copy = join(work, 'clone');

// The files a clone would hold (tracked, and new ones not ignored), as they are in this checkout.
const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root })
  .toString()
  .split('\0')
  .filter(Boolean);
for (const file of tracked) {
  const target = join(copy, file);
  mkdirSync(dirname(target), { recursive: true });
  try {
    writeFileSync(target, readFileSync(join(root, file)));
  } catch {
    // Listed but deleted in the working tree: a clone of the commit would have it, the change not.
  }
}
symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));

const load = loadavg()[0]?.toFixed(2);
const started = performance.now();
const child = spawn(process.execPath, [join(copy, 'scripts/start.ts')], {
  cwd: copy,
  env: {
    ...process.env,
    PORT: '0',
    DATABASE_URL: join(work, 'marketplace.db'),
    COINFAIR_PRECOMPRESS_CACHE: join(work, 'precompress-cache'),
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const compressed = new Promise<void>((resolve) => {
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
    if (/Assets compressed/.test(out)) resolve();
  });
});
try {
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the first start took over 3 minutes')), 180_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`start exited with ${code}:\n${out}`)));
  });
  const page = await fetch(url);
  if (!page.ok) throw new Error(`the first page answered ${page.status}`);
  await page.arrayBuffer();
  const ms = performance.now() - started;
  // The assets are compressed once the server answers (decision 127): until then they go out whole.
  await compressed;
  const compressedMs = performance.now() - started;
  console.log(
    `\nFirst start on a fresh clone (no build, no database; node scripts/start.ts → first page): ` +
      `${Math.round(ms)} ms, load average ${load} before (goal < ${GOAL_MS} ms: ${ms < GOAL_MS ? 'met' : 'NOT met'}); ` +
      `assets compressed at ${Math.round(compressedMs)} ms`,
  );
} finally {
  child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
