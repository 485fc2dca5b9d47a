import { generateSync } from 'otplib';
import { afterEach, describe, expect, it } from 'vitest';
import { CommandError, userCommands } from '../../server/admin/user-commands.ts';
import { CSRF_COOKIE } from '../../server/http/csrf.ts';
import { MAX_FAILURES_PER_ACCOUNT } from '../../server/services/accounts/throttle.ts';
import { systemContext } from '../../server/services/context.ts';
import { errorOf } from '../support/api-errors.ts';
import { browserSession } from '../support/browser-session.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
afterEach(() => t?.close());

type Browser = ReturnType<typeof browserSession>;

const EMAIL = 'buyer@example.com';
const PASSWORD = 'Coinfair-demo-2026!';
const STEP_MS = 30_000;

const login = (b: Browser, body: Record<string, unknown> = {}) =>
  b.post('/rest/v1/auth/login', { email: EMAIL, password: PASSWORD, ...body });

async function signedIn(ip?: string) {
  const b = browserSession(t, ip);
  expect((await login(b)).status).toBe(200);
  return b;
}

/** What the authenticator app shows at the test clock, `offsetMs` away. */
const codeAt = (secret: string, offsetMs = 0) =>
  generateSync({ secret, epoch: Math.floor((t.clock.now + offsetMs) / 1000) });

/** Turns 2FA on through the API; the confirming step is used up afterwards. */
async function enable(b: Browser) {
  const setup = await b.post('/rest/v1/users/2fa/setup');
  expect(setup.status).toBe(200);
  const { secret } = (await setup.json()).data as { secret: string };
  const confirm = await b.post('/rest/v1/users/2fa/confirm', { code: codeAt(secret) });
  expect(confirm.status).toBe(200);
  const { recoveryCodes } = (await confirm.json()).data as { recoveryCodes: string[] };
  return { secret, recoveryCodes };
}

const status = async (b: Browser) => (await (await b.get('/rest/v1/users/2fa')).json()).data;
const sessionCount = async () => (await t.db.sql.get<{ n: number }>('SELECT count(*) AS n FROM sessions'))?.n;

describe('/rest/v1/users/2fa: setup and confirmation', () => {
  it('issues a secret with its QR code, turns on with a code from the app and shows recovery codes once', async () => {
    t = await createTestApp();
    const b = await signedIn();
    expect(await status(b)).toEqual({
      state: 'initial',
      login: false,
      sendout: false,
      release: false,
      recoveryCodesLeft: 0,
    });

    const setup = await b.post('/rest/v1/users/2fa/setup');
    const { secret, otpauthUrl, qrSvg } = (await setup.json()).data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toBe(`otpauth://totp/Coinfair:buyer?secret=${secret}&issuer=Coinfair`);
    expect(qrSvg).toMatch(/^<svg/);
    expect((await status(b)).state).toBe('verification');

    const wrong = await b.post('/rest/v1/users/2fa/confirm', { code: codeAt(secret, 5 * STEP_MS) });
    expect(wrong.status).toBe(400);
    expect(await errorOf(wrong)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'code' });

    const confirm = await b.post('/rest/v1/users/2fa/confirm', { code: codeAt(secret) });
    expect(confirm.status).toBe(200);
    const data = (await confirm.json()).data;
    expect(data).toMatchObject({ state: 'enabled', login: true, sendout: true, release: true, recoveryCodesLeft: 10 });
    expect(data.recoveryCodes).toHaveLength(10);

    expect(await status(b)).toEqual({
      state: 'enabled',
      login: true,
      sendout: true,
      release: true,
      recoveryCodesLeft: 10,
    });
    expect((await (await b.get('/rest/v1/users/me')).json()).data.twoFactor).toEqual({
      login: true,
      sendout: true,
      release: true,
    });
    // The database keeps hashes of the recovery codes, never the codes.
    const row = (await t.db.sql.get<{ h: string }>('SELECT recovery_code_hashes AS h FROM two_factor')) as {
      h: string;
    };
    const stored = JSON.parse(row.h) as string[];
    expect(stored).toHaveLength(10);
    for (const code of data.recoveryCodes) expect(row.h).not.toContain(code.replace('-', ''));
    expect(stored.every((h) => /^[0-9a-f]{64}$/.test(h))).toBe(true);

    const again = await b.post('/rest/v1/users/2fa/setup');
    expect(again.status).toBe(409);
    expect(await errorOf(again)).toMatchObject({ code: 'TWO_FACTOR_ALREADY_ENABLED' });
  });

  it('a new setup replaces a pending secret; confirming without one is refused', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const none = await b.post('/rest/v1/users/2fa/confirm', { code: '123456' });
    expect(none.status).toBe(409);
    expect(await errorOf(none)).toMatchObject({ code: 'TWO_FACTOR_NOT_ENABLED' });

    const first = (await (await b.post('/rest/v1/users/2fa/setup')).json()).data.secret;
    const second = (await (await b.post('/rest/v1/users/2fa/setup')).json()).data.secret;
    expect(second).not.toBe(first);
    expect((await b.post('/rest/v1/users/2fa/confirm', { code: codeAt(first) })).status).toBe(400);
    expect((await b.post('/rest/v1/users/2fa/confirm', { code: codeAt(second) })).status).toBe(200);
  });

  it('rotates the session on enabling: the old cookie and other devices are signed out', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const otherDevice = await signedIn('198.51.100.77');
    const oldSession = b.jar.get('session');
    const oldCsrf = b.jar.get(CSRF_COOKIE);

    await enable(b);
    expect(b.jar.get('session')).not.toBe(oldSession);
    expect(b.jar.get(CSRF_COOKIE)).not.toBe(oldCsrf);
    expect((await b.get('/rest/v1/users/me')).status).toBe(200);
    expect((await otherDevice.get('/rest/v1/users/me')).status).toBe(401);

    const stale = browserSession(t);
    stale.jar.set('session', oldSession ?? '');
    stale.jar.set(CSRF_COOKIE, oldCsrf ?? '');
    expect((await stale.get('/rest/v1/users/me')).status).toBe(401);
    expect(await sessionCount()).toBe(1);
  });
});

