import { createHash } from 'node:crypto';
import { generateSync } from 'otplib';
import { afterEach, describe, expect, it } from 'vitest';
import { CSRF_COOKIE } from '../../server/http/csrf.ts';
import { MAX_FAILURES_PER_ACCOUNT } from '../../server/services/accounts/throttle.ts';
import {
  MAX_RESET_MAILS_PER_ACCOUNT,
  MAX_RESET_REQUESTS_PER_IP,
  RESET_TOKEN_TTL_MS,
} from '../../server/services/passwords/passwords.ts';
import { solveChallenge } from '../../src/lib/shared/proof-of-work.ts';
import { errorOf } from '../support/api-errors.ts';
import { browserSession, STRONG_PASSWORD } from '../support/browser-session.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';

let t: TestApp;
afterEach(() => t?.close());

type Browser = ReturnType<typeof browserSession>;

const EMAIL = 'buyer@example.com';
const PASSWORD = 'Coinfair-demo-2026!';
const NEW_PASSWORD = 'Lantern-orbit-73';
const STEP_MS = 30_000;
const HOUR_MS = 60 * 60 * 1000;

interface ErrorEntry {
  code: string;
  field?: string;
  details?: { field: string }[];
}

const login = (b: Browser, body: Record<string, unknown> = {}) =>
  b.post('/rest/v1/auth/login', { email: EMAIL, password: PASSWORD, ...body });

async function signedIn(ip?: string, body: Record<string, unknown> = {}) {
  const b = browserSession(t, ip);
  expect((await login(b, body)).status).toBe(200);
  return b;
}

