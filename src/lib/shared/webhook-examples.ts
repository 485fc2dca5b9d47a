import { WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT, WEBHOOK_VERIFY_EVENT, type WebhookEventName } from './webhooks.ts';

// What the /developers page shows of merchants' webhooks (issue 21): one example body per event,
// exactly as the server sends it, and the receivers it offers to copy. Made up values, real
// shapes: tests/unit/webhook-examples.test.ts builds every body with the server's own builders
// (server/services/webhooks/payloads.ts) and fails when a key or a value's type differs, and runs
// both receivers against requests signed by server/services/webhooks/signing.ts.

/** Every example the page shows: the events a webhook follows, the test event, the challenge. */
export type WebhookExampleName = WebhookEventName | typeof WEBHOOK_TEST_EVENT | typeof WEBHOOK_VERIFY_EVENT;

export const WEBHOOK_EXAMPLE_NAMES: readonly WebhookExampleName[] = [
  ...WEBHOOK_EVENTS,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_VERIFY_EVENT,
];

/** A delivery's body: `{ type, timestamp, data }`; the challenge's: `{ type, timestamp, challenge }`. */
export type WebhookExampleBody =
  | { type: string; timestamp: string; data: Record<string, unknown> }
  | { type: typeof WEBHOOK_VERIFY_EVENT; timestamp: string; challenge: string };

/** Facts of the server the page states; the unit test holds each to the code it comes from. */
export const WEBHOOK_FACTS = {
  /** server/services/webhooks/verify.ts, CHALLENGE_HEADER (HTTP header names ignore case). */
  challengeHeader: 'X-Webhook-Challenge',
  /** server/services/webhooks/transport.ts, WEBHOOK_TIMEOUT_MS. */
  timeoutSeconds: 5,
  /** The Standard Webhooks libraries' tolerance, which the receivers below keep too. */
  toleranceMinutes: 5,
  secretPrefix: 'whsec_',
  contentType: 'application/json',
} as const;

const ORIGIN = 'https://coinfair.example';
const TIMESTAMP = '2026-05-14T09:21:07.412Z';
/** TIMESTAMP in Unix seconds: when the change happened (`data.at`). */
const AT = 1778750467;
const HASH = 'x7KpQ2mVb9L';
const tradeLink = { hash: HASH, url: `${ORIGIN}/trade/${HASH}` };

type Party = 'buyer' | 'seller';
type Actor = Party | 'moderator' | 'system';

/** A trade event's body, as one of the two parties receives it. */
const tradeEvent = (
  type: WebhookEventName,
  [previousStatus, status]: [string | null, string],
  role: Party,
  actor: Actor,
  extra: Record<string, unknown> = {},
): WebhookExampleBody => ({
  type,
  timestamp: TIMESTAMP,
  data: {
    trade: {
      ...tradeLink,
      status,
      previousStatus,
      buyer: 'satoshi_fan',
      seller: 'nordic_vendor',
      fiatAmount: '150.00',
      currency: 'EUR',
      cryptoAmount: '0.00165000',
      cryptoCurrency: 'BTC',
    },
    role,
    actor,
    at: AT,
    ...extra,
  },
});

const message = (id: number, text: string, attachment: Record<string, unknown> | null) => ({
  id,
  author: 'satoshi_fan',
  authorRole: 'buyer',
  text,
  attachment,
  at: AT,
});

const deposit = (confirmations: number) => ({
  deposit: {
    id: 'chn_4fTq9ZbLw2XcR8Ke',
    currency: 'BTC',
    network: 'bitcoin',
    amount: '0.01500000',
    txid: '9b0f4c2a7e51d3c86a0b2f47e9d15c3a8f6e2b07d4c19a5e3f8b6d20c7a1e594',
    confirmations,
    requiredConfirmations: 2,
  },
});

const event = (type: string, data: Record<string, unknown>): WebhookExampleBody => ({
  type,
  timestamp: TIMESTAMP,
  data,
});

const ATTACHMENT_ID = 'att_Vn3xR7pQk2Lm8sTd';