describe('sign-in with a second factor', () => {
  it('asks for the code only after the right password, and creates no session until it comes', async () => {
    t = await createTestApp();
    const { secret } = await enable(await signedIn());
    t.clock.now += STEP_MS;
    const before = await sessionCount();

    const wrongPassword = await login(browserSession(t), { password: 'Wrong-password-1' });
    expect(wrongPassword.status).toBe(401);
    expect(await errorOf(wrongPassword)).toMatchObject({ code: 'INVALID_CREDENTIALS' });

    const b = browserSession(t);
    const noCode = await login(b);
    expect(noCode.status).toBe(401);
    expect(await errorOf(noCode)).toMatchObject({ code: 'TWO_FACTOR_REQUIRED', field: 'code' });
    expect(noCode.headers.getSetCookie().some((c) => c.startsWith('session='))).toBe(false);
    expect(await sessionCount()).toBe(before);

    const wrongCode = await login(b, { code: codeAt(secret, 3 * STEP_MS) });
    expect(wrongCode.status).toBe(401);
    expect(await errorOf(wrongCode)).toMatchObject({ code: 'TWO_FACTOR_INVALID', field: 'code' });
    expect(await sessionCount()).toBe(before);

    const right = await login(b, { code: codeAt(secret) });
    expect(right.status).toBe(200);
    expect((await b.get('/rest/v1/users/me')).status).toBe(200);
  });

  it('takes a code once: a replay within its 30 seconds fails, the next step works', async () => {
    t = await createTestApp();
    const { secret } = await enable(await signedIn());
    // The confirming code is spent too.
    expect(await errorOf(await login(browserSession(t), { code: codeAt(secret) }))).toMatchObject({
      code: 'TWO_FACTOR_INVALID',
    });
    t.clock.now += STEP_MS;
    const code = codeAt(secret);
    expect((await login(browserSession(t), { code })).status).toBe(200);
    t.clock.now += 10_000;
    const replay = await login(browserSession(t), { code });
    expect(replay.status).toBe(401);
    expect(await errorOf(replay)).toMatchObject({ code: 'TWO_FACTOR_INVALID' });
    t.clock.now += 20_000;
    expect((await login(browserSession(t), { code: codeAt(secret) })).status).toBe(200);
  });

  it('allows one step of clock drift either way, not two', async () => {
    t = await createTestApp();
    const { secret } = await enable(await signedIn());
    t.clock.now += 10 * STEP_MS;
    // Oldest first: a code accepted a step ahead would, rightly, block the older ones.
    expect((await login(browserSession(t), { code: codeAt(secret, -2 * STEP_MS) })).status).toBe(401);
    expect((await login(browserSession(t), { code: codeAt(secret, -STEP_MS) })).status).toBe(200);
    expect((await login(browserSession(t), { code: codeAt(secret) })).status).toBe(200);
    expect((await login(browserSession(t), { code: codeAt(secret, STEP_MS) })).status).toBe(200);
    expect((await login(browserSession(t), { code: codeAt(secret, 2 * STEP_MS) })).status).toBe(401);
  });

  it('takes a recovery code once, typed any way', async () => {
    t = await createTestApp();
    const { recoveryCodes } = await enable(await signedIn());
    const [code = ''] = recoveryCodes;
    const b = browserSession(t);
    expect((await login(b, { code: ` ${code.toUpperCase()} ` })).status).toBe(200);
    expect((await status(b)).recoveryCodesLeft).toBe(9);
    const again = await login(browserSession(t), { code });
    expect(again.status).toBe(401);
    expect(await errorOf(again)).toMatchObject({ code: 'TWO_FACTOR_INVALID' });
  });

  it(`locks the account after ${MAX_FAILURES_PER_ACCOUNT} wrong codes, even for the right one`, async () => {
    t = await createTestApp();
    const { secret } = await enable(await signedIn());
    t.clock.now += STEP_MS;
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++) {
      const res = await login(browserSession(t, `192.0.2.${i}`), { code: String(i).padStart(6, '0') });
      expect(res.status).toBe(401);
    }
    const locked = await login(browserSession(t), { code: codeAt(secret) });
    expect(locked.status).toBe(429);
    expect(await errorOf(locked)).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    t.clock.now += 15 * 60 * 1000 + 1;
    expect((await login(browserSession(t), { code: codeAt(secret) })).status).toBe(200);
  });

  it('rejects an over-long code as input, and ignores a code when 2FA is off', async () => {
    t = await createTestApp();
    const long = await login(browserSession(t), { code: '1'.repeat(65) });
    expect(long.status).toBe(400);
    expect(await errorOf(long)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'code' });
    expect((await login(browserSession(t), { code: '123456' })).status).toBe(200);
  });
});

