import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';

// What the screen tests check of every page besides their own story, and where their screenshots
// go. Untranslated keys are found by harness.ts's untranslatedKeys, with a pattern made here.

const root = join(import.meta.dirname, '..', '..');

/** test-results/ for the newer files; screenshots/ (git-ignored) where the trade files have always put theirs. */
export type ShotFolder = 'test-results' | 'screenshots';

/** The path of screenshot `file` in `folder`, the folder made: a person looks at them after the run. */
export function shotPath(file: string, folder: ShotFolder = 'test-results'): string {
  const dir = join(root, folder);
  mkdirSync(dir, { recursive: true });
  return join(dir, file);
}

/** `shot(page, name)`: a full-page screenshot to <folder>/<prefix>-<name>.png, so a file's pictures sort together. */
export const screenshotter =
  (prefix: string, folder: ShotFolder = 'test-results') =>
  async (page: Page, name: string, fullPage = true): Promise<void> => {
    await page.screenshot({ path: shotPath(`${prefix}-${name}.png`, folder), fullPage });
  };

/** Whether the page scrolls sideways: on a phone that hides half of what the person came for. */
export const overflowsSideways = (page: Page): Promise<boolean> =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** The message keys under `prefixes`, for untranslatedKeys: a missing message shows as its key. */
export function messageKeys(...prefixes: string[]): RegExp {
  const areas = prefixes.map((prefix) => prefix.replaceAll('.', '\\.')).join('|');
  return new RegExp(`\\b(?:${areas})\\.[a-z][\\w.-]*`, 'g');
}

/** The problems but Chromium's "status of N" line for each status the test causes on purpose. */
export const problemsBut = (problems: string[], statuses: number[]): string[] =>
  problems.filter((text) => !statuses.some((status) => text.includes(`status of ${status}`)));

/**
 * A public page as a visitor opens it (cookie choice made, so the banner covers nothing), its
 * console errors and uncaught errors collected, resolved once `ready` matches (a script's state
 * attribute, say). `bypassCSP` for axe-core, which is injected inline.
 */
export async function openPublicPage(
  live: { browser: Browser; server: { url: string } },
  path: string,
  ready: string,
  { width = 1440, dark = false, bypassCSP = false } = {},
): Promise<{ page: Page; problems: string[] }> {
  const context = await live.browser.newContext({
    viewport: { width, height: 900 },
    colorScheme: dark ? 'dark' : 'light',
    bypassCSP,
  });
  await context.addCookies([{ name: 'cookie_settings', value: '11111111', url: live.server.url }]);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(live.server.url + path);
  await page.locator(ready).waitFor();
  return { page, problems };
}
