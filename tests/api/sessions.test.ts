import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { LAST_USED_PRECISION_MS } from '../../server/services/accounts/sessions.ts';
import { errorOf } from '../support/api-errors.ts';
import { browserSession } from '../support/browser-session.ts';
import { createTestApp, TEST_NOW, TEST_ORIGIN, type TestApp } from '../support/test-app.ts';
import { createUser, type TestUser } from '../support/users.ts';

let t: TestApp;
afterEach(() => t?.close());

type Browser = ReturnType<typeof browserSession>;

interface Device {
  id: string;
  browser: string | null;
  version: string | null;
  os: string | null;
  ip: string;
  createdAt: string;
  lastUsedAt: string;
  current: boolean;
}

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** The test's person: a fresh account in the test's app, made on first use. */
let made: { app: typeof t; user: Promise<TestUser> } | undefined;
const person = (): Promise<TestUser> => {
  if (made?.app !== t) made = { app: t, user: createUser(t) };
  return made.user;
};

async function signedIn(email?: string, ip = '198.51.100.20', userAgent = FIREFOX_WINDOWS) {
  const b = browserSession(t, ip);
  const res = await b.send('/rest/v1/auth/login', {
    method: 'POST',
    json: { email: email ?? (await person()).email, password: 'Coinfair-demo-2026!' },
    headers: { 'user-agent': userAgent },
  });
  expect(res.status).toBe(200);
  return b;
}

const devicesOf = async (b: Browser): Promise<Device[]> => {
  const res = await b.get('/rest/v1/users/sessions');
  expect(res.status).toBe(200);
  return (await res.json()).data;
};

const isSignedIn = async (b: Browser) => (await b.get('/rest/v1/users/me')).status === 200;

