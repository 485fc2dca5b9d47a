import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS } from '../../src/lib/shared/webhooks.ts';
import { errorOf } from '../support/api-errors.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

// Merchants' webhooks, the settings side (issue 21; spec sections 4, 5, 7 "Webhooks", 8): who may,
// the verification challenge and each way it fails, saving, events, removing, the secret, and the
// addresses a webhook may never point at. Deliveries: webhooks-delivery.test.ts.

let t: TestApp;
let receiver: Receiver;
type Session = Awaited<ReturnType<Awaited<ReturnType<typeof createUser>>['session']>>;
let merchant: Session;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

beforeEach(async () => {
  t = await createTestApp({ config: { WEBHOOKS_ALLOW_LOCAL: 'on' }, webhookTimeoutMs: 300 });
  const user = await createUser(t, { verified: 'id' });
  await t.db.sql.run('UPDATE users SET is_merchant = 1 WHERE id = ?', [user.id]);
  merchant = await user.session();
  receiver.reset();
});
afterEach(() => t?.close());

const read = async () => (await (await merchant.get('/rest/v1/webhooks')).json()).data;

describe('who may', () => {
  it('answers 401 to visitors and 403 to people who are not merchants', async () => {
    expect((await t.send('/rest/v1/webhooks')).status).toBe(401);
    const person = await (await createUser(t)).session();
    const res = await person.get('/rest/v1/webhooks');
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toMatchObject({ code: 'FORBIDDEN', message: 'Webhooks are for merchant accounts.' });
    for (const [path, body] of [
      ['/rest/v1/webhooks/verify', { url: receiver.url() }],
      ['/rest/v1/webhooks', { url: receiver.url() }],
      ['/rest/v1/webhooks/events', { events: [{ name: 'trade.paid', checked: true }] }],
      ['/rest/v1/webhooks/secret', {}],
      ['/rest/v1/webhooks/test', {}],
    ] as const)
      expect((await person.post(path, body)).status, path).toBe(403);
    expect(receiver.received).toEqual([]);
  });

  it('lets an identity-verified person become a merchant, and refuses one who is not verified', async () => {
    const unverified = await (await createUser(t)).session();
    const refused = await unverified.post('/rest/v1/merchants/join');
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toMatch(/Verify your identity/);
    const verified = await createUser(t, { verified: 'id' });
    const session = await verified.session();
    const joined = await session.post('/rest/v1/merchants/join');
    expect(await joined.json()).toEqual({ data: { isMerchant: true } });
    expect((await session.post('/rest/v1/merchants/join')).status).toBe(200);
    const me = await (await session.get('/rest/v1/users/me')).json();
    expect(me.data.isMerchant).toBe(true);
    expect((await session.get('/rest/v1/webhooks')).status).toBe(200);
  });
});

