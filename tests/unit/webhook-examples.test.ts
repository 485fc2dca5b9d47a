import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseLike } from '../../db/database.ts';
import type { PersonContext } from '../../server/services/context.ts';
import type { TradeAction, TradeChangedPayload, TradeRole } from '../../server/services/notifications/trade-events.ts';
import { createAddressGuard } from '../../server/services/webhooks/address-guard.ts';
import type { WebhooksDeps } from '../../server/services/webhooks/deps.ts';
import { sendTest } from '../../server/services/webhooks/log.ts';
import { deliveryOf, type WebhookEvent } from '../../server/services/webhooks/outbox.ts';
import {
  type ChatLine,
  chatEvents,
  depositEvent,
  feedbackEvent,
  tradeChangeEvents,
} from '../../server/services/webhooks/payloads.ts';
import type { DeliveryRow, NewDelivery, WebhookRow } from '../../server/services/webhooks/repository.ts';
import { type SigningSecrets, signatureHeaders } from '../../server/services/webhooks/signing.ts';
import { postWebhook, WEBHOOK_TIMEOUT_MS } from '../../server/services/webhooks/transport.ts';
import { CHALLENGE_HEADER, challengeUrl } from '../../server/services/webhooks/verify.ts';
import {
  LIBRARY_CALL,
  LIBRARY_RECEIVER,
  PLAIN_CALL,
  PLAIN_VERIFY,
  WEBHOOK_EXAMPLE_NAMES,
  WEBHOOK_EXAMPLES,
  WEBHOOK_FACTS,
} from '../../src/lib/shared/webhook-examples.ts';
import { WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT, WEBHOOK_VERIFY_EVENT } from '../../src/lib/shared/webhooks.ts';

// The /developers page cannot drift from the server (issue 21): every example body has the shape
// the server's own builders give (same keys, recursively, same value types), every event has an
// example, the facts the page states are the code's, and both receivers the page offers are run
// here against requests the server's signing code signed and its transport posted.

const root = join(import.meta.dirname, '..', '..');
const url = (path: string) => `https://coinfair.example${path}`;

type Shape = string | Shape[] | { [key: string]: Shape };
/** A JSON value's keys, recursively, with each leaf's type in place of its value. */
function shape(value: unknown): Shape {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.map(shape);
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
  return typeof value;
}

const change = (
  action: TradeAction,
  previousStatus: string | null,
  status: string,
  actorRole: TradeRole,
): TradeChangedPayload => ({
  tradeHash: 'x7KpQ2mVb9L',
  action,
  status,
  previousStatus,
  actorId: actorRole === 'buyer' ? 1 : 2,
  actorRole,
  buyerId: 1,
  sellerId: 2,
  ownerId: 2,
  responderId: 1,
  buyerUsername: 'satoshi_fan',
  sellerUsername: 'nordic_vendor',
  link: '/trade/x7KpQ2mVb9L',
  fiatAmount: '150.00',
  currency: 'EUR',
  cryptoAmount: '0.00165000',
  cryptoCurrency: 'BTC',
  at: Date.now(),
});

const line = (attachment: ChatLine['attachment']): ChatLine => ({
  tradeHash: 'x7KpQ2mVb9L',
  buyerId: 1,
  sellerId: 2,
  authorId: 1,
  author: 'satoshi_fan',
  authorRole: 'buyer',
  messageId: 4812,
  text: attachment ? '' : 'Paid.',
  attachment,
  at: Date.now(),
});

const sampleDeposit = (confirmations: number) => ({
  userId: 2,
  publicId: 'chn_4fTq9ZbLw2XcR8Ke',
  currency: 'BTC' as const,
  network: 'bitcoin',
  amount: 1_500_000,
  txid: 'ab'.repeat(32),
  confirmations,
  requiredConfirmations: 2,
});

