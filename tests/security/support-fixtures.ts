import sharp from 'sharp';
import { expect } from 'vitest';
import { DEMO_PASSWORD } from '../../db/seed/demo.ts';
import { createApp } from '../../server/app.ts';
import { CSRF_COOKIE, CSRF_HEADER } from '../../server/http/csrf.ts';
import { createChannelAuthorizer } from '../../server/realtime/channels.ts';
import { systemContext } from '../../server/services/context.ts';
import { tradeChannelAccess } from '../../server/services/trades/trades.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../support/test-app.ts';
import { fixedPriceOfferBody, tradeFixtures } from '../support/trade-fixtures.ts';
import { createUser } from '../support/users.ts';
import { type BankAccountWorld, buildBankAccountWorld } from './support-bank-accounts.ts';
import { buildGiftCardWorld, type GiftCardWorld } from './support-gift-cards.ts';
import { buildWebhookWorld, type WebhookWorld } from './support-webhooks.ts';

// One world for the security suite, built once per test file: every kind of object the route
// table knows (route-table.ts, ObjectKind) exists, owned by the vendor A or shared by A and the
// buyer B, with secrets planted in it that no refused answer may carry. People sign in by a
// session made directly (no password round trip), as tests/support/signed-in.ts does.

export type { TestApp };

/** A (vendor, owner), B (buyer, A's trading partner), C (no party), and the statuses and roles. */
export const PEOPLE = {
  A: 'vendor@example.com',
  B: 'buyer@example.com',
  C: 'affiliate@example.com',
  suspended: 'suspended@example.com',
  banned: 'banned@example.com',
  moderator: 'moderator@example.com',
  admin: 'admin@example.com',
} as const;
export type PersonName = keyof typeof PEOPLE;

export interface Person {
  name: PersonName;
  email: string;
  username: string;
  publicId: string;
  id: number;
  /** A fresh session's cookie and CSRF headers, as our pages send them. */
  newSession(): Promise<{
    headers: Record<string, string>;
    cookie: string;
    csrfToken: string;
    sessionPublicId: string;
  }>;
}

export type Send = (path: string, init?: RequestInit & { json?: unknown }) => Promise<Response>;

export interface Fixtures {
  t: TestApp;
  /** A request to the production-wired app, as our own page makes it (tests/support/test-app.ts). */
  send: Send;
  /** The same app with exactly the headers given. */
  sendRaw: Send;
  /** What the app logged as unexpected (the 500s), for the fuzzer's report. */
  unexpected: unknown[];
  people: Record<PersonName, Person>;
  /** The session each person built the fixtures with; the suites make fresh ones per request. */
  headers: Record<PersonName, Record<string, string>>;
  offers: { main: OfferRef; withRequirement: OfferRef; disposable: OfferRef };
  trades: {
    /** Active, with a chat line, B's attachment, and a requirement not proved yet. */
    main: string;
    /** Active, the requirement proved by B: A may review it. */
    reviewable: string;
    forPaid: string;
    forRelease: string;
    forCancel: string;
    /** Paid more than the dispute wait ago. */
    forDispute: string;
    /** Released, A rated B. */
    completed: string;
    /** In dispute: a moderator may resolve it. */
    disputed: string;
    /** In dispute, nobody has taken it: a moderator may take it (issue 24). */
    toTake: string;
    /** Cancelled: a moderator may reopen it. */
    cancelled: string;
  };
  requirement: { main: number; reviewable: number };
  attachment: { publicId: string; url: string };
  document: string;
  avatarName: string;
  /** A's pending avatar upload (`upload:…`), not processed. */
  pendingAvatar: string;
  deviceReviewToken: string;
  /** The second is confirmed by the POST's sample; the first stays for the GET's. */
  deviceReviewTokenToUse: string;
  /** A's reset link, to inspect. */
  passwordResetToken: string;
  /** The merchant's reset link, to use (using it ends their sessions and changes the password). */
  passwordResetTokenToUse: string;
  /** A's notifications (public ids), unread. */
  notificationIds: string[];
  /** A's gift-card offer, B's cards and a trade per verb on a trade's cards (support-gift-cards.ts). */
  giftCards: GiftCardWorld;
  /** A's saved bank accounts (support-bank-accounts.ts). */
  bankAccounts: BankAccountWorld;
  /** The public id of someone A referred (A's referral table and its tier-2 list). */
  referral: string;
  /** A's and C's webhooks and A's delivered event (support-webhooks.ts). */
  webhooks: WebhookWorld;
  /** A's API keys: a read one and a trade one with their secrets, and one to revoke. */
  apiKeys: { read: { id: string; secret: string }; trade: { id: string; secret: string }; disposable: string };
  /** A's data export, built and ready to download. */
  dataExport: string;
  /** What no one but A and B (and moderators) may ever read: refused answers are checked for each. */
  secrets: { chat: string; instructions: string; emailA: string; emailB: string; giftCode: string };
  images: { jpeg: Buffer; document: Buffer };
}

