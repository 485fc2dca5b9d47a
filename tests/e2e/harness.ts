import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { staleBuildReason } from '../../scripts/build-freshness.ts';
import { chainCommands } from '../../server/admin/chain-commands.ts';
import { readConfig } from '../../server/config.ts';
import type { RunningServer, StartOptions } from '../../server/main.ts';
import { createOutboxRepository } from '../../server/services/messaging/outbox.ts';
import { solveChallenge } from '../../src/lib/shared/proof-of-work.ts';
import { launchBrowser } from '../support/chromium.ts';
import { createSqliteTestDb } from '../support/test-db.ts';

export { launchBrowser };

// Browser tests run against the artifact `npm start` serves (build/), never against sources.

const root = join(import.meta.dirname, '..', '..');
const buildDir = join(root, 'build');

/** The built server on a free port over a private copy of the template database. */
export async function startServer(
  env: Record<string, string> = {},
  options: Pick<StartOptions, 'logs'> = {},
): Promise<{
  url: string;
  /** METRICS_PORT's listener, when the test configured one. */
  metricsUrl: string | undefined;
  /** The newest e-mail to `recipient` in the server's outbox (its database, read beside it). */
  latestMail(recipient: string): Promise<{ subject: string; text: string } | undefined>;
  /** Runs a statement on the server's database, for states no page can reach (an owner gone offline). */
  sql(statement: string, ...params: unknown[]): void;
  /** One row of a query on the server's database. */
  row<T>(statement: string, ...params: unknown[]): T | undefined;
  /** The operator's simulated-chain commands (`npm run admin -- chain:…`) on the server's database. */
  chain: ReturnType<typeof chainCommands>;
  /** The running server's event bus and services (publish a domain event, notify someone). */
  backend: RunningServer['backend'];
  stop(): Promise<void>;
}> {
  const bundle = join(buildDir, 'app', 'main.js');
  // Browser tests test what `npm start` serves; an older build would test old code.
  const stale = staleBuildReason();
  if (stale) throw new Error(`The build is not current (${stale}): run \`npm run build\` first (\`npm test\` does).`);
  const { startServer: start } = (await import(pathToFileURL(bundle).href)) as {
    startServer(options: StartOptions): Promise<RunningServer>;
  };
  const testDb = createSqliteTestDb();
  // Only problems in the test's output: a line per request would bury them.
  const config = readConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: testDb.path, LOG_LEVEL: 'warn', ...env });
  const running = await start({
    config,
    buildDir,
    log: { info: () => {}, error: (m, e) => console.error(m, e) },
    ...options,
  });
  const outbox = createOutboxRepository(testDb.db);
  let chain: ReturnType<typeof chainCommands> | undefined;
  return {
    url: running.url,
    metricsUrl: running.metricsUrl,
    backend: running.backend,
    latestMail: async (recipient) => outbox.latestFor(recipient, 'email'),
    sql: (statement, ...params) => {
      testDb.db.$client.prepare(statement).run(...params);
    },
    row: <T>(statement: string, ...params: unknown[]) =>
      testDb.db.$client.prepare(statement).get(...params) as T | undefined,
    // Made on first use: most test files never touch the chain.
    get chain() {
      chain ??= chainCommands(testDb.db);
      return chain;
    },
    async stop() {
      await running.stop();
      testDb.close();
    },
  };
}

/** A fresh page at the given width (context per page: no cookies leak between tests). */
export async function openPage(browser: Browser, width = 1440, height = 900): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height } });
  return context.newPage();
}

/**
 * The built server and one Chromium for a whole test file, started before its tests and stopped
 * after them: `const live = serverAndBrowser();` then `live.server.url`, `live.browser`.
 */
/** Waits for `work` at most `ms`; past that, says `what` on stderr and goes on. */
async function within(work: Promise<unknown> | undefined, ms: number, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      console.error(`e2e teardown: ${what} within ${ms / 1000} s`);
      resolve();
    }, ms);
  });
  await Promise.race([work, late]);
  clearTimeout(timer);
}