/** Every event the builders make from the sample changes above. */
const built: WebhookEvent[] = [
  ...tradeChangeEvents(change('started', null, 'active_funded', 'buyer'), url),
  ...tradeChangeEvents(change('paid', 'active_funded', 'paid', 'buyer'), url),
  ...tradeChangeEvents(change('expired', 'active_funded', 'cancelled_system', 'system'), url),
  ...tradeChangeEvents(change('released', 'paid', 'released', 'seller'), url),
  ...tradeChangeEvents(change('disputed', 'paid', 'dispute_open', 'buyer'), url),
  ...tradeChangeEvents(change('resolved', 'dispute_open', 'dispute_won_seller', 'moderator'), url),
  ...tradeChangeEvents(change('reopened', 'dispute_won_seller', 'dispute_open', 'moderator'), url),
  ...chatEvents(line(null), url),
  ...chatEvents(line({ id: 'att_Vn3xR7pQk2Lm8sTd', contentType: 'image/jpeg' }), url),
  feedbackEvent(
    { tradeHash: 'x7KpQ2mVb9L', toId: 2, from: 'satoshi_fan', rating: 'positive', message: 'Ok', at: 0 },
    url,
  ),
  depositEvent(sampleDeposit(0), 'pending'),
  depositEvent(sampleDeposit(2), 'confirmed'),
];

/** The exact body the outbox stores for an event (and the delivery job posts). */
const bodyOf = (event: WebhookEvent) => JSON.parse(deliveryOf(event, Date.now()).payload) as Record<string, unknown>;

const merchant = { auth: { user: { id: 2, isMerchant: true, username: 'nordic_vendor' } } } as unknown as PersonContext;
/** What `immediate` needs of a database: run the body, then what it queued for after the commit. */
const fakeDb = {
  orm: {},
  sql: { transaction: async (body: (afterCommit: (f: () => void) => void) => unknown) => body((f) => f()) },
} as unknown as DatabaseLike;
const secrets = (secret: string): WebhookRow => ({
  userId: 2,
  url: null,
  enabled: 1,
  disabledReason: null,
  secret,
  previousSecret: null,
  previousSecretUntil: null,
  verifiedUrl: null,
  verifiedAt: null,
});

/** The webhook.test body, through the route's own verb with a stand-in repository. */
async function testEventBody() {
  const stored: NewDelivery[] = [];
  const repo = {
    db: fakeDb,
    webhook: async () => secrets('whsec_AAAA'),
    insertDeliveries: async (rows: NewDelivery[]) => void stored.push(...rows),
    delivery: async () => ({ ...stored[0], id: 1, status: 'pending', attempts: 0, createdAt: 0 }) as DeliveryRow,
  };
  const deps = { repo, outbox: { wakeAfter: () => {} }, now: Date.now } as unknown as WebhooksDeps;
  await sendTest(deps, merchant);
  return JSON.parse(stored[0]?.payload ?? '{}') as Record<string, unknown>;
}

/** Runs the real challenge against `post`; answers the request it made. */
async function challengeRequest(post: WebhooksDeps['post'], secret = 'whsec_AAAA', url = 'http://127.0.0.1:9/hook') {
  const repo = { webhook: async () => secrets(secret), markVerified: async () => {} };
  const guard = createAddressGuard({ allowLocal: true });
  return challengeUrl({ repo, guard, post, now: Date.now } as unknown as WebhooksDeps, 2, url);
}

