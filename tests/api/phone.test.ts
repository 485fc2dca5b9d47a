import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { countries, phones, users } from '../../db/schema/index.ts';
import { CSRF_HEADER } from '../../server/http/csrf.ts';
import { hashCode } from '../../server/services/phone/codes.ts';
import { errorOf } from '../support/api-errors.ts';
import { browserSession, signedInSession } from '../support/browser-session.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createUser, type TestUser } from '../support/users.ts';

let t: TestApp;
afterEach(() => t?.close());

type Browser = ReturnType<typeof browserSession>;

const NUMBER = '+49 151 23456789';
const E164 = '+4915123456789';
const MIN = 60_000;

/** The test's person: a fresh account in the test's app, made on first use. */
let made: { app: typeof t; user: Promise<TestUser> } | undefined;
const person = (): Promise<TestUser> => {
  if (made?.app !== t) made = { app: t, user: createUser(t) };
  return made.user;
};

const signedIn = async (email?: string) => signedInSession(t, email ?? (await person()).email);

/** The code in the last text message, as the person reads it off their phone. */
function lastCode(): string {
  const code = /\b(\d{6})\b/.exec(t.sms.at(-1)?.text ?? '')?.[1];
  if (!code) throw new Error('no code was sent');
  return code;
}

const wrongCodeFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

const me = async (b: Browser) => (await (await b.get('/rest/v1/users/me')).json()).data;

const send = (b: Browser, phone = NUMBER, call = false) => b.post('/account/send-phone-code', { phone, call });

async function verify(b: Browser, phone = NUMBER) {
  expect((await send(b, phone)).status).toBe(200);
  const res = await b.post('/rest/v1/users/confirm-phone', { phoneCode: lastCode() });
  expect(res.status).toBe(200);
}

async function userIdOf(email: string): Promise<number> {
  const row = await t.db.get(t.db.orm.select({ id: users.id }).from(users).where(eq(users.email, email)));
  if (!row) throw new Error(`no user ${email}`);
  return row.id;
}

