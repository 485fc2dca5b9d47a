import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { type Browser, tradeFixtures } from '../support/trade-fixtures.ts';

// The bot of docs/api.md, run as written (issue 21): the code block is taken from the document,
// started as its own Node process against this app over HTTP, given a key and a webhook secret. Its
// webhook passes the challenge, a trade marked paid reaches it signed, and the line it writes with
// its key appears in the trade's chat. When the document changes, this runs the new text.

const DOC = resolve(import.meta.dirname, '../../docs/api.md');

let t: TestApp;
let api: ReturnType<typeof serve>;
let bot: ChildProcess | undefined;
let dir: string;

/** The document's one JavaScript block. */
function botSource(): string {
  const block = readFileSync(DOC, 'utf8').match(/```js\n([\s\S]*?)```/);
  if (!block?.[1]) throw new Error('docs/api.md has no ```js block');
  return block[1];
}

const freePort = () =>
  new Promise<number>((done) => {
    const probe: Server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => done(port));
    });
  });

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeEach(async () => {
  t = await createTestApp({ config: { WEBHOOKS_ALLOW_LOCAL: 'on' }, clock: { now: Date.now() } });
  api = serve({ fetch: t.app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise((r) => api.once('listening', r));
  dir = mkdtempSync(join(tmpdir(), 'coinfair-bot-'));
  // The bot imports standardwebhooks as a bot's own project would have it installed.
  symlinkSync(resolve(import.meta.dirname, '../../node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'bot.mjs'), botSource());
});
afterEach(async () => {
  bot?.kill();
  await new Promise((r) => api.close(r));
  rmSync(dir, { recursive: true, force: true });
  await t?.close();
});

it('runs the documented bot: challenge, a signed delivery, and a chat line written with its key', async () => {
  const f = tradeFixtures(t);
  const { vendor, buyer }: { vendor: Browser; buyer: Browser } = await f.openMarket(100_000_000);
  await f.verifyFully('vendor@example.com');
  await f.verifyFully('buyer@example.com');
  await f.sql('UPDATE users SET is_merchant = 1 WHERE id = ?', await f.userId('vendor@example.com'));
  const { key, secret } = (await (await vendor.post('/rest/v1/api-keys', { name: 'Doc bot', scope: 'trade' })).json())
    .data;
  const webhookSecret = (await (await vendor.get('/rest/v1/webhooks')).json()).data.secret;
  const port = await freePort();
  bot = spawn(process.execPath, [join(dir, 'bot.mjs')], {
    env: {
      ...process.env,
      COINFAIR_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}`,
      KEY_ID: key.id,
      KEY_SECRET: secret,
      WEBHOOK_SECRET: webhookSecret,
      PORT: String(port),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // Saving the URL sends the challenge; the bot answers it once it listens.
  await until('the webhook saved', async () => {
    const res = await vendor.post('/rest/v1/webhooks', { url: `http://127.0.0.1:${port}/` });
    return res.ok ? true : undefined;
  });
  const offer = await f.createOffer(vendor);
  const trade = await f.startTrade(buyer, offer, '500');
  await buyer.post(`/rest/v1/trade/${trade.hash}/paid`);
  await t.services.webhookDeliveries.runOnce();
  const line = await until('the bot’s chat line', async () => {
    const messages = (await (await buyer.get(`/rest/v1/trade/${trade.hash}/messages`)).json()).data as {
      text: string;
      role: string;
    }[];
    return messages.find((m) => m.text === 'Payment seen, checking.');
  });
  expect(line.role).toBe('seller');
  const deliveries = (await (await vendor.get('/rest/v1/webhooks/deliveries')).json()).data as {
    event: string;
    status: string;
  }[];
  expect(deliveries.map((d) => [d.event, d.status])).toEqual([
    ['trade.paid', 'delivered'],
    ['trade.started', 'delivered'],
  ]);
});