const change = (b: Browser, body: Record<string, unknown> = {}) =>
  b.post('/rest/v1/users/change-password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, ...body });

const forgot = (b: Browser, email = EMAIL, body: Record<string, unknown> = {}) =>
  b.post('/rest/v1/auth/forgot-password', { email, ...body });

const inspect = (b: Browser, token: string) => b.get(`/rest/v1/auth/reset-password/${token}`);

const reset = (b: Browser, token: string, body: Record<string, unknown> = {}) =>
  b.post('/rest/v1/auth/reset-password', { token, password: NEW_PASSWORD, ...body });

/** The token of the last reset mail to `to`. */
function mailedToken(to = EMAIL): string {
  const mail = t.sent.filter((m) => m.to === to && m.subject.includes('Reset')).at(-1);
  const token = /\/reset-password\?token=([\w-]+)/.exec(mail?.text ?? '')?.[1];
  if (!token) throw new Error(`no reset mail to ${to}`);
  return token;
}

async function requestToken(email = EMAIL): Promise<string> {
  const res = await forgot(browserSession(t, '192.0.2.200'), email);
  expect(res.status).toBe(200);
  return mailedToken(email);
}

const sessionCount = async (email = EMAIL) =>
  (
    await t.db.sql.get<{ n: number }>(
      'SELECT count(*) AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = ?',
      [email],
    )
  )?.n;

const passwordHashOf = async (email = EMAIL) =>
  (await t.db.sql.get<{ h: string }>('SELECT password_hash AS h FROM users WHERE email = ?', [email]))?.h;

const resetMails = (to = EMAIL) => t.sent.filter((m) => m.to === to && m.subject.includes('Reset')).length;

/** What the authenticator app shows at the test clock. */
const codeAt = (secret: string, offsetMs = 0) =>
  generateSync({ secret, epoch: Math.floor((t.clock.now + offsetMs) / 1000) });

/** Turns 2FA on for the signed-in browser; the confirming step is spent, so the clock moves on. */
async function enableTwoFactor(b: Browser): Promise<string> {
  const { secret } = (await (await b.post('/rest/v1/users/2fa/setup')).json()).data as { secret: string };
  expect((await b.post('/rest/v1/users/2fa/confirm', { code: codeAt(secret) })).status).toBe(200);
  t.clock.now += STEP_MS;
  return secret;
}

/** A POST carrying the session cookie but no CSRF header. */
const withoutCsrf = (b: Browser, path: string, json: unknown) =>
  t.app.request(
    `${b.origin}${path}`,
    {
      method: 'POST',
      headers: {
        cookie: [...b.jar].map(([k, v]) => `${k}=${v}`).join('; '),
        'content-type': 'application/json',
        origin: b.origin,
      },
      body: JSON.stringify(json),
    },
    { incoming: { socket: { remoteAddress: '198.51.100.20' } } },
  );

describe('POST /rest/v1/users/change-password', () => {
  it('stores the new password, ends every session, signs this browser in afresh and mails the owner', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const otherDevice = await signedIn('198.51.100.77');
    const oldSession = b.jar.get('session') ?? '';
    const oldCsrf = b.jar.get(CSRF_COOKIE) ?? '';

    const res = await change(b);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { changed: true } });

    // A new session and CSRF token for this browser; the old cookie and the other device are out.
    expect(b.jar.get('session')).not.toBe(oldSession);
    expect(b.jar.get(CSRF_COOKIE)).not.toBe(oldCsrf);
    expect((await b.get('/rest/v1/users/me')).status).toBe(200);
    expect((await otherDevice.get('/rest/v1/users/me')).status).toBe(401);
    const stale = browserSession(t);
    stale.jar.set('session', oldSession);
    stale.jar.set(CSRF_COOKIE, oldCsrf);
    expect((await stale.get('/rest/v1/users/me')).status).toBe(401);
    expect(await sessionCount()).toBe(1);

    expect(await passwordHashOf()).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const old = await login(browserSession(t));
    expect(old.status).toBe(401);
    expect(await errorOf(old)).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect((await login(browserSession(t), { password: NEW_PASSWORD })).status).toBe(200);

    expect(t.sent).toHaveLength(1);
    expect(t.sent[0]).toMatchObject({ to: EMAIL, subject: 'Your Coinfair password was changed' });
    expect(t.sent[0]?.text).toContain('If it was not you');
    expect(t.sent[0]?.text).toContain('http://localhost/support');
  });

  it('requires a session and the CSRF token', async () => {
    t = await createTestApp();
    const anonymous = await change(browserSession(t));
    expect(anonymous.status).toBe(401);
    expect(await errorOf(anonymous)).toMatchObject({ code: 'UNAUTHENTICATED' });

    const b = await signedIn();
    const noToken = await withoutCsrf(b, '/rest/v1/users/change-password', {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(noToken.status).toBe(403);
    expect(await errorOf(noToken)).toMatchObject({ code: 'CSRF_TOKEN_MISMATCH' });
    expect((await login(browserSession(t))).status).toBe(200);
  });

  it('refuses a wrong current password on its field and changes nothing', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const before = await passwordHashOf();
    const res = await change(b, { currentPassword: 'Wrong-password-1' });
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'currentPassword' });
    expect(error?.details?.map((d) => d.field)).toEqual(['currentPassword']);
    expect(await passwordHashOf()).toBe(before);
    expect((await b.get('/rest/v1/users/me')).status).toBe(200);
    expect(t.sent).toHaveLength(0);
  });

  it('names both fields when the current password is wrong and the new one weak', async () => {
    t = await createTestApp();
    const res = await change(await signedIn(), { currentPassword: 'Wrong-password-1', newPassword: 'short' });
    expect((await errorOf(res))?.details?.map((d) => d.field)).toEqual(['currentPassword', 'newPassword']);
  });

  it(`counts wrong current passwords on the sign-in limit: ${MAX_FAILURES_PER_ACCOUNT}, then 429`, async () => {
    t = await createTestApp();
    const b = await signedIn();
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++) {
      expect((await change(b, { currentPassword: `Wrong-password-${i}` })).status).toBe(400);
    }
    const locked = await change(b);
    expect(locked.status).toBe(429);
    expect(await errorOf(locked)).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(locked.headers.get('retry-after'))).toBe(900);
    // The same count as the sign-in form's.
    expect((await login(browserSession(t))).status).toBe(429);
    t.clock.now += 15 * 60 * 1000 + 1;
    expect((await change(b)).status).toBe(200);
  });

  it.each([
    ['short1!A', undefined],
    ['alllowercase-and-long1', undefined],
    ['NoSpecials123', undefined],
    [`Aa1!${'x'.repeat(125)}`, undefined],
    ['Password123!', { compromised: true }],
    [PASSWORD, undefined],
  ])('refuses the new password %j on newPassword', async (newPassword, meta) => {
    t = await createTestApp();
    const b = await signedIn();
    const before = await passwordHashOf();
    const res = await change(b, { newPassword });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: ErrorEntry[]; meta?: unknown };
    expect(body.errors[0]).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'newPassword' });
    expect(body.meta).toEqual(meta);
    expect(await passwordHashOf()).toBe(before);
    expect((await b.get('/rest/v1/users/me')).status).toBe(200);
  });

  it('refuses a body without the new password', async () => {
    t = await createTestApp();
    const res = await (await signedIn()).post('/rest/v1/users/change-password', { currentPassword: PASSWORD });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'newPassword' });
  });

  it('asks for the second factor when it protects sign-in: missing and wrong codes are field errors', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const secret = await enableTwoFactor(b);
    const before = await passwordHashOf();

    const missing = await change(b);
    expect(missing.status).toBe(400);
    expect(await errorOf(missing)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'code' });
    const wrong = await change(b, { code: codeAt(secret, 5 * STEP_MS) });
    expect(wrong.status).toBe(400);
    expect(await errorOf(wrong)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'code' });
    expect(await passwordHashOf()).toBe(before);

    const right = await change(b, { code: codeAt(secret) });
    expect(right.status).toBe(200);
    expect((await b.get('/rest/v1/users/me')).status).toBe(200);
  });

  it('voids a reset link asked for before the change', async () => {
    t = await createTestApp();
    const token = await requestToken();
    expect((await change(await signedIn())).status).toBe(200);
    expect((await inspect(browserSession(t), token)).status).toBe(404);
  });
});