describe('POST /account/send-phone-code', () => {
  it('texts a 6-digit code to the E.164 number and stores only its hash', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const res = await send(b);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ status: 'success', message: expect.stringContaining('+49 1512 3456789') });
    expect(t.sms).toHaveLength(1);
    expect(t.sms[0]?.to).toBe(E164);
    const code = lastCode();
    const userId = await userIdOf((await person()).email);
    const row = await t.db.get(t.db.orm.select().from(phones).where(eq(phones.userId, userId)));
    expect(row).toMatchObject({ number: E164, verifiedAt: null, codeHash: hashCode(code), codeAttempts: 0 });
    expect(row?.codeExpiresAt).toBe(t.clock.now + 10 * MIN);
    expect(JSON.stringify(row)).not.toContain(code);
  });

  it('understands the national form when the account has a country', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const national = await send(b, '0151 23456789');
    expect(national.status).toBe(400);
    expect(await errorOf(national)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'phone' });

    const germany = await t.db.get(
      t.db.orm.select({ id: countries.id }).from(countries).where(eq(countries.iso, 'DE')),
    );
    const email = (await person()).email;
    await t.db.run(t.db.orm.update(users).set({ countryId: germany?.id }).where(eq(users.email, email)));
    expect((await send(b, '0151 23456789')).status).toBe(200);
    expect(t.sms.at(-1)?.to).toBe(E164);
  });

  it.each([['12345'], ['+49 151'], ['+1 555 CALL NOW'], ['+4915123456789 ext. 12'], ['x'.repeat(40)]])(
    'refuses %j with a field error on phone and sends nothing',
    async (phone) => {
      t = await createTestApp();
      const b = await signedIn();
      const res = await send(b, phone);
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'phone' });
      expect(t.sms).toHaveLength(0);
    },
  );

  it('delivers a requested call as a text that says so', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const res = await send(b, NUMBER, true);
    expect(res.status).toBe(200);
    expect((await res.json()).message).toMatch(/calls are not available.*SMS/i);
    expect(t.sms[0]?.text).toMatch(/voice call/);
    expect(t.sms[0]?.text).toMatch(/\b\d{6}\b/);
  });

  it('allows 3 sends in 10 minutes and 10 a day, then answers 429 with Retry-After', async () => {
    t = await createTestApp();
    const b = await signedIn();
    for (let i = 0; i < 3; i++) expect((await send(b)).status).toBe(200);
    const limited = await send(b);
    expect(limited.status).toBe(429);
    expect((await errorOf(limited)).code).toBe('RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toBe('600');
    expect(t.sms).toHaveLength(3);

    // Sends at 0, 0, 0, then 10:00, 10:00, 10:00, then 20:00 … the tenth at 30:00.
    t.clock.now += 10 * MIN;
    for (let i = 0; i < 3; i++) expect((await send(b)).status).toBe(200);
    t.clock.now += 10 * MIN;
    for (let i = 0; i < 3; i++) expect((await send(b)).status).toBe(200);
    t.clock.now += 10 * MIN;
    expect((await send(b)).status).toBe(200);
    const daily = await send(b);
    expect(daily.status).toBe(429);
    // The first sends leave the day window 24 h after they were made, 30 minutes ago.
    expect(daily.headers.get('retry-after')).toBe(String(24 * 3600 - 30 * 60));
    expect(t.sms).toHaveLength(10);
  });

  it('limits one number to 10 texts an hour and 20 a day, whichever accounts ask', async () => {
    t = await createTestApp();
    const accounts = await Promise.all(Array.from({ length: 5 }, async () => (await createUser(t)).signIn()));
    // Three accounts, 3 + 3 + 3, then one more: the hour's 10 texts.
    for (const b of accounts.slice(0, 3)) for (let i = 0; i < 3; i++) expect((await send(b)).status).toBe(200);
    t.clock.now += 10 * MIN;
    expect((await send(accounts[3] as Browser)).status).toBe(200);
    const hourly = await send(accounts[4] as Browser);
    expect(hourly.status).toBe(429);
    expect(hourly.headers.get('retry-after')).toBe(String(50 * 60));
    // Another number is not affected.
    expect((await send(accounts[4] as Browser, '+49 151 23456780')).status).toBe(200);

    // 70 minutes in, the hour is empty again, the day holds 10: ten more, and the day is full.
    t.clock.now += 60 * MIN;
    for (const b of accounts.slice(0, 3)) for (let i = 0; i < 3; i++) expect((await send(b)).status).toBe(200);
    expect((await send(accounts[3] as Browser)).status).toBe(200);
    const daily = await send(accounts[4] as Browser);
    expect(daily.status).toBe(429);
    expect(daily.headers.get('retry-after')).toBe(String(24 * 3600 - 70 * 60));
    expect(t.sms.filter((m) => m.to === E164)).toHaveLength(20);
  });

  it('refuses a number another account has verified, counting the try', async () => {
    t = await createTestApp();
    await verify(await (await createUser(t)).signIn());
    const b = await signedIn();
    const res = await send(b);
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'phone' });
    expect(t.sms).toHaveLength(1);
    await send(b);
    await send(b);
    expect((await send(b, '+49 151 23456780')).status).toBe(429);
  });

  it('refuses a new number while one is verified: it must be removed first', async () => {
    t = await createTestApp();
    const b = await signedIn();
    await verify(b);
    const same = await send(b);
    expect(same.status).toBe(400);
    expect((await errorOf(same)).message).toMatch(/already verified on your account/);
    const other = await send(b, '+49 151 23456780');
    expect(other.status).toBe(400);
    expect(await errorOf(other)).toMatchObject({ field: 'phone', message: expect.stringMatching(/Remove/) });
    expect((await me(b)).isPhoneVerified).toBe(true);
  });
});

