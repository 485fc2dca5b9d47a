import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './harness.ts';

// An editor changes a testimonial and builds: the page shows the new words. The edit is made in a
// copy of src/content (CONTENT_DIR, which src/content.config.ts and the check both read), built
// with the real Astro config into a temporary outDir and cacheDir, so the real content, build/ and
// Astro's content cache are never touched. It is the whole `astro build` of the site, ~4 s here:
// no narrower path would prove that the content reaches the page the way a release builds it.

const root = join(import.meta.dirname, '..', '..');
const contentDir = join(root, 'src', 'content');
const work = mkdtempSync(join(tmpdir(), 'coinfair-content-build-'));
const outDir = join(work, 'out');
const quote = `Edited in a content file at ${new Date().toISOString()}: escrow kept my first trade safe.`;
const germanQuote = 'Bearbeitet in einer Inhaltsdatei: Treuhand hat meinen ersten Trade geschützt.';

/** A digest of every file under a folder, to prove the real content is left as it was. */
function digest(dir: string): string {
  const hash = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else hash.update(path).update(readFileSync(path));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.svg': 'image/svg+xml',
};

let browser: Browser;
const before = digest(contentDir);

beforeAll(async () => {
  // The prerender step imports the built server chunks from outDir: they find packages here.
  symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'), 'dir');
  const content = join(work, 'content');
  cpSync(contentDir, content, { recursive: true });
  const edit = (file: string, from: RegExp, to: string) => {
    const path = join(content, 'testimonials', file);
    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(from);
    writeFileSync(path, text.replace(from, to));
  };
  // The first testimonial's quote, as an editor would change it, in English and in German.
  edit('en.yaml', /(\n {4}quote: ).*/, `$1"${quote}"`);
  edit('de.yaml', /(\n {4}quote: ).*/, `$1"${germanQuote}"`);

  // Astro joins --config to the project root, so it is given relative to it.
  const config = join(work, 'astro.config.mjs');
  writeFileSync(
    config,
    `import config from ${JSON.stringify(join(root, 'astro.config.mjs'))};\n` +
      `export default { ...config, outDir: ${JSON.stringify(outDir)}, cacheDir: ${JSON.stringify(join(work, 'cache'))} };\n`,
  );
  // As scripts/build.ts does: the content check first, then Astro.
  // NODE_ENV: a release build's, not Vitest's `test`.
  const env = { ...process.env, CONTENT_DIR: content, ASTRO_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' };
  await promisify(execFile)(process.execPath, [join(root, 'scripts', 'check-content.ts')], { cwd: root, env });
  const started = performance.now();
  await promisify(execFile)(
    join(root, 'node_modules', '.bin', 'astro'),
    ['build', '--silent', '--config', relative(root, config)],
    {
      cwd: root,
      env,
    },
  );
  console.log(`content test: astro build of the edited copy took ${Math.round(performance.now() - started)} ms`);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

/** The temporary build's pages, served to the browser from its folder (no server, no port). */
async function open(path: string) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addCookies([{ name: 'cookie_settings', value: '11111111', url: 'http://content.test' }]);
  await context.route('http://content.test/**', async (route) => {
    let file = join(outDir, 'client', decodeURIComponent(new URL(route.request().url()).pathname));
    if (!extname(file)) file = join(file, 'index.html');
    if (!existsSync(file)) return route.fulfill({ status: 404, body: 'not found' });
    return route.fulfill({ body: readFileSync(file), contentType: types[extname(file)] ?? 'application/octet-stream' });
  });
  const page = await context.newPage();
  await page.goto(`http://content.test${path}`, { waitUntil: 'load' });
  return page;
}

describe('an edited testimonial after a build', () => {
  it('shows on the English home page, first in the slider', async () => {
    const page = await open('/');
    const first = page.locator('[data-track] .slide').first();
    expect(await first.locator('blockquote').textContent()).toContain(quote);
    expect(await first.locator('blockquote').isVisible()).toBe(true);
    expect(await first.locator('.name').textContent()).toBe('Adaeze O.');
    await page.context().close();
  });

  it('shows in the language whose file was edited, and only there', async () => {
    const german = await open('/de/');
    expect(await german.locator('[data-track] .slide blockquote').first().textContent()).toContain(germanQuote);
    await german.context().close();
    const french = await open('/fr/');
    const frenchQuotes = await french.locator('[data-track] blockquote').allTextContents();
    expect(frenchQuotes.join('\n')).not.toContain('Edited in a content file');
    expect(frenchQuotes).toHaveLength(6);
    await french.context().close();
  });

  it('left the real content as it was', () => {
    expect(digest(contentDir)).toBe(before);
  });
});
