import { afterEach, describe, expect, it } from 'vitest';
import { CSRF_COOKIE } from '../../server/http/csrf.ts';
import { browserSession, signedInSession } from '../support/browser-session.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../support/test-app.ts';
import { createUser, type TestUser } from '../support/users.ts';

let t: TestApp;
afterEach(() => t?.close());

type Browser = ReturnType<typeof browserSession>;

const PATH = '/vendor/handle-vendor-terms';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The test's person: a fresh account in the test's app, made on first use. */
let made: { app: typeof t; user: TestUser } | undefined;
const person = async () => {
  if (made?.app !== t) made = { app: t, user: await createUser(t) };
  return made.user;
};

const signedIn = async (email?: string, ip?: string) => signedInSession(t, email ?? (await person()).email, ip);

const decide = (b: Browser, body: string) => b.send(PATH, { method: 'POST', body, headers: FORM });
const isVendor = async (b: Browser) => (await (await b.get('/rest/v1/users/me')).json()).data.isVendor;
const sessionCount = async (email: string) =>
  (
    await t.db.sql.get<{ n: number }>(
      'SELECT count(*) AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = ?',
      [email],
    )
  )?.n;

describe('POST /vendor/handle-vendor-terms', () => {
  it('makes the person a vendor on accept, in a new session', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const before = { session: b.jar.get('session'), csrf: b.jar.get(CSRF_COOKIE) };
    expect(await isVendor(b)).toBe(false);

    const res = await decide(b, 'vendor_terms_action=accept');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'success', message: expect.stringContaining('accepted') });
    const setCookies = res.headers.getSetCookie();
    expect(setCookies.find((c) => c.startsWith('session='))).toMatch(/HttpOnly; SameSite=Lax$/);
    expect(b.jar.get('session')).not.toBe(before.session);
    expect(b.jar.get(CSRF_COOKIE)).not.toBe(before.csrf);
    expect(await isVendor(b)).toBe(true);

    // The old session ended: its token opens nothing any more.
    const old = await t.send('/rest/v1/users/me', { headers: { cookie: `session=${before.session}` } });
    expect(old.status).toBe(401);
    expect(await sessionCount((await person()).email)).toBe(1);
  });

  it('lets a late answer to a request sent with the replaced cookie leave the new one alone', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const replaced = `session=${b.jar.get('session')}; ${CSRF_COOKIE}=${b.jar.get(CSRF_COOKIE)}`;
    expect((await decide(b, 'vendor_terms_action=accept')).status).toBe(200);
    // Sent before the change, answered after it: anonymous, and no Set-Cookie that would sign the browser out.
    const late = await t.send('/rest/v1/users/current_user', { headers: { cookie: replaced } });
    expect((await late.json()).data.isLogged).toBe(false);
    expect(late.headers.getSetCookie()).toEqual([]);
    // A cookie that was never replaced (or was signed out) is still cleared.
    const stranger = await t.send('/rest/v1/users/current_user', { headers: { cookie: `session=${'x'.repeat(43)}` } });
    expect(stranger.headers.getSetCookie()).toContain('signed_in=; Path=/; Max-Age=0; SameSite=Lax');
    // A minute on, the replaced cookie is an ordinary dead one.
    t.clock.now += 61_000;
    const later = await t.send('/rest/v1/users/current_user', { headers: { cookie: replaced } });
    expect(later.headers.getSetCookie()).toContain('signed_in=; Path=/; Max-Age=0; SameSite=Lax');
  });

  it('stops vendor status on decline, and leaves other devices signed in', async () => {
    t = await createTestApp();
    const vendor = await createUser(t, { vendor: true });
    const laptop = await vendor.signIn('198.51.100.40');
    const phone = await vendor.signIn('198.51.100.41');
    const res = await decide(laptop, 'vendor_terms_action=decline');
    expect(res.status).toBe(200);
    expect((await res.json()).message).toContain('declined');
    expect(await isVendor(laptop)).toBe(false);
    // The other device reads the flag from the account on its next request.
    expect(await isVendor(phone)).toBe(false);
    expect(await sessionCount(vendor.email)).toBe(2);
  });

  it('accepts a multipart form as well', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const body = new FormData();
    body.set('vendor_terms_action', 'accept');
    const res = await b.send(PATH, { method: 'POST', body });
    expect(res.status).toBe(200);
    expect(await isVendor(b)).toBe(true);
  });

  it.each([['vendor_terms_action=maybe'], ['vendor_terms_action='], [''], ['other=accept']])(
    'refuses %j with a field error and changes nothing',
    async (body) => {
      t = await createTestApp();
      const b = await signedIn();
      const session = b.jar.get('session');
      const res = await decide(b, body);
      expect(res.status).toBe(400);
      const error = (await res.json()).errors[0];
      expect(error).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'vendor_terms_action' });
      expect(error.details[0].field).toBe('vendor_terms_action');
      expect(b.jar.get('session')).toBe(session);
      expect(await isVendor(b)).toBe(false);
    },
  );

  it('says a JSON body is not what it reads', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const res = await b.send(PATH, { method: 'POST', json: { vendor_terms_action: 'accept' } });
    expect(res.status).toBe(415);
    expect((await res.json()).errors[0].code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(await isVendor(b)).toBe(false);
  });

  it('does not make a suspended account a vendor', async () => {
    t = await createTestApp();
    const b = await (await createUser(t, { status: 'suspended' })).signIn();
    const res = await decide(b, 'vendor_terms_action=accept');
    expect(res.status).toBe(403);
    expect((await res.json()).errors[0].code).toBe('FORBIDDEN');
    expect(await isVendor(b)).toBe(false);
    // The vendor-terms page and modal show this message: in the reader's language.
    const german = await b.send(`${PATH}?locale=de`, {
      method: 'POST',
      body: 'vendor_terms_action=accept',
      headers: FORM,
    });
    expect((await german.json()).errors[0]).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('Händler'),
    });
  });

  it('needs a session', async () => {
    t = await createTestApp();
    const res = await decide(browserSession(t), 'vendor_terms_action=accept');
    expect(res.status).toBe(401);
    expect((await res.json()).errors[0].code).toBe('UNAUTHENTICATED');
  });

  it('needs the CSRF token', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await t.app.request(`${TEST_ORIGIN}${PATH}`, {
      method: 'POST',
      headers: { cookie, origin: TEST_ORIGIN, ...FORM },
      body: 'vendor_terms_action=accept',
    });
    expect(res.status).toBe(403);
    expect((await res.json()).errors[0].code).toBe('CSRF_TOKEN_MISMATCH');
    expect(await isVendor(b)).toBe(false);
  });
});