describe('turning it off and choosing what it protects', () => {
  it('disables with a current code, rotating the session; sign-in needs no code afterwards', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const { secret } = await enable(b);
    t.clock.now += STEP_MS;

    const wrong = await b.post('/rest/v1/users/2fa/disable', { code: '000000' });
    expect(wrong.status).toBe(400);
    expect(await errorOf(wrong)).toMatchObject({ field: 'code' });

    const before = b.jar.get('session');
    const off = await b.post('/rest/v1/users/2fa/disable', { code: codeAt(secret) });
    expect(off.status).toBe(200);
    expect((await off.json()).data).toEqual({
      state: 'disabled',
      login: false,
      sendout: false,
      release: false,
      recoveryCodesLeft: 0,
    });
    expect(b.jar.get('session')).not.toBe(before);
    expect((await (await b.get('/rest/v1/users/me')).json()).data.twoFactor).toEqual({
      login: false,
      sendout: false,
      release: false,
    });
    expect((await login(browserSession(t))).status).toBe(200);
    const twice = await b.post('/rest/v1/users/2fa/disable', { code: codeAt(secret, STEP_MS) });
    expect(twice.status).toBe(409);
    expect(await errorOf(twice)).toMatchObject({ code: 'TWO_FACTOR_NOT_ENABLED' });
    // It can be set up again, with a new secret.
    const again = (await (await b.post('/rest/v1/users/2fa/setup')).json()).data.secret;
    expect(again).not.toBe(secret);
  });

  it('disables with a recovery code', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const { recoveryCodes } = await enable(b);
    const off = await b.post('/rest/v1/users/2fa/disable', { code: recoveryCodes[3] });
    expect(off.status).toBe(200);
    expect((await status(b)).state).toBe('disabled');
  });

  it('changes the purposes with a current code; sign-in without the login purpose needs no code', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const { secret } = await enable(b);
    t.clock.now += STEP_MS;

    const noCode = await b.post('/rest/v1/users/2fa/purposes', { login: false, sendout: true, release: true });
    expect(noCode.status).toBe(400);
    expect(await errorOf(noCode)).toMatchObject({ field: 'code' });
    const nothing = await b.post('/rest/v1/users/2fa/purposes', {
      login: false,
      sendout: false,
      release: false,
      code: codeAt(secret),
    });
    expect(nothing.status).toBe(400);
    const wrong = await b.post('/rest/v1/users/2fa/purposes', {
      login: false,
      sendout: true,
      release: true,
      code: '000000',
    });
    expect(wrong.status).toBe(400);
    expect(await errorOf(wrong)).toMatchObject({ field: 'code' });

    const changed = await b.post('/rest/v1/users/2fa/purposes', {
      login: false,
      sendout: true,
      release: false,
      code: codeAt(secret),
    });
    expect(changed.status).toBe(200);
    expect((await changed.json()).data).toMatchObject({
      state: 'enabled',
      login: false,
      sendout: true,
      release: false,
    });
    expect((await (await b.get('/rest/v1/users/me')).json()).data.twoFactor).toEqual({
      login: false,
      sendout: true,
      release: false,
    });
    expect((await login(browserSession(t))).status).toBe(200);

    const userId = (await t.db.sql.get<{ id: number }>('SELECT id FROM users WHERE email = ?', [EMAIL]))?.id ?? 0;
    expect(await t.services.twoFactor.verify(systemContext('test'), { userId, purpose: 'release' })).toBe('disabled');
    expect(await t.services.twoFactor.verify(systemContext('test'), { userId, purpose: 'sendout' })).toBe('failed');
    t.clock.now += STEP_MS;
    expect(
      await t.services.twoFactor.verify(systemContext('test'), { userId, purpose: 'sendout', code: codeAt(secret) }),
    ).toBe('passed');
  });

  it(`counts wrong codes on the signed-in forms too: 429 after ${MAX_FAILURES_PER_ACCOUNT}`, async () => {
    t = await createTestApp();
    const b = await signedIn();
    const { secret } = await enable(b);
    t.clock.now += STEP_MS;
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++) {
      expect((await b.post('/rest/v1/users/2fa/disable', { code: String(i).padStart(6, '0') })).status).toBe(400);
    }
    const locked = await b.post('/rest/v1/users/2fa/disable', { code: codeAt(secret) });
    expect(locked.status).toBe(429);
    // One count of wrong codes per account: the sign-in form's code check is refused as well.
    expect((await login(browserSession(t), { code: codeAt(secret) })).status).toBe(429);
  });
});