export const WEBHOOK_EXAMPLES: Record<WebhookExampleName, WebhookExampleBody> = {
  'trade.started': tradeEvent('trade.started', [null, 'active_funded'], 'seller', 'buyer'),
  'trade.chat_message_received': event('trade.chat_message_received', {
    trade: tradeLink,
    message: message(4812, 'Paid by SEPA transfer, reference 7F3K.', null),
  }),
  'trade.attachment_uploaded': event('trade.attachment_uploaded', {
    trade: tradeLink,
    message: message(4813, '', {
      id: ATTACHMENT_ID,
      contentType: 'image/jpeg',
      url: `${ORIGIN}/uploads/trades/${ATTACHMENT_ID}`,
    }),
  }),
  'trade.paid': tradeEvent('trade.paid', ['active_funded', 'paid'], 'seller', 'buyer'),
  'trade.cancelled_or_expired': tradeEvent(
    'trade.cancelled_or_expired',
    ['active_funded', 'cancelled_system'],
    'seller',
    'system',
    { reason: 'expired' },
  ),
  'trade.crypto_sold': tradeEvent('trade.crypto_sold', ['paid', 'released'], 'seller', 'seller'),
  'trade.crypto_bought': tradeEvent('trade.crypto_bought', ['paid', 'released'], 'buyer', 'seller'),
  'trade.dispute_started': tradeEvent('trade.dispute_started', ['paid', 'dispute_open'], 'seller', 'buyer'),
  'trade.dispute_resolved': tradeEvent(
    'trade.dispute_resolved',
    ['dispute_open', 'dispute_won_seller'],
    'seller',
    'moderator',
    { winner: 'seller' },
  ),
  'trade.reopened': tradeEvent('trade.reopened', ['dispute_won_seller', 'dispute_open'], 'buyer', 'moderator'),
  'wallet.deposit_pending': event('wallet.deposit_pending', deposit(0)),
  'wallet.deposit_confirmed': event('wallet.deposit_confirmed', deposit(2)),
  'feedback.received': event('feedback.received', {
    trade: tradeLink,
    from: 'satoshi_fan',
    rating: 'positive',
    message: 'Fast and friendly, thank you!',
    at: AT,
  }),
  'webhook.test': event(WEBHOOK_TEST_EVENT, { message: 'A test event from Coinfair.', username: 'nordic_vendor' }),
  'webhook.verify': { type: WEBHOOK_VERIFY_EVENT, timestamp: TIMESTAMP, challenge: 'q3Zs8Kd1VxN0bT7yLw4PcR2mHf6Ja9Ue' },
};

/** An example body as the page prints it: two-space JSON. */
export const exampleJson = (name: WebhookExampleName) => JSON.stringify(WEBHOOK_EXAMPLES[name], null, 2);

/**
 * A complete receiver with the `standardwebhooks` package: checks the signature and the
 * timestamp, answers the challenge, drops repeats. The unit test runs this very text.
 */
export const LIBRARY_RECEIVER = `import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.COINFAIR_WEBHOOK_SECRET); // whsec_…
const handled = new Set(); // webhook-id of events already handled: keep them in your database

createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = Buffer.concat(chunks).toString('utf8'); // the raw body, unparsed
  let event;
  try {
    event = webhook.verify(body, req.headers); // signature, and a timestamp within 5 minutes
  } catch {
    return res.writeHead(401).end();
  }
  if (event.type === 'webhook.verify') {
    return res.writeHead(200, { 'x-webhook-challenge': event.challenge }).end();
  }
  const id = req.headers['webhook-id'];
  if (!handled.has(id)) {
    handled.add(id);
    console.log(event.type, event.data); // your work here
  }
  res.writeHead(204).end();
}).listen(3000);
`;

/** The library's call in LIBRARY_RECEIVER, and what replaces it with PLAIN_VERIFY. */
export const LIBRARY_CALL = 'webhook.verify(body, req.headers)';
export const PLAIN_CALL = 'verify(process.env.COINFAIR_WEBHOOK_SECRET, req.headers, body)';

/** The same check with node:crypto only; throws as the library does. The unit test runs it. */
export const PLAIN_VERIFY = `import { createHmac, timingSafeEqual } from 'node:crypto';

/** The event, when the request carries a valid signature made with \`secret\`; throws otherwise. */
export function verify(secret, headers, body) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !/^\\d+$/.test(timestamp ?? '') || !signatures) throw new Error('missing headers');
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 5 * 60) throw new Error('too old or too new');
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const hmac = createHmac('sha256', key).update(\`\${id}.\${timestamp}.\${body}\`);
  const expected = Buffer.from(hmac.digest('base64'));
  // During a secret's rotation two signatures come, separated by a space: one must match.
  const valid = signatures.split(' ').some((signature) => {
    const [version, value = ''] = signature.split(',');
    const given = Buffer.from(value);
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!valid) throw new Error('no valid signature');
  return JSON.parse(body);
}
`;