describe('POST /auth/send-phone-code and /auth/call-phone-code', () => {
  it('send like /account/send-phone-code, by text or as a requested call', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const sms = await b.post('/auth/send-phone-code', { phone: NUMBER });
    expect(sms.status).toBe(200);
    expect(await sms.json()).toMatchObject({ status: 'success' });
    expect(t.sms.at(-1)?.text).not.toMatch(/voice call/);
    const call = await b.post('/auth/call-phone-code', { phone: NUMBER });
    expect(call.status).toBe(200);
    expect(t.sms.at(-1)?.text).toMatch(/voice call/);
    expect(t.sms.map((m) => m.to)).toEqual([E164, E164]);
  });

  it('resend to the number waiting for confirmation when the body names none', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const none = await b.send('/auth/send-phone-code', { method: 'POST' });
    expect(none.status).toBe(400);
    expect((await errorOf(none)).field).toBe('phone');

    await send(b);
    const first = lastCode();
    expect((await b.send('/auth/call-phone-code', { method: 'POST' })).status).toBe(200);
    expect(t.sms.at(-1)?.to).toBe(E164);
    // The new code replaces the old one (a fresh random code: equal by chance once in a million).
    expect(lastCode()).not.toBe(first);
    const old = await b.post('/rest/v1/users/confirm-phone', { phoneCode: first });
    expect(old.status).toBe(400);
    expect((await b.post('/rest/v1/users/confirm-phone', { phoneCode: lastCode() })).status).toBe(200);
  });
});

describe('POST /rest/v1/users/confirm-phone', () => {
  it('verifies the number, and the current user says so', async () => {
    t = await createTestApp();
    const b = await signedIn();
    expect(await me(b)).toMatchObject({ isPhoneVerified: false, phone: null });
    await send(b);
    // Waiting for its code, the number is not the profile's yet.
    expect((await me(b)).phone).toBeNull();
    const res = await b.post('/rest/v1/users/confirm-phone', { phoneCode: lastCode() });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { isPhoneVerified: true, phone: E164 } });
    expect(await me(b)).toMatchObject({ isPhoneVerified: true, phone: E164 });
    expect((await (await b.get('/rest/v1/users/current_user')).json()).data.isPhoneVerified).toBe(true);
    // Used up: the same code does not confirm twice.
    const again = await b.post('/rest/v1/users/confirm-phone', { phoneCode: lastCode() });
    expect(again.status).toBe(400);
  });

  it('answers a wrong code on phoneCode and kills the code after 5 wrong tries', async () => {
    t = await createTestApp();
    const b = await signedIn();
    await send(b);
    const code = lastCode();
    for (let i = 1; i <= 5; i++) {
      const res = await b.post('/rest/v1/users/confirm-phone', { phoneCode: wrongCodeFor(code) });
      expect(res.status).toBe(400);
      const error = await errorOf(res);
      expect(error).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'phoneCode' });
      expect(error.message).toMatch(i < 5 ? `${5 - i} tr` : /last try/);
    }
    const right = await b.post('/rest/v1/users/confirm-phone', { phoneCode: code });
    expect(right.status).toBe(400);
    expect(await errorOf(right)).toMatchObject({ code: 'TOKEN_INVALID', field: 'phoneCode' });
    expect((await me(b)).isPhoneVerified).toBe(false);
  });

  it('refuses an expired code and answers 400 when none is pending', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const none = await b.post('/rest/v1/users/confirm-phone', { phoneCode: '123456' });
    expect(none.status).toBe(400);
    expect(await errorOf(none)).toMatchObject({ code: 'TOKEN_INVALID', field: 'phoneCode' });

    await send(b);
    t.clock.now += 10 * MIN;
    const expired = await b.post('/rest/v1/users/confirm-phone', { phoneCode: lastCode() });
    expect(expired.status).toBe(400);
    expect(await errorOf(expired)).toMatchObject({ code: 'TOKEN_INVALID', message: expect.stringMatching(/expired/) });
  });

  it.each([['12345'], ['abcdef'], ['1234567'], [''], [null]])('refuses the malformed code %j', async (phoneCode) => {
    t = await createTestApp();
    const b = await signedIn();
    await send(b);
    const res = await b.post('/rest/v1/users/confirm-phone', { phoneCode });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).field).toBe('phoneCode');
  });

  it('accepts the code with spaces, or as a number that lost its leading zeros', async () => {
    t = await createTestApp();
    const b = await signedIn();
    await send(b);
    const code = lastCode();
    const res = await b.post('/rest/v1/users/confirm-phone', { phoneCode: `${code.slice(0, 3)} ${code.slice(3)}` });
    expect(res.status).toBe(200);

    expect((await b.get('/rest/v1/users/reset-phone')).status).toBe(200);
    await send(b);
    const asNumber = await b.post('/rest/v1/users/confirm-phone', { phoneCode: Number(lastCode()) });
    expect(asNumber.status).toBe(200);
  });

  it('lets only the first of two accounts waiting on one number verify it', async () => {
    t = await createTestApp();
    const vendor = await (await createUser(t)).signIn();
    const buyer = await signedIn();
    await send(vendor);
    const vendorCode = lastCode();
    await send(buyer);
    const buyerCode = lastCode();
    expect((await vendor.post('/rest/v1/users/confirm-phone', { phoneCode: vendorCode })).status).toBe(200);
    const late = await buyer.post('/rest/v1/users/confirm-phone', { phoneCode: buyerCode });
    expect(late.status).toBe(400);
    expect((await errorOf(late)).field).toBe('phone');
    expect((await me(buyer)).isPhoneVerified).toBe(false);
  });
});

