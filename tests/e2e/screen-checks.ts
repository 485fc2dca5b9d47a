import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

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