export interface OfferRef {
  hash: string;
  originalData: string;
  fiatPricePerCrypto: number;
}

async function personOf(t: TestApp, name: PersonName): Promise<Person> {
  const email = PEOPLE[name];
  const row = await t.db.sql.get<{ id: number; publicId: string; username: string }>(
    'SELECT id, public_id AS publicId, username FROM users WHERE email = ?',
    [email],
  );
  if (!row) throw new Error(`no demo user ${email}`);
  return {
    name,
    email,
    ...row,
    async newSession() {
      const { token, session } = await t.services.sessions.create(systemContext('test'), {
        userId: row.id,
        client: { ip: '203.0.113.7', userAgent: 'security-suite' },
      });
      const cookie = `session=${token}; ${CSRF_COOKIE}=${session.csrfToken}`;
      return {
        headers: { cookie, [CSRF_HEADER]: session.csrfToken },
        cookie,
        csrfToken: session.csrfToken,
        sessionPublicId: session.publicId,
      };
    },
  };
}

async function dataOf<T>(res: Response | Promise<Response>, status = 200): Promise<T> {
  const answer = await res;
  expect(answer.status, await answer.clone().text()).toBe(status);
  return ((await answer.json()) as { data: T }).data;
}

/**
 * The test app's services behind an app wired as server/backend.ts wires it: the realtime
 * authoriser that lets a trade's parties follow its channel (the test app's default knows only
 * personal channels), so push-authorize is tried as it runs in production.
 */
function productionWiredApp(t: TestApp) {
  const unexpected: unknown[] = [];
  const app = createApp({
    services: t.services,
    logError: (error) => unexpected.push(error),
    authorizeChannel: createChannelAuthorizer({ tradeAccess: tradeChannelAccess(t.services.trades) }),
  });
  const env = { incoming: { socket: { remoteAddress: '203.0.113.7' } } };
  /** Exactly the headers given: for the CSRF suite's requests that leave the token out. */
  const sendRaw: Send = async (path, { json, ...init } = {}) => {
    const headers = new Headers(init.headers);
    if (json === undefined) return app.request(`${TEST_ORIGIN}${path}`, { ...init, headers }, env);
    headers.set('content-type', 'application/json');
    return app.request(`${TEST_ORIGIN}${path}`, { ...init, headers, body: JSON.stringify(json) }, env);
  };
  const send: Send = (path, init = {}) => {
    const token = 'A'.repeat(43);
    const headers = new Headers(init.headers);
    if (!headers.has('cookie')) headers.set('cookie', `${CSRF_COOKIE}=${token}`);
    if (!headers.has(CSRF_HEADER)) headers.set(CSRF_HEADER, token);
    if (!headers.has('origin')) headers.set('origin', TEST_ORIGIN);
    return sendRaw(path, { ...init, headers });
  };
  return { send, sendRaw, unexpected };
}