export function serverAndBrowser(env: Record<string, string> = {}) {
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(env);
    browser = await launchBrowser();
  });
  // Teardown is bounded step by step, as `npm start`'s own shutdown is (10 s): a browser or server
  // that does not close in time is named in the log instead of failing a file whose tests passed.
  afterAll(async () => {
    await within(browser?.close(), 20_000, 'the browser did not close');
    await within(server?.stop(), 20_000, 'the test server did not stop');
  }, 60_000);
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('serverAndBrowser() is used before its beforeAll ran.');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get browser() {
      return started(browser);
    },
  };
}

/**
 * `path` in a fresh context at `width`, the cookie choice already made so the banner stays away
 * (a context per page: no cookies leak between tests).
 */
export async function openConsented(
  live: { server: { url: string }; browser: Browser },
  path: string,
  { width = 1440, ...options }: BrowserContextOptions & { width?: number } = {},
): Promise<Page> {
  const context = await live.browser.newContext({ viewport: { width, height: 900 }, ...options });
  await context.addCookies([{ name: 'cookie_settings', value: '11111111', url: live.server.url }]);
  const page = await context.newPage();
  await page.goto(live.server.url + path);
  return page;
}

export async function cookieValue(page: Page, name: string): Promise<string | undefined> {
  return (await page.context().cookies()).find((c) => c.name === name)?.value;
}

type Live = { server: { url: string } };

/** A JSON call from the page's context (its cookies and user agent), as our scripts make it. */
export async function postFromPage(live: Live, page: Page, path: string, data: Record<string, unknown>) {
  return page.request.post(`${live.server.url}${path}`, {
    headers: { 'X-CSRF-Token': (await cookieValue(page, 'XSRF-TOKEN')) ?? '', Origin: live.server.url },
    data,
  });
}

/** The security check's fields, solved here as the page's script would (the answer brings the CSRF cookie). */
export async function solvedChallenge(live: Live, page: Page) {
  const issued = await page.request.get(`${live.server.url}/rest/v1/auth/challenge`);
  const { challenge, difficulty } = (await issued.json()).data as { challenge: string; difficulty: number };
  const { nonce, seccode } = await solveChallenge(challenge, difficulty);
  return { geetest_challenge: challenge, geetest_validate: nonce, geetest_seccode: seccode };
}

/** An account made through the API from the page's context; that browser is its first, trusted device. */
export async function registerThroughApi(live: Live, page: Page, email: string, password: string): Promise<void> {
  const fields = await solvedChallenge(live, page);
  const res = await postFromPage(live, page, '/rest/v1/auth/register', { email, password, ...fields });
  expect(res.status()).toBe(201);
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical violations on the page (or inside `include`, a selector), as
 * "rule: targets" lines. The page's context needs `bypassCSP: true`: axe is injected as an inline
 * script, which the pages' policy rightly refuses.
 */
export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async (context) => {
    const { violations } = await (
      window as unknown as {
        axe: {
          run(
            context?: unknown,
          ): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe.run(context ? { include: [context] } : undefined);
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }, include);
}

/** Message keys of the trade page and what it shows from other areas (tags, errors, notifications). */
export const TRADE_KEYS = /\b(?:offer|trade|errors|notifications|bank|gift)\.[a-z][\w.-]*/g;

/**
 * Message keys that reached the screen untranslated, in `main`'s text or its labels and hints
 * (aria-label, title, placeholder, alt). A missing message shows as its key, never blank
 * (src/lib/shared/i18n/island-messages.ts); `pattern` names the areas' key prefixes.
 */
export async function untranslatedKeys(page: Page, pattern: RegExp = TRADE_KEYS): Promise<string[]> {
  const text = await page.evaluate(() => {
    const main = document.querySelector('main');
    if (!main) return '';
    const attributes = ['aria-label', 'title', 'placeholder', 'alt'];
    const labels = [...main.querySelectorAll('*')].flatMap((el) =>
      attributes.map((name) => el.getAttribute(name)).filter((value): value is string => value !== null),
    );
    // biome-ignore lint/performance/useDomNodeTextContent: what is rendered, with breaks between blocks, so a key after a word still starts a word
    return [main.innerText, ...labels].join('\n');
  });
  return text.match(pattern) ?? [];
}
