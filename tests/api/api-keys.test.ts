import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY_RATE_LIMIT, MAX_API_KEYS } from '../../src/lib/shared/api-keys.ts';
import { errorOf } from '../support/api-errors.ts';
import { apiKeyClient } from '../support/api-key-client.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../support/test-app.ts';
import { type Browser, tradeFixtures } from '../support/trade-fixtures.ts';
import { createUser } from '../support/users.ts';

// API keys for bots (issue 21, docs/api.md): made in settings (the secret shown once, only its hash
// kept), requests signed with them reaching the same routes without cookies or CSRF, and every way
// a signature is refused: unknown or revoked key, stale timestamp, replayed nonce, altered method,
// path, query or body; read-only keys, the routes no key may reach, the rate limit and its headers.

let t: TestApp;
let f: ReturnType<typeof tradeFixtures>;
let vendor: Browser;
let buyer: Browser;

beforeEach(async () => {
  t = await createTestApp();
  f = tradeFixtures(t);
  ({ vendor, buyer } = await f.openMarket(100_000_000));
  await f.verifyFully('vendor@example.com');
  await f.verifyFully('buyer@example.com');
});
afterEach(() => t?.close());

async function newKey(who: Browser, scope: 'read' | 'trade' = 'trade', name = 'My bot') {
  const res = await who.post('/rest/v1/api-keys', { name, scope });
  expect(res.status, await res.clone().text()).toBe(201);
  const { data } = await res.json();
  return { ...data, client: apiKeyClient(t, data.key.id, data.secret) };
}

