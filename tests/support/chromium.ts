import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

/**
 * Debian's headless shell (package chromium-headless-shell: the same Chromium release, built
 * without the browser's own windows and user interface, the build Playwright itself uses for
 * headless tests) when it is installed, else Debian's full Chromium. The shell spends a fifth of
 * the CPU on each browser context and halves the browser suite's time (decision 171).
 * `CHROMIUM_PATH` names another.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM_EXECUTABLE =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/** Debian's Chromium with the flags these machines need (no network, no sandbox as root). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_EXECUTABLE,
    args: CHROMIUM_ARGS,
  });
  if (process.env.SCREENSHOTS === 'off') await skipScreenshots(browser);
  return browser;
}

/**
 * SCREENSHOTS=off (CI: .ci/run): pages and elements are still opened, laid out and checked, but
 * not photographed. The pictures are for a person to look at after a local run; on CI nobody
 * opens them, and encoding a full page costs a second of the two cores each, a fifth of the
 * browser suite's time (docs/decisions/163-ci-skips-screenshots.md).
 */
async function skipScreenshots(browser: Browser): Promise<void> {
  const page = await browser.newPage();
  const none = async () => Buffer.alloc(0);
  const prototypes = [page, page.locator('body'), await page.$('html')].map((object) => Object.getPrototypeOf(object));
  for (const prototype of prototypes) (prototype as Pick<Page, 'screenshot'>).screenshot = none;
  await page.close();
}