describe('example bodies', () => {
  it('has one for every event a webhook follows, the test event and the challenge, and no other', () => {
    expect([...WEBHOOK_EXAMPLE_NAMES].sort()).toEqual(
      [...WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT, WEBHOOK_VERIFY_EVENT].sort(),
    );
    expect(Object.keys(WEBHOOK_EXAMPLES).sort()).toEqual([...WEBHOOK_EXAMPLE_NAMES].sort());
    for (const name of WEBHOOK_EXAMPLE_NAMES) expect(WEBHOOK_EXAMPLES[name].type, name).toBe(name);
  });

  it.each(WEBHOOK_EVENTS)('%s has the shape the server builds', (name) => {
    const example = WEBHOOK_EXAMPLES[name] as { data: Record<string, unknown> };
    const candidates = built.filter((event) => event.type === name).map(bodyOf);
    expect(candidates.length, `no sample change builds ${name}`).toBeGreaterThan(0);
    // Trade events go to both parties: compare with the copy of the side the example shows.
    const body = candidates.find((b) => (b.data as { role?: unknown }).role === example.data.role) ?? candidates[0];
    expect(shape(WEBHOOK_EXAMPLES[name])).toStrictEqual(shape(body));
  });

  it('webhook.test has the shape the test verb sends', async () => {
    expect(shape(WEBHOOK_EXAMPLES['webhook.test'])).toStrictEqual(shape(await testEventBody()));
  });

  it('webhook.verify has the shape of the challenge request, which carries the header the page names', async () => {
    let sent: { body: string; headers: Record<string, string> } | undefined;
    await challengeRequest(async (_target, body, headers) => {
      sent = { body, headers };
      const challenge = headers[CHALLENGE_HEADER] as string;
      return {
        status: 200,
        headers: { [CHALLENGE_HEADER]: challenge },
        body: '',
        latencyMs: 1,
        failure: null,
        error: null,
      };
    });
    expect(shape(WEBHOOK_EXAMPLES['webhook.verify'])).toStrictEqual(shape(JSON.parse(sent?.body ?? '{}')));
    expect(WEBHOOK_FACTS.challengeHeader.toLowerCase()).toBe(CHALLENGE_HEADER);
    expect(Object.keys(sent?.headers ?? {}).sort()).toEqual(
      [CHALLENGE_HEADER, 'webhook-id', 'webhook-signature', 'webhook-timestamp'].sort(),
    );
  });

  it('states the server timeout the transport keeps', () => {
    expect(WEBHOOK_FACTS.timeoutSeconds * 1000).toBe(WEBHOOK_TIMEOUT_MS);
  });
});

// ------------------------------------------------------------------------------------------------
// The receivers the page offers, run as written.

const SECRET = `whsec_${Buffer.from('a secret of 24 bytes!!!!').toString('base64')}`;
const OLD_SECRET = `whsec_${Buffer.from('the one before, 24 bytes').toString('base64')}`;
const signing = (secret: string, previous: string | null = null): SigningSecrets => ({
  secret,
  previousSecret: previous,
  previousSecretUntil: previous ? Date.now() + 3_600_000 : null,
});
const anEvent = () => deliveryOf(built[0] as WebhookEvent, Date.now());

let dir: string;
let plain: { verify(secret: string, headers: Record<string, string>, body: string): unknown };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coinfair-webhook-snippets-'));
  // The receivers import `standardwebhooks` as a merchant's project would: from its node_modules.
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'plain-verify.mjs'), PLAIN_VERIFY);
  plain = await import(pathToFileURL(join(dir, 'plain-verify.mjs')).href);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the receiver without a library', () => {
  it('accepts what the server signs, with either secret during a rotation, as the library does', () => {
    const { payload, messageId } = anEvent();
    const one = signatureHeaders(signing(SECRET), messageId, Date.now(), payload);
    expect(plain.verify(SECRET, one, payload)).toEqual(JSON.parse(payload));
    expect(new Webhook(SECRET).verify(payload, one)).toEqual(JSON.parse(payload));
    const two = signatureHeaders(signing(SECRET, OLD_SECRET), messageId, Date.now(), payload);
    expect(two['webhook-signature'].split(' ')).toHaveLength(2);
    expect(plain.verify(SECRET, two, payload)).toEqual(JSON.parse(payload));
    expect(plain.verify(OLD_SECRET, two, payload)).toEqual(JSON.parse(payload));
  });

  it('refuses a changed body, another secret, a stale or future or missing timestamp, a bad signature', () => {
    const { payload, messageId } = anEvent();
    const now = Date.now();
    const headers = signatureHeaders(signing(SECRET), messageId, now, payload);
    expect(() => plain.verify(SECRET, headers, payload.replace('trade', 'trady'))).toThrow();
    expect(() => plain.verify(OLD_SECRET, headers, payload)).toThrow();
    for (const at of [now - 6 * 60_000, now + 6 * 60_000])
      expect(() => plain.verify(SECRET, signatureHeaders(signing(SECRET), messageId, at, payload), payload)).toThrow();
    expect(() => plain.verify(SECRET, { ...headers, 'webhook-timestamp': 'soon' }, payload)).toThrow();
    expect(() => plain.verify(SECRET, { ...headers, 'webhook-signature': 'v1,é' }, payload)).toThrow();
    expect(() => plain.verify(SECRET, { ...headers, 'webhook-signature': 'v2,abc v1' }, payload)).toThrow();
    const { 'webhook-id': _, ...noId } = headers;
    expect(() => plain.verify(SECRET, noId, payload)).toThrow();
  });
});