describe('keys in settings', () => {
  it('creates a key whose secret is shown once and never stored, lists and revokes it', async () => {
    const { key, secret } = await newKey(vendor, 'read', 'Price watcher');
    expect(key).toMatchObject({ name: 'Price watcher', scope: 'read', lastUsedAt: null, lastUsedIp: null });
    expect(key.id).toMatch(/^ck_[0-9A-Za-z]{16}$/);
    expect(secret).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
    const listed = (await (await vendor.get('/rest/v1/api-keys')).json()).data;
    expect(listed).toEqual([key]);
    expect(JSON.stringify(listed)).not.toContain(secret);
    // Nowhere in the database.
    const rows = await t.db.sql.all<Record<string, unknown>>('SELECT * FROM api_keys');
    expect(JSON.stringify(rows)).not.toContain(secret.slice(3));
    const revoked = await vendor.send(`/rest/v1/api-keys/${key.id}`, { method: 'DELETE' });
    expect(await revoked.json()).toEqual({ data: { revoked: true } });
    expect((await (await vendor.get('/rest/v1/api-keys')).json()).data).toEqual([]);
    expect((await vendor.send(`/rest/v1/api-keys/${key.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('is for merchants and identity-verified people, at most ten keys, with a name and a scope', async () => {
    const stranger = await (await createUser(t)).signIn();
    const refused = await stranger.post('/rest/v1/api-keys', { name: 'x', scope: 'read' });
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toMatch(/merchants and people whose identity is verified/);
    for (const [body, field] of [
      [{ name: '', scope: 'read' }, 'name'],
      [{ name: 'x'.repeat(61), scope: 'read' }, 'name'],
      [{ name: 'bot', scope: 'admin' }, 'scope'],
      [{ scope: 'read' }, 'name'],
    ] as const) {
      const res = await vendor.post('/rest/v1/api-keys', body);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).field).toBe(field);
    }
    for (let i = 0; i < MAX_API_KEYS; i++) await newKey(vendor);
    const eleventh = await vendor.post('/rest/v1/api-keys', { name: 'one more', scope: 'read' });
    expect(eleventh.status).toBe(403);
    expect((await errorOf(eleventh)).message).toMatch(/At most 10 keys/);
  });
});

describe('signed requests', () => {
  it('reach the person’s routes without cookies or CSRF, and record when and from where the key was used', async () => {
    const { key, client } = await newKey(vendor);
    const me = await client.get('/rest/v1/users/me');
    expect(me.status, await me.clone().text()).toBe(200);
    expect((await me.json()).data.isLogged).toBe(true);
    expect(me.headers.get('set-cookie')).toBeNull();
    // A trade driven by a bot: the vendor's offer, the buyer's start, the bot releases.
    const offer = await f.createOffer(vendor);
    const trade = await f.startTrade(buyer, offer, '500');
    await buyer.post(`/rest/v1/trade/${trade.hash}/paid`);
    const chat = await client.post(`/rest/v1/trade/${trade.hash}/messages`, { text: 'Checking the payment' });
    expect(chat.status, await chat.clone().text()).toBe(201);
    const released = await client.post(`/rest/v1/trade/${trade.hash}/release`, {});
    expect(released.status, await released.clone().text()).toBe(200);
    expect((await released.json()).data.status).toBe('released');
    const listed = (await (await vendor.get('/rest/v1/api-keys')).json()).data;
    expect(listed[0]).toMatchObject({
      id: key.id,
      lastUsedAt: Math.floor(t.clock.now / 1000),
      lastUsedIp: '198.51.100.77',
    });
  });

  it('refuses an unknown or revoked key, a stale timestamp, a reused nonce and any altered part', async () => {
    const { key, secret, client } = await newKey(vendor);
    const reason = async (res: Response) => {
      expect(res.status).toBe(401);
      return (await errorOf(res)).meta?.reason;
    };
    expect(await reason(await apiKeyClient(t, 'ck_0000000000000000', secret).get('/rest/v1/users/me'))).toBe(
      'unknown_key',
    );
    const late = apiKeyClient(t, key.id, secret, { timestamp: () => Math.floor(t.clock.now / 1000) - 301 });
    expect(await reason(await late.get('/rest/v1/users/me'))).toBe('bad_timestamp');
    const wrongSecret = apiKeyClient(t, key.id, `${secret}x`);
    expect(await reason(await wrongSecret.get('/rest/v1/users/me'))).toBe('bad_signature');
    // The same headers twice: the second is a replay.
    const headers = client.sign('GET', '/rest/v1/users/me');
    const send = (path: string, init: RequestInit = {}) =>
      t.app.request(`${TEST_ORIGIN}${path}`, { ...init, headers: { ...headers, ...(init.headers ?? {}) } });
    expect((await send('/rest/v1/users/me')).status).toBe(200);
    expect(await reason(await send('/rest/v1/users/me'))).toBe('replayed');
    // Signed for one request, sent as another: path, query, method, body.
    const signedGet = client.sign('GET', '/rest/v1/balances');
    const other = (path: string, init: RequestInit = {}) =>
      t.app.request(`${TEST_ORIGIN}${path}`, { ...init, headers: { ...signedGet, ...(init.headers ?? {}) } });
    expect(await reason(await other('/rest/v1/users/me'))).toBe('bad_signature');
    expect(await reason(await other('/rest/v1/balances?x=1'))).toBe('bad_signature');
    const body = JSON.stringify({ text: 'hello' });
    const signedPost = client.sign('POST', '/rest/v1/notifications/all', body);
    const tampered = await t.app.request(`${TEST_ORIGIN}/rest/v1/notifications/all`, {
      method: 'POST',
      headers: { ...signedPost, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'hellO' }),
    });
    expect(await reason(tampered)).toBe('bad_signature');
    await vendor.send(`/rest/v1/api-keys/${key.id}`, { method: 'DELETE' });
    expect(await reason(await client.get('/rest/v1/users/me'))).toBe('unknown_key');
  });

  it('keeps a read key to reading, and every key off account security, withdrawals, moderation and uploads', async () => {
    const read = (await newKey(vendor, 'read')).client;
    expect((await read.get('/rest/v1/balances')).status).toBe(200);
    const write = await read.post('/rest/v1/notifications/all', {});
    expect(write.status).toBe(403);
    expect((await errorOf(write)).message).toBe('This key is read-only.');
    const trade = (await newKey(vendor)).client;
    for (const [method, path] of [
      ['GET', '/rest/v1/api-keys'],
      ['POST', '/rest/v1/users/change-password'],
      ['GET', '/rest/v1/users/sessions'],
      ['POST', '/rest/v1/users/2fa/disable'],
      ['POST', '/rest/v1/wallet/send'],
      ['GET', '/rest/v1/verification/queue'],
      ['POST', '/rest/v1/auth/logout'],
    ] as const) {
      const res = await trade.request(method, path, method === 'POST' ? {} : undefined);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect((await errorOf(res)).message).toBe('API keys cannot do this; use the website.');
    }
  });

  it('counts requests per key per minute, with RateLimit headers, and refuses past the limit', async () => {
    const { client } = await newKey(vendor, 'read');
    const first = await client.get('/rest/v1/balances');
    expect(first.headers.get('ratelimit-limit')).toBe(String(API_KEY_RATE_LIMIT));
    expect(first.headers.get('ratelimit-remaining')).toBe(String(API_KEY_RATE_LIMIT - 1));
    expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    for (let i = 1; i < API_KEY_RATE_LIMIT; i++) await client.get('/rest/v1/balances');
    const over = await client.get('/rest/v1/balances');
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe(over.headers.get('ratelimit-reset') ?? 'missing');
    // Another key of the same person has its own window; the next minute starts again.
    expect((await (await newKey(vendor, 'read')).client.get('/rest/v1/balances')).status).toBe(200);
    t.clock.now += 60_000;
    expect((await client.get('/rest/v1/balances')).status).toBe(200);
  });
});