describe('POST /rest/v1/auth/forgot-password', () => {
  it('mails a one-hour link and stores only the SHA-256 of its token', async () => {
    t = await createTestApp();
    const res = await forgot(browserSession(t));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { sent: true } });
    expect(t.sent).toHaveLength(1);
    expect(t.sent[0]).toMatchObject({ to: EMAIL, subject: 'Reset your Coinfair password' });
    expect(t.sent[0]?.text).toMatch(/http:\/\/localhost\/reset-password\?token=[\w-]{43}\n/);

    const token = mailedToken();
    const rows = await t.db.sql.all<Record<string, unknown>>('SELECT * FROM password_resets');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: createHash('sha256').update(token).digest('hex'),
      expires_at: t.clock.now + RESET_TOKEN_TTL_MS,
      used_at: null,
      created_at: t.clock.now,
    });
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('answers an unknown or closed account exactly like a known one and mails nothing', async () => {
    t = await createTestApp();
    const known = await forgot(browserSession(t));
    const unknown = await forgot(browserSession(t), 'nobody@example.com');
    const banned = await forgot(browserSession(t), 'banned@example.com');
    for (const res of [unknown, banned]) {
      expect(res.status).toBe(known.status);
      expect(await res.json()).toEqual({ data: { sent: true } });
      expect(res.headers.getSetCookie()).toEqual(known.headers.getSetCookie());
    }
    expect(t.sent.map((m) => m.to)).toEqual([EMAIL]);
    expect(await t.db.sql.get('SELECT count(*) AS n FROM password_resets')).toEqual({ n: 1 });
  });

  it('finds the account whatever the case of the address', async () => {
    t = await createTestApp();
    expect((await forgot(browserSession(t), ' Buyer@Example.COM ')).status).toBe(200);
    expect(resetMails()).toBe(1);
  });

  it('refuses a malformed address and a request without the CSRF token', async () => {
    t = await createTestApp();
    const bad = await forgot(browserSession(t), 'not-an-email');
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'email' });
    const missing = await browserSession(t).post('/rest/v1/auth/forgot-password', {});
    expect(await errorOf(missing)).toMatchObject({ field: 'email' });
    const noToken = await withoutCsrf(browserSession(t), '/rest/v1/auth/forgot-password', { email: EMAIL });
    expect(noToken.status).toBe(403);
    expect(t.sent).toHaveLength(0);
  });

  it('keeps one live link per account: a new request replaces the earlier one', async () => {
    t = await createTestApp();
    const first = await requestToken();
    const second = await requestToken();
    expect(second).not.toBe(first);
    expect((await inspect(browserSession(t), first)).status).toBe(404);
    expect((await inspect(browserSession(t), second)).status).toBe(200);
  });

  it(`mails an account at most ${MAX_RESET_MAILS_PER_ACCOUNT} times an hour, answering alike beyond`, async () => {
    t = await createTestApp();
    for (let i = 0; i < MAX_RESET_MAILS_PER_ACCOUNT; i++) await requestToken();
    const last = mailedToken();
    const beyond = await forgot(browserSession(t, '192.0.2.201'));
    expect(beyond.status).toBe(200);
    expect(await beyond.json()).toEqual({ data: { sent: true } });
    expect(resetMails()).toBe(MAX_RESET_MAILS_PER_ACCOUNT);
    // The last link mailed still works.
    expect((await inspect(browserSession(t), last)).status).toBe(200);
    t.clock.now += HOUR_MS + 1;
    expect((await forgot(browserSession(t))).status).toBe(200);
    expect(resetMails()).toBe(MAX_RESET_MAILS_PER_ACCOUNT + 1);
  });

  it(`limits one client address to ${MAX_RESET_REQUESTS_PER_IP} requests an hour, known accounts or not`, async () => {
    t = await createTestApp();
    const b = browserSession(t, '192.0.2.99');
    for (let i = 0; i < MAX_RESET_REQUESTS_PER_IP; i++) {
      expect((await forgot(b, `guess${i}@example.com`)).status).toBe(200);
    }
    const limited = await forgot(b);
    expect(limited.status).toBe(429);
    expect(await errorOf(limited)).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(limited.headers.get('retry-after'))).toBe(3600);
    expect(t.sent).toHaveLength(0);
    // Another address is not held up; this one may ask again once the hour has passed.
    expect((await forgot(browserSession(t, '192.0.2.100'), (await createUser(t)).email)).status).toBe(200);
    t.clock.now += HOUR_MS + 1;
    expect((await forgot(b)).status).toBe(200);
    expect(resetMails()).toBe(1);
  });

  it('requires the solved proof-of-work challenge when it is on', async () => {
    t = await createTestApp({ config: { AUTH_CHALLENGE: 'on' } });
    const b = browserSession(t);
    const without = await forgot(b);
    expect(without.status).toBe(400);
    expect(await errorOf(without)).toMatchObject({ code: 'CHALLENGE_REQUIRED', field: 'geetest_challenge' });
    expect(t.sent).toHaveLength(0);

    const { data } = await (await b.get('/rest/v1/auth/challenge')).json();
    const { nonce, seccode } = await solveChallenge(data.challenge, data.difficulty);
    const solved = await forgot(b, EMAIL, {
      geetest_challenge: data.challenge,
      geetest_validate: nonce,
      geetest_seccode: seccode,
    });
    expect(solved.status).toBe(200);
    expect(resetMails()).toBe(1);
  });
});