/** A free port on 127.0.0.1. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) child.kill();
});

/** Runs a receiver's text with node on a free port; its output and where it listens. */
async function runReceiver(file: string, text: string) {
  expect(text).toContain('.listen(3000)');
  writeFileSync(join(dir, file), text.replace('.listen(3000)', '.listen(Number(process.env.PORT))'));
  const port = await freePort();
  const child = spawn(process.execPath, [join(dir, file)], {
    cwd: dir,
    env: { ...process.env, PORT: String(port), COINFAIR_WEBHOOK_SECRET: SECRET },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const target = { url: new URL(`http://127.0.0.1:${port}/hook`), address: '127.0.0.1', family: 4 as const };
  for (let i = 0; i < 100; i++) {
    const probe = await postWebhook(target, '', {}, 200);
    if (probe.status !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { target, output, port };
}

/** The challenge, a delivery, its repeat and a forgery, posted by the server's own code. */
async function exercise(receiver: Awaited<ReturnType<typeof runReceiver>>) {
  // The real challenge, posted by the real transport: it passes only when the answer echoes it.
  const passed = await challengeRequest(postWebhook, SECRET, receiver.target.url.href).then(
    () => 'passed',
    (error: Error) => error.message,
  );
  const { payload, messageId } = anEvent();
  const send = (body: string, secret = SECRET) =>
    postWebhook(receiver.target, body, signatureHeaders(signing(secret), messageId, Date.now(), body));
  return {
    passed,
    first: (await send(payload)).status,
    repeat: (await send(payload)).status,
    forged: (await send(payload, OLD_SECRET)).status,
    changed: (
      await postWebhook(
        receiver.target,
        payload.replace('trade', 'trady'),
        signatureHeaders(signing(SECRET), messageId, Date.now(), payload),
      )
    ).status,
  };
}

describe('the receivers as a merchant runs them', () => {
  it('the standardwebhooks one passes the challenge, takes an event once, and refuses forgeries', async () => {
    const receiver = await runReceiver('library-receiver.mjs', LIBRARY_RECEIVER);
    expect(await exercise(receiver)).toEqual({ passed: 'passed', first: 204, repeat: 204, forged: 401, changed: 401 });
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.output.join('').match(/trade\.started/g)).toHaveLength(1);
  });

  it('the same receiver with the plain check in place of the library passes the same', async () => {
    const importLine = "import { Webhook } from 'standardwebhooks';\n";
    const secretLine = /const webhook = new Webhook\(.*\n/;
    expect(LIBRARY_RECEIVER).toContain(importLine);
    expect(LIBRARY_RECEIVER).toMatch(secretLine);
    expect(LIBRARY_RECEIVER).toContain(LIBRARY_CALL);
    const text = LIBRARY_RECEIVER.replace(importLine, "import { verify } from './plain-verify.mjs';\n")
      .replace(secretLine, '')
      .replace(LIBRARY_CALL, PLAIN_CALL);
    const receiver = await runReceiver('plain-receiver.mjs', text);
    expect(await exercise(receiver)).toEqual({ passed: 'passed', first: 204, repeat: 204, forged: 401, changed: 401 });
  });
});