describe('access', () => {
  const calls: [string, string, unknown][] = [
    ['GET', '/rest/v1/users/2fa', undefined],
    ['POST', '/rest/v1/users/2fa/setup', {}],
    ['POST', '/rest/v1/users/2fa/confirm', { code: '123456' }],
    ['POST', '/rest/v1/users/2fa/disable', { code: '123456' }],
    ['POST', '/rest/v1/users/2fa/purposes', { login: true, sendout: true, release: true, code: '123456' }],
  ];

  it.each(calls)('%s %s needs a session (401)', async (method, path, json) => {
    t = await createTestApp();
    const res = await browserSession(t).send(path, { method, ...(json === undefined ? {} : { json }) });
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it.each(calls.filter(([method]) => method === 'POST'))('%s %s needs the CSRF token (403)', async (_, path, json) => {
    t = await createTestApp();
    const b = await signedIn();
    // The session cookie and the CSRF cookie, but no X-CSRF-Token header: what a forged form sends.
    const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await t.app.request(`${b.origin}${path}`, {
      method: 'POST',
      headers: { cookie, origin: b.origin, 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toMatchObject({ code: 'CSRF_TOKEN_MISMATCH' });
    expect((await status(b)).state).toBe('initial');
  });
});

describe('npm run admin -- user:reset-2fa', () => {
  it('removes the second factor and ends the sessions', async () => {
    t = await createTestApp();
    const b = await signedIn();
    await enable(b);
    const commands = userCommands(t.db, () => t.clock.now);

    expect(await commands.resetTwoFactor('Buyer@Example.com')).toBe(
      'buyer@example.com: two-factor authentication removed; 1 session(s) ended.',
    );
    expect((await b.get('/rest/v1/users/me')).status).toBe(401);
    const fresh = browserSession(t);
    expect((await login(fresh)).status).toBe(200);
    expect((await status(fresh)).state).toBe('initial');

    expect(await commands.resetTwoFactor(EMAIL)).toBe(
      'buyer@example.com: no two-factor authentication to remove; nothing changed.',
    );
    await expect(commands.resetTwoFactor('ghost@example.com')).rejects.toThrow(CommandError);
  });
});