describe('GET /rest/v1/auth/reset-password/{token}', () => {
  it('shows the masked address of a live link', async () => {
    t = await createTestApp();
    const res = await inspect(browserSession(t), await requestToken());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: { valid: true, email: 'b•••@example.com', twoFactorRequired: false },
    });
  });

  it.each(['A'.repeat(43), 'short', 'f'.repeat(64)])('answers 404 for the unknown token %j', async (token) => {
    t = await createTestApp();
    await requestToken();
    const res = await inspect(browserSession(t), token);
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers 404 once the hour is over, for the page and the form alike', async () => {
    t = await createTestApp();
    const token = await requestToken();
    t.clock.now += RESET_TOKEN_TTL_MS - 1;
    expect((await inspect(browserSession(t), token)).status).toBe(200);
    t.clock.now += 1;
    expect((await inspect(browserSession(t), token)).status).toBe(404);
    const late = await reset(browserSession(t), token);
    expect(late.status).toBe(404);
    expect(await errorOf(late)).toMatchObject({ code: 'NOT_FOUND', field: 'token' });
    expect((await login(browserSession(t))).status).toBe(200);
  });
});

describe('POST /rest/v1/auth/reset-password', () => {
  it('sets the password, verifies the address, ends every session and signs nobody in', async () => {
    t = await createTestApp();
    const ada = 'ada@example.org';
    const b = browserSession(t);
    expect((await b.post('/rest/v1/auth/register', { email: ada, password: STRONG_PASSWORD })).status).toBe(201);
    const other = browserSession(t, '198.51.100.77');
    expect((await other.post('/rest/v1/auth/login', { email: ada, password: STRONG_PASSWORD })).status).toBe(200);
    const token = await requestToken(ada);
    const sentBefore = t.sent.length;

    const res = await reset(b, token);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { redirectTo: '/login?reset=1' } });
    // The browser that asked was signed in as this account: its cookie is cleared too.
    expect(b.jar.has('session')).toBe(false);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('session=;'))).toBe(true);
    expect((await other.get('/rest/v1/users/me')).status).toBe(401);
    expect(await sessionCount(ada)).toBe(0);

    expect(t.sent.slice(sentBefore)).toHaveLength(1);
    expect(t.sent.at(-1)).toMatchObject({ to: ada, subject: 'Your Coinfair password was changed' });
    expect(t.sent.at(-1)?.text).toContain('reset through the link');

    expect(
      (await browserSession(t).post('/rest/v1/auth/login', { email: ada, password: STRONG_PASSWORD })).status,
    ).toBe(401);
    const fresh = browserSession(t);
    expect((await fresh.post('/rest/v1/auth/login', { email: ada, password: NEW_PASSWORD })).status).toBe(200);
    expect((await (await fresh.get('/rest/v1/users/me')).json()).data.isEmailVerified).toBe(true);
  });

  it('works once', async () => {
    t = await createTestApp();
    const token = await requestToken();
    expect((await reset(browserSession(t), token)).status).toBe(200);
    const again = await reset(browserSession(t), token, { password: 'Second-attempt-84' });
    expect(again.status).toBe(404);
    expect(await errorOf(again)).toMatchObject({ code: 'NOT_FOUND' });
    expect((await inspect(browserSession(t), token)).status).toBe(404);
    expect((await login(browserSession(t), { password: NEW_PASSWORD })).status).toBe(200);
  });

  it.each([
    ['short1!A', undefined],
    ['NoDigitsHere!!', undefined],
    ['Password123!', { compromised: true }],
  ])('refuses the password %j on its field and keeps the link usable', async (password, meta) => {
    t = await createTestApp();
    const token = await requestToken();
    const res = await reset(browserSession(t), token, { password });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: ErrorEntry[]; meta?: unknown };
    expect(body.errors[0]).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'password' });
    expect(body.meta).toEqual(meta);
    expect((await reset(browserSession(t), token)).status).toBe(200);
  });

  it('refuses a body without the token and one without the CSRF token', async () => {
    t = await createTestApp();
    const token = await requestToken();
    const missing = await browserSession(t).post('/rest/v1/auth/reset-password', { password: NEW_PASSWORD });
    expect(missing.status).toBe(400);
    expect(await errorOf(missing)).toMatchObject({ field: 'token' });
    const noToken = await withoutCsrf(browserSession(t), '/rest/v1/auth/reset-password', {
      token,
      password: NEW_PASSWORD,
    });
    expect(noToken.status).toBe(403);
    expect((await inspect(browserSession(t), token)).status).toBe(200);
  });

  it('asks for the second factor when it protects sign-in, spending the link only when it passes', async () => {
    t = await createTestApp();
    const secret = await enableTwoFactor(await signedIn());
    const token = await requestToken();
    expect((await (await inspect(browserSession(t), token)).json()).data.twoFactorRequired).toBe(true);

    const missing = await reset(browserSession(t), token);
    expect(missing.status).toBe(401);
    expect(await errorOf(missing)).toMatchObject({ code: 'TWO_FACTOR_REQUIRED', field: 'code' });
    const wrong = await reset(browserSession(t), token, { code: codeAt(secret, 5 * STEP_MS) });
    expect(wrong.status).toBe(401);
    expect(await errorOf(wrong)).toMatchObject({ code: 'TWO_FACTOR_INVALID', field: 'code' });
    expect((await inspect(browserSession(t), token)).status).toBe(200);
    expect((await login(browserSession(t), { code: codeAt(secret, STEP_MS) })).status).toBe(200);

    t.clock.now += 2 * STEP_MS;
    expect((await reset(browserSession(t), token, { code: codeAt(secret) })).status).toBe(200);
    t.clock.now += STEP_MS;
    expect((await login(browserSession(t), { password: NEW_PASSWORD, code: codeAt(secret) })).status).toBe(200);
  });

  it("clears the account's failed sign-ins, so its owner can sign in at once", async () => {
    t = await createTestApp();
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++) {
      await login(browserSession(t, `192.0.2.${i}`), { password: 'Wrong-password-1' });
    }
    expect((await login(browserSession(t))).status).toBe(429);
    expect((await reset(browserSession(t), await requestToken())).status).toBe(200);
    expect((await login(browserSession(t), { password: NEW_PASSWORD })).status).toBe(200);
  });

  it("changes only the link's own account", async () => {
    t = await createTestApp();
    const vendorEmail = 'vendor@example.com';
    const vendor = await signedIn(undefined, { email: vendorEmail });
    const vendorToken = await requestToken(vendorEmail);
    const buyerToken = await requestToken();
    const vendorHash = await passwordHashOf(vendorEmail);

    // Submitted from the vendor's signed-in browser: the buyer's password changes, nothing else.
    const res = await reset(vendor, buyerToken);
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('session='))).toBe(false);
    expect((await vendor.get('/rest/v1/users/me')).status).toBe(200);
    expect(await passwordHashOf(vendorEmail)).toBe(vendorHash);
    expect((await login(browserSession(t), { email: vendorEmail })).status).toBe(200);
    expect((await login(browserSession(t), { password: NEW_PASSWORD })).status).toBe(200);
    // The vendor's own link is untouched and still the vendor's.
    expect((await (await inspect(browserSession(t), vendorToken)).json()).data.email).toBe('v•••@example.com');
  });
});