/** The app over a fresh database with every fixture in place. */
export async function buildFixtures(): Promise<Fixtures> {
  const t = await createTestApp();
  const { send, sendRaw, unexpected } = productionWiredApp(t);
  const f = tradeFixtures(t);
  const names = Object.keys(PEOPLE) as PersonName[];
  const people = Object.fromEntries(
    await Promise.all(names.map(async (name) => [name, await personOf(t, name)] as const)),
  ) as Record<PersonName, Person>;
  const headers = Object.fromEntries(
    await Promise.all(names.map(async (name) => [name, (await people[name].newSession()).headers] as const)),
  ) as Record<PersonName, Record<string, string>>;
  const as = (name: PersonName) => ({
    post: (path: string, json: unknown = {}) => send(path, { method: 'POST', headers: headers[name], json }),
    get: (path: string) => send(path, { headers: headers[name] }),
    form: (path: string, body: FormData) => send(path, { method: 'POST', headers: headers[name], body }),
    send: (path: string, init: RequestInit & { json?: unknown } = {}) =>
      send(path, { ...init, headers: headers[name] }),
  });
  const A = as('A');
  const B = as('B');

  const unique = crypto.randomUUID().slice(0, 8);
  const secrets = {
    chat: `chat-secret-${unique}`,
    instructions: `IBAN-secret-${unique}`,
    emailA: PEOPLE.A,
    emailB: PEOPLE.B,
  };
  const images = {
    jpeg: await sharp({ create: { width: 800, height: 600, channels: 3, background: '#2c3e50' } })
      .jpeg()
      .toBuffer(),
    document: await sharp({ create: { width: 3200, height: 2000, channels: 3, background: '#34495e' } })
      .jpeg()
      .toBuffer(),
  };

  // A quiet market: the demo offers paused, everyone online, both parties able to trade.
  await f.sql(`UPDATE offers SET status = 'paused'`);
  await f.everyoneOnline();
  await f.verifyFully(PEOPLE.B);
  await f.fund(PEOPLE.A, 'BTC', 50_000_000);

  const offerBody = (overrides: Record<string, unknown> = {}) =>
    fixedPriceOfferBody({
      trade_instructions: `Pay to ${secrets.instructions}, reference: your username.`,
      ...overrides,
    });
  const createOffer = (overrides?: Record<string, unknown>) =>
    dataOf<OfferRef>(A.post('/rest/v1/offers', offerBody(overrides)), 201);
  const offers = {
    main: await createOffer(),
    withRequirement: await createOffer({
      trade_requirements: [{ kind: 'photo_id', stage: 'before_reveal', optional: false }],
    }),
    disposable: await createOffer(),
  };

  const start = async (offer: OfferRef) => {
    const trade = await dataOf<{ hash: string; flow: { state: Record<string, { id: number }[]> } }>(
      B.post('/rest/v1/trade', f.startBody(offer, '100')),
      201,
    );
    return { hash: trade.hash, requirement: trade.flow.state.beforeRevealPaymentDetails?.[0]?.id ?? 0 };
  };
  const step = (hash: string, who: typeof A, action: string, json: unknown = {}) =>
    dataOf(who.post(`/rest/v1/trade/${hash}/${action}`, json));
  /** Paid long enough ago for a dispute to open (the wait is counted from paid_at). */
  const paidLongAgo = async (hash: string) => {
    await step(hash, B, 'paid');
    await f.sql('UPDATE trades SET paid_at = paid_at - ? WHERE hash = ?', 2 * 60 * 60_000, hash);
  };
  const dispute = { dispute_reason_id: 'paid_not_released', dispute_reason_text: 'I paid two hours ago.' };

  const main = await start(offers.withRequirement);
  await dataOf(B.post(`/rest/v1/trade/${main.hash}/messages`, { text: `Here you go: ${secrets.chat}` }), 201);
  const attachmentForm = () => {
    const body = new FormData();
    body.append('files', new File([new Uint8Array(images.jpeg)], 'proof.jpg', { type: 'image/jpeg' }));
    return body;
  };
  const attached = await dataOf<{ attachment: { id: string; url: string } }[]>(
    B.form(`/rest/v1/trade/${main.hash}/attachments`, attachmentForm()),
    201,
  );
  const attachment = attached[0]?.attachment;
  if (!attachment) throw new Error('the attachment was not stored');

  const reviewable = await start(offers.withRequirement);
  const reviewableFile = await dataOf<{ attachment: { url: string } }[]>(
    B.form(`/rest/v1/trade/${reviewable.hash}/attachments`, attachmentForm()),
    201,
  );
  await dataOf(
    B.post(`/rest/v1/trade/${reviewable.hash}/upload`, {
      url: reviewableFile[0]?.attachment.url,
      requirement: reviewable.requirement,
    }),
  );

  const forPaid = await start(offers.main);
  const forRelease = await start(offers.main);
  const forCancel = await start(offers.main);
  const forDispute = await start(offers.main);
  await paidLongAgo(forDispute.hash);
  const completed = await start(offers.main);
  await step(completed.hash, A, 'release');
  await dataOf(A.post(`/rest/v1/feedback/${completed.hash}/give`, { rating: 'positive', message: 'Quick payer.' }));
  const disputed = await start(offers.main);
  await paidLongAgo(disputed.hash);
  await step(disputed.hash, B, 'dispute', dispute);
  const toTake = await start(offers.main);
  await paidLongAgo(toTake.hash);
  await step(toTake.hash, B, 'dispute', dispute);
  const cancelled = await start(offers.main);
  await step(cancelled.hash, B, 'cancel');
  const giftCards = await buildGiftCardWorld(t, A, B, images.jpeg);
  const bankAccounts = await buildBankAccountWorld(t, A);
  const referral = await createUser(t);
  await t.db.sql.run('UPDATE users SET referred_by_id = ? WHERE id = ?', [people.A.id, referral.id]);
  const webhooks = await buildWebhookWorld(t, { A: people.A.id, C: people.C.id });
  // A sells over the counter too (docs/kiosks-and-merchants.md): kiosks are made by operators.
  await t.db.sql.run('UPDATE users SET is_kiosk = 1 WHERE id = ?', [people.A.id]);
  // A's API keys (A is a merchant now): one to read with, one the DELETE sample revokes.
  type NewKey = { key: { id: string }; secret: string };
  const readKey = await dataOf<NewKey>(A.post('/rest/v1/api-keys', { name: 'Suite reader', scope: 'read' }), 201);
  const tradeKey = await dataOf<NewKey>(A.post('/rest/v1/api-keys', { name: 'Suite trader', scope: 'trade' }), 201);
  const disposableKey = await dataOf<NewKey>(A.post('/rest/v1/api-keys', { name: 'Suite spare', scope: 'read' }), 201);
  const apiKeys = {
    read: { id: readKey.key.id, secret: readKey.secret },
    trade: { id: tradeKey.key.id, secret: tradeKey.secret },
    disposable: disposableKey.key.id,
  };

  // A's data export of today, built (the jobs' leader does it in the app).
  const today = new Date(t.clock.now).toISOString().slice(0, 10);
  const dataExport = await dataOf<{ id: string }>(
    A.post('/rest/v1/exports', { format: 'csv', from: today, to: today }),
    202,
  );
  await t.services.exports.runUntilIdle();

  // A's identity papers, submitted for review.
  const documentForm = (kind: string) => {
    const body = new FormData();
    body.append('kind', kind);
    body.append('file', new File([new Uint8Array(images.document)], 'scan.jpg', { type: 'image/jpeg' }));
    return body;
  };
  const front = await dataOf<{ id: string }>(A.form('/rest/v1/verification/documents', documentForm('id_front')), 201);
  await dataOf(A.form('/rest/v1/verification/documents', documentForm('selfie')), 201);
  await dataOf(A.post('/rest/v1/verification/submit', { check: 'identity', full_name: 'Ada Lovelace' }));

  // A's avatar, and a second upload left pending.
  const avatarForm = () => {
    const body = new FormData();
    body.append('file', new File([new Uint8Array(images.jpeg)], 'me.jpg', { type: 'image/jpeg' }));
    return body;
  };
  const uploaded = await dataOf<{ fileUrl: string }>(A.form('/rest/v1/users/avatar-upload', avatarForm()));
  const avatar = await dataOf<{ url: string }>(A.post('/rest/v1/users/process-avatar', { fileUrl: uploaded.fileUrl }));
  const pending = await dataOf<{ fileUrl: string }>(A.form('/rest/v1/users/avatar-upload', avatarForm()));

  // The mailed links: a password reset, and a sign-in from a browser A never used.
  const resetToken = async (email: string) => {
    await dataOf(send('/rest/v1/auth/forgot-password', { method: 'POST', json: { email } }));
    const token = /\/reset-password\?token=([\w-]+)/.exec(t.sent.at(-1)?.text ?? '')?.[1];
    if (!token) throw new Error(`no password reset mail to ${email}`);
    return token;
  };
  const passwordResetToken = await resetToken(PEOPLE.A);
  const passwordResetTokenToUse = await resetToken('merchant@example.com');
  const deviceReviewToken = await newDeviceToken(
    t,
    send,
    'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  );
  const deviceReviewTokenToUse = await newDeviceToken(
    t,
    send,
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15',
  );

  // Through the gate: the notifications subscriber writes in its own transaction after each publish.
  const notificationIds = (
    await t.db.sql.all<{ id: string }>('SELECT public_id AS id FROM notifications WHERE user_id = ? AND is_read = 0', [
      people.A.id,
    ])
  ).map((row) => row.id);
  expect(notificationIds.length, 'A has unread notifications from the trades').toBeGreaterThan(0);

  return {
    t,
    send,
    sendRaw,
    unexpected,
    people,
    headers,
    offers,
    trades: {
      main: main.hash,
      reviewable: reviewable.hash,
      forPaid: forPaid.hash,
      forRelease: forRelease.hash,
      forCancel: forCancel.hash,
      forDispute: forDispute.hash,
      completed: completed.hash,
      disputed: disputed.hash,
      toTake: toTake.hash,
      cancelled: cancelled.hash,
    },
    requirement: { main: main.requirement, reviewable: reviewable.requirement },
    attachment: { publicId: attachment.id, url: attachment.url },
    document: front.id,
    avatarName: avatar.url.split('/').at(-1) as string,
    pendingAvatar: pending.fileUrl,
    deviceReviewToken,
    deviceReviewTokenToUse,
    passwordResetToken,
    passwordResetTokenToUse,
    notificationIds,
    giftCards,
    bankAccounts,
    referral: referral.publicId,
    webhooks,
    apiKeys,
    dataExport: dataExport.id,
    secrets: { ...secrets, giftCode: giftCards.secretCode },
    images,
  };
}

/** Signs A in with the password from a browser A never used, which mails a review link. */
async function newDeviceToken(t: TestApp, send: Send, userAgent: string): Promise<string> {
  const login = (userAgent: string) =>
    send('/rest/v1/auth/login', {
      method: 'POST',
      headers: { 'user-agent': userAgent },
      json: { email: PEOPLE.A, password: DEMO_PASSWORD },
    });
  expect((await login('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0 Safari/537.36')).status).toBe(200);
  expect((await login(userAgent)).status).toBe(200);
  const token = /review-device\?token=([0-9a-f]{64})/.exec(t.sent.at(-1)?.text ?? '')?.[1];
  if (!token) throw new Error('no device review mail');
  return token;
}