describe('GET /rest/v1/users/reset-phone', () => {
  it('removes the number, so it can be verified again or by someone else', async () => {
    t = await createTestApp();
    const b = await signedIn();
    await verify(b);
    const res = await b.get('/rest/v1/users/reset-phone');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { isPhoneVerified: false } });
    expect((await me(b)).isPhoneVerified).toBe(false);
    const userId = await userIdOf((await person()).email);
    const row = await t.db.get(t.db.orm.select().from(phones).where(eq(phones.userId, userId)));
    expect(row?.number ?? '').toBe('');

    t.clock.now += 10 * MIN;
    await verify(await (await createUser(t)).signIn());
  });

  it('keeps the send limits across a removal', async () => {
    t = await createTestApp();
    const b = await signedIn();
    for (let i = 0; i < 3; i++) expect((await send(b)).status).toBe(200);
    expect((await b.get('/rest/v1/users/reset-phone')).status).toBe(200);
    expect((await send(b)).status).toBe(429);
    // A day later the history is empty and a removal deletes the row.
    t.clock.now += 24 * 60 * MIN;
    expect((await b.get('/rest/v1/users/reset-phone')).status).toBe(200);
    expect(await t.db.all(t.db.orm.select().from(phones))).toHaveLength(0);
  });

  it('needs the CSRF header although it is a GET, so a link on another site cannot trigger it', async () => {
    t = await createTestApp();
    const b = await signedIn();
    await verify(b);
    const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const attempts: Record<string, string>[] = [
      { cookie, [CSRF_HEADER]: '' },
      { cookie, [CSRF_HEADER]: 'C'.repeat(43) },
      { cookie, [CSRF_HEADER]: b.jar.get('XSRF-TOKEN') ?? '', 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of attempts) {
      const res = await t.send('/rest/v1/users/reset-phone', { headers });
      expect(res.status).toBe(403);
      expect((await errorOf(res)).code).toBe('CSRF_TOKEN_MISMATCH');
    }
    expect((await me(b)).isPhoneVerified).toBe(true);
  });
});

describe('access', () => {
  it('answers 401 without a session', async () => {
    t = await createTestApp();
    const visitor = browserSession(t);
    for (const res of [
      await send(visitor),
      await visitor.post('/auth/send-phone-code', { phone: NUMBER }),
      await visitor.post('/auth/call-phone-code', { phone: NUMBER }),
      await visitor.post('/rest/v1/users/confirm-phone', { phoneCode: '123456' }),
      await visitor.get('/rest/v1/users/reset-phone'),
    ]) {
      expect(res.status).toBe(401);
    }
    expect(t.sms).toHaveLength(0);
  });

  it('answers 403 to a POST without the CSRF header', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    for (const path of ['/account/send-phone-code', '/auth/send-phone-code', '/auth/call-phone-code']) {
      const res = await t.send(path, {
        method: 'POST',
        json: { phone: NUMBER },
        headers: { cookie, [CSRF_HEADER]: '' },
      });
      expect(res.status).toBe(403);
    }
    expect(t.sms).toHaveLength(0);
  });
});