describe('GET /rest/v1/webhooks', () => {
  it('starts initial with a whsec_ secret, every event unchecked, and the knowledge link', async () => {
    const res = await merchant.get('/rest/v1/webhooks');
    const body = await res.json();
    expect(body.meta).toEqual({ link: '/developers#webhooks' });
    expect(body.data).toMatchObject({
      url: null,
      enabled: false,
      status: 'initial',
      disabledReason: null,
      previousSecretExpiresAt: null,
      notificationType: 'standard_webhooks',
    });
    expect(body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(body.data.events).toEqual(WEBHOOK_EVENTS.map((name) => ({ name, checked: false })));
    // The same secret on every read.
    expect((await read()).secret).toBe(body.data.secret);
  });
});

describe('the verification challenge', () => {
  it('passes when the URL echoes the challenge in the header, signed with the webhook secret', async () => {
    const res = await merchant.post('/rest/v1/webhooks/verify', { url: receiver.url() });
    expect(res.status, await res.clone().text()).toBe(200);
    const { data } = await res.json();
    expect(data.url).toBe(receiver.url());
    const [request] = receiver.to('/hook');
    expect(request?.headers['x-webhook-challenge']).toBe(data.challenge);
    expect(JSON.parse(request?.body ?? '')).toMatchObject({ type: 'webhook.verify', challenge: data.challenge });
    expect(request?.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(request?.headers['content-type']).toBe('application/json');
    // Verifying saves nothing.
    expect((await read()).status).toBe('initial');
  });

  it('passes when the challenge comes back in a JSON body', async () => {
    receiver.behave('/json', 'echo-body');
    expect((await merchant.post('/rest/v1/webhooks/verify', { url: receiver.url('/json') })).status).toBe(200);
  });

  it.each([
    ['wrong-challenge', 'wrong_challenge', 200],
    ['no-challenge', 'wrong_challenge', 204],
    [{ status: 500 }, 'status', 500],
    [{ status: 404 }, 'status', 404],
    ['redirect', 'redirect', 307],
  ] as const)('fails when the URL answers %o (%s)', async (behaviour, reason, status) => {
    const path = `/case-${reason}-${status}`;
    receiver.behave(path, behaviour);
    const res = await merchant.post('/rest/v1/webhooks/verify', { url: receiver.url(path) });
    expect(res.status).toBe(422);
    const error = await errorOf(res);
    expect(error).toMatchObject({ code: 'WEBHOOK_VERIFICATION_FAILED', field: 'url', meta: { reason, status } });
    // A redirect is never followed.
    expect(receiver.to('/elsewhere')).toEqual([]);
  });

  it('fails when nothing answers in time, or nothing listens', async () => {
    receiver.behave('/slow', 'hang');
    const slow = await merchant.post('/rest/v1/webhooks/verify', { url: receiver.url('/slow') });
    expect(slow.status).toBe(422);
    expect((await errorOf(slow)).meta).toEqual({ reason: 'timeout' });
    const closed = await merchant.post('/rest/v1/webhooks/verify', { url: 'http://127.0.0.1:1/hook' });
    expect((await errorOf(closed)).meta).toEqual({ reason: 'unreachable' });
  });

  it('answers the failure in the reader’s language', async () => {
    receiver.behave('/bad', { status: 500 });
    const res = await t.send('/rest/v1/webhooks/verify?locale=de', {
      method: 'POST',
      headers: merchant.headers,
      json: { url: receiver.url('/bad') },
    });
    expect(res.status).toBe(422);
    expect((await errorOf(res)).message).not.toBe('The address did not answer with a 2xx status.');
  });
});

describe('saving, events and removing', () => {
  it('saves a URL that passed, enabled, following every event; a save without verify runs the challenge', async () => {
    await merchant.post('/rest/v1/webhooks/verify', { url: receiver.url() });
    const saved = await merchant.post('/rest/v1/webhooks', { url: receiver.url() });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const { data } = await saved.json();
    expect(data).toMatchObject({ url: receiver.url(), enabled: true, status: 'enabled' });
    expect(data.events.every((e: { checked: boolean }) => e.checked)).toBe(true);
    // Verified a moment ago: no second challenge.
    expect(receiver.to('/hook')).toHaveLength(1);
    // Another URL, not verified: the save challenges it first.
    const other = await merchant.post('/rest/v1/webhooks', { url: receiver.url('/other') });
    expect((await other.json()).data.url).toBe(receiver.url('/other'));
    expect(receiver.to('/other')).toHaveLength(1);
  });

  it('refuses to save a URL whose challenge fails, and keeps the webhook as it was', async () => {
    await merchant.post('/rest/v1/webhooks', { url: receiver.url() });
    receiver.behave('/broken', { status: 500 });
    const res = await merchant.post('/rest/v1/webhooks', { url: receiver.url('/broken') });
    expect(res.status).toBe(422);
    expect(await read()).toMatchObject({ url: receiver.url(), status: 'enabled' });
  });

  it('checks and unchecks events; unknown names and bad shapes are refused by field', async () => {
    const res = await merchant.post('/rest/v1/webhooks/events', {
      events: [
        { name: 'trade.paid', checked: true },
        { name: 'feedback.received', checked: true },
      ],
    });
    const checked = (view: { events: { name: string; checked: boolean }[] }) =>
      view.events.filter((e) => e.checked).map((e) => e.name);
    expect(checked((await res.json()).data)).toEqual(['trade.paid', 'feedback.received']);
    await merchant.post('/rest/v1/webhooks/events', { events: [{ name: 'trade.paid', checked: false }] });
    expect(checked(await read())).toEqual(['feedback.received']);
    // A first save keeps a choice already made.
    await merchant.post('/rest/v1/webhooks', { url: receiver.url() });
    expect(checked(await read())).toEqual(['feedback.received']);
    for (const [body, field] of [
      [{ events: [{ name: 'trade.unknown', checked: true }] }, 'events.0.name'],
      [{ events: [{ name: 'trade.paid', checked: 'yes' }] }, 'events.0.checked'],
      [{ events: [] }, 'events'],
      [{}, 'events'],
    ] as const) {
      const bad = await merchant.post('/rest/v1/webhooks/events', body);
      expect(bad.status).toBe(400);
      expect((await errorOf(bad)).field).toBe(field);
    }
  });

  it('removes: initial again, every event unchecked, the secret kept', async () => {
    await merchant.post('/rest/v1/webhooks', { url: receiver.url() });
    const before = await read();
    const res = await merchant.del('/rest/v1/webhooks');
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toMatchObject({ url: null, enabled: false, status: 'initial', secret: before.secret });
    expect(data.events.some((e: { checked: boolean }) => e.checked)).toBe(false);
  });

  it('rotates the secret; the previous one is announced for 24 hours', async () => {
    const before = await read();
    const { data } = await (await merchant.post('/rest/v1/webhooks/secret')).json();
    expect(data.secret).not.toBe(before.secret);
    expect(data.previousSecretExpiresAt).toBe(Math.floor(t.clock.now / 1000) + 24 * 3600);
    t.clock.now += 24 * 3600 * 1000 + 1;
    expect((await read()).previousSecretExpiresAt).toBeNull();
  });
});

describe('addresses a webhook may not point at', () => {
  let strict: TestApp;
  let session: Session;
  beforeEach(async () => {
    strict = await createTestApp({ webhookTimeoutMs: 300 });
    const user = await createUser(strict, { verified: 'id' });
    await strict.db.sql.run('UPDATE users SET is_merchant = 1 WHERE id = ?', [user.id]);
    session = await user.session();
  });
  afterEach(() => strict?.close());

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://10.0.0.5/hook',
    'http://172.16.1.1/hook',
    'http://192.168.1.1/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/hook',
    'http://0.0.0.0/hook',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[fd00::1]/hook',
    'http://[fe80::1]/hook',
    `http://127.0.0.1:${0}/`,
  ])('refuses %s after resolving it, without sending anything', async (url) => {
    const res = await session.post('/rest/v1/webhooks/verify', { url });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'url' });
    expect((await session.post('/rest/v1/webhooks', { url })).status).toBe(400);
  });

  it.each([
    ['ftp', 'ftp://example.com/hook', /http/],
    ['file', 'file:///etc/passwd', /http/],
    ['credentials', 'https://user:secret@example.com/hook', /user name and password/],
    ['not a URL', 'not a url', /full address/],
    ['2,001 characters', `https://example.com/${'a'.repeat(2001)}`, /at most 2000/],
  ])('refuses a URL by its shape: %s', async (_case, url, message) => {
    const res = await session.post('/rest/v1/webhooks/verify', { url });
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.field).toBe('url');
    expect(error.message).toMatch(message);
  });
});