/** The signed-in browser's cookies, but no X-CSRF-Token header: what a forged request carries. */
function withoutCsrfHeader(b: Browser, path: string, json: unknown) {
  const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  return t.app.request(`${TEST_ORIGIN}${path}`, {
    method: 'POST',
    headers: { cookie, origin: TEST_ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
}

describe('GET /rest/v1/users/sessions', () => {
  it("lists the account's signed-in browsers, this one marked, newest use first", async () => {
    t = await createTestApp();
    const laptop = await signedIn((await person()).email, '198.51.100.20', FIREFOX_WINDOWS);
    t.clock.now += LAST_USED_PRECISION_MS;
    const phone = await signedIn((await person()).email, '203.0.113.9', SAFARI_IPHONE);
    // Another person's session never appears.
    await signedIn((await createUser(t)).email);

    t.clock.now += LAST_USED_PRECISION_MS;
    const devices = await devicesOf(laptop);
    expect(devices).toHaveLength(2);
    const [first, second] = devices;
    // Listing used the laptop's session: its last use moved to now, ahead of the phone's.
    expect(first).toMatchObject({
      browser: 'Firefox',
      os: 'Windows',
      ip: '198.51.100.20',
      current: true,
      createdAt: new Date(TEST_NOW).toISOString(),
      lastUsedAt: new Date(t.clock.now).toISOString(),
    });
    expect(second).toMatchObject({
      browser: 'Safari',
      version: '17.5',
      os: 'iOS',
      ip: '203.0.113.9',
      current: false,
      createdAt: new Date(TEST_NOW + LAST_USED_PRECISION_MS).toISOString(),
      lastUsedAt: new Date(TEST_NOW + LAST_USED_PRECISION_MS).toISOString(),
    });
    expect((await devicesOf(phone)).find((d) => d.current)?.id).toBe(second?.id);
  });

  it('shows public ids only: never the session token or its hash', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const res = await b.get('/rest/v1/users/sessions');
    const text = await res.text();
    const token = b.jar.get('session') ?? '';
    const hash = createHash('sha256').update(token).digest('hex');
    const [device] = JSON.parse(text).data as Device[];
    expect(device?.id).toMatch(/^ses_[0-9A-Za-z]{16}$/);
    expect(text).not.toContain(token);
    expect(text).not.toContain(hash);
    const stored = await t.db.sql.get<{ id: string; public_id: string }>('SELECT id, public_id FROM sessions');
    expect(stored).toEqual({ id: hash, public_id: device?.id });
  });

  it('records the last use at most every few minutes, not on every request', async () => {
    t = await createTestApp();
    const laptop = await signedIn();
    const phone = await signedIn((await person()).email, '203.0.113.9', SAFARI_IPHONE);
    const lastUse = async () => (await devicesOf(laptop)).find((d) => !d.current)?.lastUsedAt;

    t.clock.now += LAST_USED_PRECISION_MS - 1000;
    await isSignedIn(phone);
    expect(await lastUse()).toBe(new Date(TEST_NOW).toISOString());
    t.clock.now += 2000;
    await isSignedIn(phone);
    expect(await lastUse()).toBe(new Date(t.clock.now).toISOString());
  });

  it('leaves expired sessions out', async () => {
    t = await createTestApp();
    await signedIn((await person()).email, '203.0.113.9', SAFARI_IPHONE);
    t.clock.now += 31 * 24 * 3600 * 1000;
    const b = await signedIn();
    expect((await devicesOf(b)).map((d) => d.current)).toEqual([true]);
  });

  it('needs a session', async () => {
    t = await createTestApp();
    const res = await browserSession(t).get('/rest/v1/users/sessions');
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});

describe('POST /rest/v1/users/sessions/revoke', () => {
  it('signs another browser of the account out', async () => {
    t = await createTestApp();
    const laptop = await signedIn();
    const phone = await signedIn((await person()).email, '203.0.113.9', SAFARI_IPHONE);
    const other = (await devicesOf(laptop)).find((d) => !d.current);

    const res = await laptop.post('/rest/v1/users/sessions/revoke', { id: other?.id });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ revoked: true, current: false });
    expect(await isSignedIn(phone)).toBe(false);
    expect(await isSignedIn(laptop)).toBe(true);
    expect(await devicesOf(laptop)).toHaveLength(1);

    // Once gone, the id is unknown.
    const again = await laptop.post('/rest/v1/users/sessions/revoke', { id: other?.id });
    expect(again.status).toBe(404);
  });

  it("answers 404 for another person's session and leaves it signed in", async () => {
    t = await createTestApp();
    const buyer = await signedIn();
    const vendor = await signedIn((await createUser(t)).email, '203.0.113.9');
    const vendorDevice = (await devicesOf(vendor))[0];

    const res = await buyer.post('/rest/v1/users/sessions/revoke', { id: vendorDevice?.id });
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toMatchObject({ code: 'NOT_FOUND' });
    expect(await isSignedIn(vendor)).toBe(true);

    const unknown = await buyer.post('/rest/v1/users/sessions/revoke', { id: 'ses_0000000000000000' });
    expect(unknown.status).toBe(404);
  });

  it('signs this browser out when it revokes itself', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const [self] = await devicesOf(b);
    const res = await b.post('/rest/v1/users/sessions/revoke', { id: self?.id });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ revoked: true, current: true });
    expect(b.jar.has('session')).toBe(false);
    expect(await isSignedIn(b)).toBe(false);
  });

  it('refuses a body without an id', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const res = await b.post('/rest/v1/users/sessions/revoke', {});
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'id' });
  });

  it('needs a session', async () => {
    t = await createTestApp();
    const res = await browserSession(t).post('/rest/v1/users/sessions/revoke', { id: 'ses_0000000000000000' });
    expect(res.status).toBe(401);
  });

  it('needs the CSRF token and revokes nothing without it', async () => {
    t = await createTestApp();
    const laptop = await signedIn();
    const phone = await signedIn((await person()).email, '203.0.113.9', SAFARI_IPHONE);
    const other = (await devicesOf(laptop)).find((d) => !d.current);
    const res = await withoutCsrfHeader(laptop, '/rest/v1/users/sessions/revoke', { id: other?.id });
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toMatchObject({ code: 'CSRF_TOKEN_MISMATCH' });
    expect(await isSignedIn(phone)).toBe(true);
  });
});

describe('POST /rest/v1/users/sessions/revoke-others', () => {
  it('signs out every other browser of the account and keeps this one', async () => {
    t = await createTestApp();
    const laptop = await signedIn();
    const phone = await signedIn((await person()).email, '203.0.113.9', SAFARI_IPHONE);
    const tablet = await signedIn((await person()).email, '203.0.113.10');
    const vendor = await signedIn((await createUser(t)).email);

    const res = await laptop.post('/rest/v1/users/sessions/revoke-others');
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ revoked: 2 });
    expect(await isSignedIn(laptop)).toBe(true);
    expect(await isSignedIn(phone)).toBe(false);
    expect(await isSignedIn(tablet)).toBe(false);
    // Another person's sessions are not touched.
    expect(await isSignedIn(vendor)).toBe(true);
    expect((await devicesOf(laptop)).map((d) => d.current)).toEqual([true]);
  });

  it('needs a session', async () => {
    t = await createTestApp();
    expect((await browserSession(t).post('/rest/v1/users/sessions/revoke-others')).status).toBe(401);
  });

  it('needs the CSRF token', async () => {
    t = await createTestApp();
    const laptop = await signedIn();
    const phone = await signedIn((await person()).email, '203.0.113.9', SAFARI_IPHONE);
    const res = await withoutCsrfHeader(laptop, '/rest/v1/users/sessions/revoke-others', {});
    expect(res.status).toBe(403);
    expect(await isSignedIn(phone)).toBe(true);
  });
});
