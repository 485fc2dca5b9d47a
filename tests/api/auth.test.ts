import { afterEach, describe, expect, it } from 'vitest';
import { CSRF_COOKIE } from '../../server/http/csrf.ts';
import { MAX_FAILURES_PER_ACCOUNT, MAX_FAILURES_PER_IP } from '../../server/services/accounts/throttle.ts';
import { solveChallenge } from '../../src/lib/shared/proof-of-work.ts';
import { errorOf } from '../support/api-errors.ts';
import { browserSession, STRONG_PASSWORD } from '../support/browser-session.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';

let t: TestApp;
afterEach(() => t?.close());

const register = (b: ReturnType<typeof browserSession>, body: Record<string, unknown> = {}) =>
  b.post('/rest/v1/auth/register', { email: 'ada@example.org', password: STRONG_PASSWORD, ...body });

describe('POST /rest/v1/auth/register', () => {
  it('creates the account, signs it in and mails a confirmation link', async () => {
    t = await createTestApp();
    const b = browserSession(t);
    const res = await register(b, { back: '/wallet' });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ data: { redirectTo: '/wallet' } });

    const setCookies = res.headers.getSetCookie();
    expect(setCookies.find((c) => c.startsWith('session='))).toMatch(/HttpOnly; SameSite=Lax$/);
    expect(b.jar.get('session')).toMatch(/^[\w-]{43}$/);
    // The CSRF cookie now carries the token bound to the new session.
    expect(b.jar.get(CSRF_COOKIE)).not.toBe('A'.repeat(43));

    const me = await (await b.get('/rest/v1/users/me')).json();
    expect(me.data).toMatchObject({
      isLogged: true,
      email: 'ada@example.org',
      isEmailVerified: false,
      isVendor: false,
    });
    expect(me.data.username).toMatch(/^ada\d+$/);

    expect(t.sent).toHaveLength(1);
    expect(t.sent[0]?.to).toBe('ada@example.org');
    expect(t.sent[0]?.text).toMatch(/http:\/\/localhost\/auth\/verify-email\?token=[\w-]{43}/);
  });

  it('sets the short-lived, readable welcome cookie the next page shows its dialog for; sign-in does not', async () => {
    t = await createTestApp();
    const b = browserSession(t);
    const res = await register(b);
    expect(res.headers.getSetCookie()).toContain('welcome=1; Path=/; Max-Age=600; SameSite=Lax');
    await b.post('/rest/v1/auth/logout');
    const login = await b.post('/rest/v1/auth/login', { email: 'ada@example.org', password: STRONG_PASSWORD });
    expect(login.status).toBe(200);
    expect(login.headers.getSetCookie().some((c) => c.startsWith('welcome='))).toBe(false);
  });

  it('stores an argon2id hash, never the password', async () => {
    t = await createTestApp();
    await register(browserSession(t));
    const row = (await t.db.sql.get<{ password_hash: string }>('SELECT password_hash FROM users WHERE email = ?', [
      'ada@example.org',
    ])) as { password_hash: string };
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.password_hash).not.toContain(STRONG_PASSWORD);
  });

  it('marks a vendor sign-up that accepted the vendor terms', async () => {
    t = await createTestApp();
    const b = browserSession(t);
    await register(b, { vendors_terms_accepted: 1 });
    expect((await (await b.get('/rest/v1/users/me')).json()).data.isVendor).toBe(true);
  });

  it.each([
    ['//evil.example/x', '/'],
    ['https://evil.example', '/'],
    ['/\\evil.example', '/'],
    ['/offers?x=1', '/offers?x=1'],
  ])('redirects back=%s to %s only within the site', async (back, expected) => {
    t = await createTestApp();
    const res = await register(browserSession(t), { back });
    expect((await res.json()).data.redirectTo).toBe(expected);
  });

  it.each([
    [{ email: 'not-an-email' }, 'email'],
    [{ email: 'a@b.c' }, 'email'],
    [{ email: 'a..b@example.org' }, 'email'],
    [{ password: 'short1!A' }, 'password'],
    [{ password: 'alllowercase-and-long1' }, 'password'],
    [{ password: 'NoDigitsHere!!' }, 'password'],
    [{ password: 'NoSpecials123' }, 'password'],
  ])('refuses %j with a field error and creates nothing', async (body, field) => {
    t = await createTestApp();
    const res = await register(browserSession(t), body);
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field });
    expect(error?.details?.map((d) => d.field)).toContain(field);
    expect(await t.db.sql.get("SELECT count(*) AS n FROM users WHERE email LIKE '%example.org'")).toEqual({ n: 0 });
    expect(t.sent).toHaveLength(0);
  });

  it('refuses a leaked password and says so with meta.compromised', async () => {
    t = await createTestApp();
    const res = await register(browserSession(t), { password: 'Password123!' });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.errors[0]).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'password' });
    expect(body.meta).toEqual({ compromised: true });
  });

  it('refuses a second account for the same address, whatever its case', async () => {
    t = await createTestApp();
    await register(browserSession(t));
    const res = await register(browserSession(t), { email: 'ADA@Example.org' });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ field: 'email' });
  });

  it('refuses missing fields and a request without the CSRF token', async () => {
    t = await createTestApp();
    const b = browserSession(t);
    const missing = await b.post('/rest/v1/auth/register', { email: 'x@example.org' });
    expect(missing.status).toBe(400);
    expect(await errorOf(missing)).toMatchObject({ field: 'password' });
    const noToken = await t.app.request(`${b.origin}/rest/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x@example.org', password: STRONG_PASSWORD }),
    });
    expect(noToken.status).toBe(403);
  });
});

describe('POST /rest/v1/auth/login', () => {
  const login = (b: ReturnType<typeof browserSession>, body: Record<string, unknown> = {}) =>
    b.post('/rest/v1/auth/login', { email: 'buyer@example.com', password: 'Coinfair-demo-2026!', ...body });

  it('signs in with a new session and a CSRF token bound to it', async () => {
    t = await createTestApp();
    const b = browserSession(t);
    b.jar.set('session', 'x'.repeat(43)); // a token planted before sign-in (session fixation)
    const res = await login(b, { back: '/wallet' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { redirectTo: '/wallet' } });
    expect(b.jar.get('session')).not.toBe('x'.repeat(43));
    const me = await b.get('/rest/v1/users/me');
    expect((await me.json()).data.username).toBe('buyer');
  });

  it('gives every sign-in its own session', async () => {
    t = await createTestApp();
    const first = browserSession(t);
    const second = browserSession(t);
    await login(first);
    await login(second);
    expect(first.jar.get('session')).not.toBe(second.jar.get('session'));
    expect((await first.get('/rest/v1/users/me')).status).toBe(200);
  });

  it('answers an unknown address exactly like a wrong password', async () => {
    t = await createTestApp();
    const wrong = await login(browserSession(t), { password: 'Wrong-password-1' });
    const unknown = await login(browserSession(t), { email: 'nobody@example.com' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it('accepts the address in any case', async () => {
    t = await createTestApp();
    expect((await login(browserSession(t), { email: ' Buyer@Example.COM ' })).status).toBe(200);
  });

  it(`with the challenge off, locks an account for 15 minutes after ${MAX_FAILURES_PER_ACCOUNT} failed attempts, with Retry-After`, async () => {
    t = await createTestApp();
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++) {
      expect((await login(browserSession(t, `192.0.2.${i}`), { password: 'Wrong-password-1' })).status).toBe(401);
    }
    const locked = await login(browserSession(t));
    expect(locked.status).toBe(429);
    expect(await errorOf(locked)).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(locked.headers.get('retry-after'))).toBe(900);
    t.clock.now += 15 * 60 * 1000 + 1;
    expect((await login(browserSession(t))).status).toBe(200);
  });

  it(`limits one address to ${MAX_FAILURES_PER_IP} failures across accounts`, async () => {
    t = await createTestApp();
    const b = browserSession(t, '192.0.2.99');
    for (let i = 0; i < MAX_FAILURES_PER_IP; i++) {
      await login(b, { email: `guess${i}@example.com`, password: 'Wrong-password-1' });
    }
    expect((await login(b)).status).toBe(429);
    expect((await login(browserSession(t, '192.0.2.100'))).status).toBe(200);
  });

  it('tells a banned person so only after the right password', async () => {
    t = await createTestApp();
    const wrong = await login(browserSession(t), { email: 'banned@example.com', password: 'Wrong-password-1' });
    expect(wrong.status).toBe(401);
    const right = await login(browserSession(t), { email: 'banned@example.com' });
    expect(right.status).toBe(403);
    expect(await errorOf(right)).toMatchObject({ code: 'ACCOUNT_BANNED' });
  });

  it('lets a suspended person sign in', async () => {
    t = await createTestApp();
    const b = browserSession(t);
    expect((await login(b, { email: 'suspended@example.com' })).status).toBe(200);
    expect((await (await b.get('/rest/v1/users/me')).json()).data.isSuspended).toBe(true);
  });
});

describe('sessions', () => {
  const signedIn = async () => {
    const b = browserSession(t);
    await b.post('/rest/v1/auth/login', { email: 'buyer@example.com', password: 'Coinfair-demo-2026!' });
    return b;
  };

  it('logout ends the session on the server, not only in the browser', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const stolen = b.jar.get('session');
    const res = await b.post('/rest/v1/auth/logout');
    expect(res.status).toBe(200);
    expect(b.jar.has('session')).toBe(false);
    const replay = browserSession(t);
    replay.jar.set('session', stolen ?? '');
    const me = await replay.get('/rest/v1/users/me');
    expect(me.status).toBe(401);
    expect(me.headers.getSetCookie().some((c) => c.startsWith('session=;'))).toBe(true);
  });

  it('ends the session a browser replaces by signing in again, so no orphan stays live', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const first = b.jar.get('session') ?? '';
    await b.post('/rest/v1/auth/login', { email: 'buyer@example.com', password: 'Coinfair-demo-2026!' });
    expect(b.jar.get('session')).not.toBe(first);
    const replay = browserSession(t);
    replay.jar.set('session', first);
    expect((await replay.get('/rest/v1/users/me')).status).toBe(401);
    expect((await b.get('/rest/v1/users/me')).status).toBe(200);
  });

  it('refuses logout without a session', async () => {
    t = await createTestApp();
    expect((await browserSession(t).post('/rest/v1/auth/logout')).status).toBe(401);
  });

  it('binds the CSRF token to the session: the anonymous token no longer works', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const anonymous = 'A'.repeat(43);
    const stale = await t.app.request(
      `${b.origin}/rest/v1/users/set-username`,
      {
        method: 'POST',
        headers: {
          cookie: `session=${b.jar.get('session')}; ${CSRF_COOKIE}=${anonymous}`,
          'x-csrf-token': anonymous,
          'content-type': 'application/json',
          origin: b.origin,
        },
        body: JSON.stringify({ username: 'Buyer2' }),
      },
      { incoming: { socket: { remoteAddress: '198.51.100.20' } } },
    );
    expect(stale.status).toBe(403);
    // The refusal hands the browser the session's token, so a reload recovers.
    const sessionToken = b.jar.get(CSRF_COOKIE) ?? '';
    expect(sessionToken).not.toBe(anonymous);
    expect(stale.headers.getSetCookie().find((c) => c.startsWith(`${CSRF_COOKIE}=`))).toContain(sessionToken);
    expect((await b.post('/rest/v1/users/set-username', { username: 'Buyer2' })).status).toBe(200);
  });

  it('slides: a session used in its second half is extended; an idle one expires after 30 days', async () => {
    t = await createTestApp();
    const b = await signedIn();
    t.clock.now += 16 * 24 * 3600 * 1000;
    const renewed = await b.get('/rest/v1/users/me');
    expect(renewed.status).toBe(200);
    expect(renewed.headers.getSetCookie().some((c) => c.startsWith('session=') && c.includes('Max-Age='))).toBe(true);
    t.clock.now += 29 * 24 * 3600 * 1000;
    expect((await b.get('/rest/v1/users/me')).status).toBe(200);
    t.clock.now += 31 * 24 * 3600 * 1000;
    expect((await b.get('/rest/v1/users/me')).status).toBe(401);
  });
});

describe('e-mail confirmation', () => {
  const linkPath = () => /\/auth\/verify-email\?token=[\w-]+/.exec(t.sent.at(-1)?.text ?? '')?.[0] ?? '';

  it('confirms the address once through the mailed link', async () => {
    t = await createTestApp();
    const b = browserSession(t);
    await register(b);
    const first = await b.get(linkPath());
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/?email_verified=1');
    expect((await (await b.get('/rest/v1/users/me')).json()).data.isEmailVerified).toBe(true);
    const again = await b.get(linkPath());
    expect(again.headers.get('location')).toBe('/?email_verified=0');
  });

  it('refuses an expired or forged link', async () => {
    t = await createTestApp();
    const b = browserSession(t);
    await register(b);
    t.clock.now += 49 * 3600 * 1000;
    expect((await b.get(linkPath())).headers.get('location')).toBe('/?email_verified=0');
    expect((await b.get('/auth/verify-email?token=forged')).headers.get('location')).toBe('/?email_verified=0');
    expect((await (await b.get('/rest/v1/users/me')).json()).data.isEmailVerified).toBe(false);
  });

  it('sends a new link on request', async () => {
    t = await createTestApp();
    const b = browserSession(t);
    await register(b);
    const res = await b.post('/rest/v1/auth/resend-verification');
    expect(await res.json()).toEqual({ data: { sent: true } });
    expect(t.sent).toHaveLength(2);
  });
});

describe('proof-of-work challenge (AUTH_CHALLENGE=on)', () => {
  const solved = async (b: ReturnType<typeof browserSession>) => {
    const { data } = await (await b.get('/rest/v1/auth/challenge')).json();
    const { nonce, seccode } = await solveChallenge(data.challenge, data.difficulty);
    return { geetest_challenge: data.challenge, geetest_validate: nonce, geetest_seccode: seccode };
  };

  it('issues challenges and requires a solved one to register', async () => {
    t = await createTestApp({ config: { AUTH_CHALLENGE: 'on' } });
    const b = browserSession(t);
    const { data } = await (await b.get('/rest/v1/auth/challenge')).json();
    expect(data).toMatchObject({ difficulty: expect.any(Number), expiresAt: expect.any(Number) });
    expect(data.challenge).toMatch(/^[\w-]{22}$/);

    const without = await register(b);
    expect(without.status).toBe(400);
    expect(await errorOf(without)).toMatchObject({ code: 'CHALLENGE_REQUIRED', field: 'geetest_challenge' });

    const fields = await solved(b);
    expect((await register(b, fields)).status).toBe(201);
    // A solution works once.
    const replay = await register(browserSession(t), { ...fields, email: 'other@example.org' });
    expect(await errorOf(replay)).toMatchObject({ code: 'CHALLENGE_INVALID' });
  });

  it('lets a sign-in skip it until three failures, then requires it', async () => {
    t = await createTestApp({ config: { AUTH_CHALLENGE: 'on' } });
    const b = browserSession(t);
    const login = (body: Record<string, unknown> = {}) =>
      b.post('/rest/v1/auth/login', { email: 'buyer@example.com', password: 'Coinfair-demo-2026!', ...body });
    for (let i = 0; i < 3; i++) expect((await login({ password: 'Wrong-password-1' })).status).toBe(401);
    const blocked = await login();
    expect(await errorOf(blocked)).toMatchObject({ code: 'CHALLENGE_REQUIRED' });
    expect((await login(await solved(b))).status).toBe(200);
  });

  it('takes the no-JavaScript marker only when the check is required, and then only once the challenge has aged', async () => {
    t = await createTestApp({ config: { AUTH_CHALLENGE: 'on' } });
    const b = browserSession(t);
    const login = (body: Record<string, unknown> = {}) =>
      b.post('/rest/v1/auth/login', { email: 'buyer@example.com', password: 'Coinfair-demo-2026!', ...body });
    const noscript = async () => ({
      geetest_challenge: ((await (await b.get('/rest/v1/auth/challenge')).json()) as { data: { challenge: string } })
        .data.challenge,
      geetest_validate: 'noscript',
    });
    // Not required yet: a fresh challenge with the marker is simply not looked at.
    expect((await login(await noscript())).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await login({ password: 'Wrong-password-1' })).status).toBe(401);
    const early = await noscript();
    expect(await errorOf(await login(early))).toMatchObject({ code: 'CHALLENGE_INVALID' });
    const aged = await noscript();
    t.clock.now += 3_000;
    expect((await login(aged)).status).toBe(200);
  });
});

describe('answers for browsers', () => {
  it('writes error messages in the language the page asks for, then the cookie, then Accept-Language', async () => {
    t = await createTestApp();
    const de = (await import('../../locales/de.json', { with: { type: 'json' } })).default as Record<string, string>;
    const fr = (await import('../../locales/fr.json', { with: { type: 'json' } })).default as Record<string, string>;
    const b = browserSession(t);
    const wrong = { email: (await createUser(t)).email, password: 'Wrong-password-1' };
    const messageOf = async (res: Response) =>
      ((await res.json()) as { errors: { message: string; details: { message: string; key: string }[] }[] }).errors[0];
    const german = await messageOf(await b.post('/rest/v1/auth/login?locale=de', wrong));
    expect(german?.message).toBe(de['errors.invalid_credentials']);
    expect(german?.details[0]).toMatchObject({ message: de['errors.invalid_credentials'], key: 'invalid_credentials' });
    const french = await messageOf(
      await b.send('/rest/v1/auth/login', {
        method: 'POST',
        json: wrong,
        headers: { 'Accept-Language': 'fr-CH, de;q=0.5' },
      }),
    );
    expect(french?.message).toBe(fr['errors.invalid_credentials']);
    // Placeholders are filled in each language.
    const weak = await messageOf(await register(b, { password: 'short' }));
    expect(weak?.message).toContain('10');
  });

  it('keeps a readable signed-in hint beside the HttpOnly session, cleared at sign-out', async () => {
    t = await createTestApp();
    const b = browserSession(t);
    const login = await b.post('/rest/v1/auth/login', {
      email: (await createUser(t)).email,
      password: 'Coinfair-demo-2026!',
    });
    const hint = login.headers.getSetCookie().find((c) => c.startsWith('signed_in='));
    expect(hint).toMatch(/^signed_in=1; Path=\/; Max-Age=\d+; SameSite=Lax$/);
    expect(hint).not.toContain('HttpOnly');
    const logout = await b.post('/rest/v1/auth/logout');
    expect(logout.headers.getSetCookie()).toContain('signed_in=; Path=/; Max-Age=0; SameSite=Lax');
  });
});
