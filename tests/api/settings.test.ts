import { afterEach, describe, expect, it } from 'vitest';
import { BIO_MAX_LENGTH, BIO_MAX_LINES, NOTIFY_INTERVAL_MAX_MINUTES } from '../../src/lib/shared/profile-rules.ts';
import { browserSession, signedInSession } from '../support/browser-session.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../support/test-app.ts';
import { createUser, type TestUser } from '../support/users.ts';

let t: TestApp;
afterEach(() => t?.close());

type Browser = ReturnType<typeof browserSession>;

/** The test's person: a fresh account in the test's app, made on first use. */
let made: { app: typeof t; user: TestUser } | undefined;
const person = async () => {
  if (made?.app !== t) made = { app: t, user: await createUser(t) };
  return made.user;
};

const signedIn = async (email?: string, ip?: string) => signedInSession(t, email ?? (await person()).email, ip);

/** The signed-in browser's cookies, but no X-CSRF-Token header: what a forged request carries. */
function withoutCsrfHeader(b: Browser, path: string, json: unknown) {
  const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  return t.app.request(`${TEST_ORIGIN}${path}`, {
    method: 'POST',
    headers: { cookie, origin: TEST_ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
}

const settingsOf = async (b: Browser) => (await (await b.get('/rest/v1/users/settings')).json()).data;

const storedRow = (email: string) =>
  t.db.sql.get<Record<string, unknown>>(
    'SELECT s.* FROM user_settings s JOIN users u ON u.id = s.user_id WHERE u.email = ?',
    [email],
  );

const DEFAULTS = {
  bio: '',
  notifyTradeMessagesInterval: 10,
  soundNotifications: true,
  notifySmsBitcoinsConfirmed: false,
  notifySmsIncomingTrade: false,
  emailSubscribed: false,
  securityQuestionsAnswered: false,
  telegramSubscribed: false,
  usernameChanged: false,
  countryId: null,
};

describe('GET /rest/v1/users/settings', () => {
  it('answers the defaults of spec section 3 before anything is saved', async () => {
    t = await createTestApp();
    const b = await signedIn();
    expect(await storedRow((await person()).email)).toBeUndefined();
    const res = await b.get('/rest/v1/users/settings');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: DEFAULTS });
  });

  it('matches the columns a first write creates', async () => {
    t = await createTestApp();
    const b = await signedIn();
    // Saving one value creates the row: every other value is now the schema's default.
    await b.post('/rest/v1/users/settings', { emailSubscribed: false });
    expect(await storedRow((await person()).email)).toBeDefined();
    expect(await settingsOf(b)).toEqual(DEFAULTS);
  });

  it('needs a session', async () => {
    t = await createTestApp();
    const res = await browserSession(t).get('/rest/v1/users/settings');
    expect(res.status).toBe(401);
    expect((await res.json()).errors[0].code).toBe('UNAUTHENTICATED');
  });
});

describe('POST /rest/v1/users/settings', () => {
  it('saves every value and answers them', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const body = {
      bio: '  Fast trader since 2019, 24/7, 500+ trades.\r\nBank transfer and Revolut.  ',
      notify_trade_messages_interval: '30',
      soundNotifications: false,
      notifySmsBitcoinsConfirmed: true,
      notifySmsIncomingTrade: true,
      emailSubscribed: true,
    };
    const res = await b.post('/rest/v1/users/settings', body);
    expect(res.status).toBe(200);
    const expected = {
      ...DEFAULTS,
      bio: 'Fast trader since 2019, 24/7, 500+ trades.\nBank transfer and Revolut.',
      notifyTradeMessagesInterval: 30,
      soundNotifications: false,
      notifySmsBitcoinsConfirmed: true,
      notifySmsIncomingTrade: true,
      emailSubscribed: true,
    };
    expect(await res.json()).toEqual({ data: expected });
    expect(await settingsOf(b)).toEqual(expected);
    expect(await storedRow((await person()).email)).toMatchObject({
      notify_trade_messages_interval: 30,
      sound_notifications: 0,
    });
  });

  it('changes only the values sent', async () => {
    t = await createTestApp();
    const b = await signedIn();
    await b.post('/rest/v1/users/settings', { bio: 'Quick releases.', notify_trade_messages_interval: 5 });
    await b.post('/rest/v1/users/settings', { emailSubscribed: 1, soundNotifications: '0' });
    expect(await settingsOf(b)).toMatchObject({
      bio: 'Quick releases.',
      notifyTradeMessagesInterval: 5,
      emailSubscribed: true,
      soundNotifications: false,
    });
    await b.post('/rest/v1/users/settings', { bio: '' });
    expect(await settingsOf(b)).toMatchObject({ bio: '', notifyTradeMessagesInterval: 5 });
  });

  it('drives isSoundEnabled of the current user', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const sound = async () => (await (await b.get('/rest/v1/users/current_user')).json()).data.isSoundEnabled;
    expect(await sound()).toBe(true);
    await b.post('/rest/v1/users/settings', { soundNotifications: false });
    expect(await sound()).toBe(false);
    expect((await (await b.get('/rest/v1/users/me')).json()).data.isSoundEnabled).toBe(false);
    await b.post('/rest/v1/users/settings', { soundNotifications: true });
    expect(await sound()).toBe(true);
  });

  it('answers usernameChanged from the account', async () => {
    t = await createTestApp();
    const b = await signedIn();
    await b.post('/rest/v1/users/set-username', { username: 'NewName21' });
    expect((await settingsOf(b)).usernameChanged).toBe(true);
  });

  it.each([
    ['too long', 'a'.repeat(BIO_MAX_LENGTH + 1), 'bio_max'],
    ['a phone number', 'call me 0803 555 1234', 'bio_contact_error'],
    ['a messenger handle', 'ping @fasttrader', 'bio_contact_error'],
    ['a Telegram link', 't.me/fast', 'bio_contact_error'],
    ['an e-mail address', 'me at x@y.com', 'bio_contact_error'],
    ['a domain', 'visit fast-btc.com', 'bio_contact_error'],
    ['too many lines', Array.from({ length: BIO_MAX_LINES + 1 }, (_, i) => `line ${i}`).join('\n'), 'bio_limit'],
  ])('refuses a bio with %s: key %s', async (_label, bio, key) => {
    t = await createTestApp();
    const b = await signedIn();
    const res = await b.post('/rest/v1/users/settings', { bio });
    expect(res.status).toBe(400);
    const error = (await res.json()).errors[0];
    expect(error).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'bio' });
    expect(error.details).toEqual([{ field: 'bio', message: expect.any(String), key }]);
    expect(await storedRow((await person()).email)).toBeUndefined();
  });

  it.each([['ten'], ['10.5'], ['-5'], [''], [-1], [2.5], [null], [true]])(
    'refuses the interval %j: notification_digits_error',
    async (value) => {
      t = await createTestApp();
      const b = await signedIn();
      const res = await b.post('/rest/v1/users/settings', { notify_trade_messages_interval: value });
      expect(res.status).toBe(400);
      expect((await res.json()).errors[0].details).toEqual([
        { field: 'notify_trade_messages_interval', message: expect.any(String), key: 'notification_digits_error' },
      ]);
    },
  );

  it(`refuses more than ${NOTIFY_INTERVAL_MAX_MINUTES} minutes: notification_error with the amount`, async () => {
    t = await createTestApp();
    const b = await signedIn();
    const res = await b.post('/rest/v1/users/settings', {
      notify_trade_messages_interval: String(NOTIFY_INTERVAL_MAX_MINUTES + 1),
    });
    expect(res.status).toBe(400);
    const [detail] = (await res.json()).errors[0].details;
    expect(detail).toMatchObject({ field: 'notify_trade_messages_interval', key: 'notification_error' });
    expect(detail.message).toContain(String(NOTIFY_INTERVAL_MAX_MINUTES));
    const ok = await b.post('/rest/v1/users/settings', { notify_trade_messages_interval: NOTIFY_INTERVAL_MAX_MINUTES });
    expect(ok.status).toBe(200);
  });

  it('reports every bad field and saves nothing, not even the valid ones', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const res = await b.post('/rest/v1/users/settings', {
      bio: 'wa.me/2348035551234',
      notify_trade_messages_interval: '2000',
      emailSubscribed: true,
    });
    expect(res.status).toBe(400);
    const error = (await res.json()).errors[0];
    expect(error.details.map((d: { field: string; key: string }) => [d.field, d.key])).toEqual([
      ['bio', 'bio_contact_error'],
      ['notify_trade_messages_interval', 'notification_error'],
    ]);
    expect(await storedRow((await person()).email)).toBeUndefined();
    expect(await settingsOf(b)).toEqual(DEFAULTS);
  });

  it('refuses a flag that is not true or false', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const res = await b.post('/rest/v1/users/settings', { soundNotifications: 'loud', bio: 'fine' });
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0]).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'soundNotifications' });
    expect(await storedRow((await person()).email)).toBeUndefined();
  });

  it('says a form body is not what it reads, and saves nothing', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const res = await b.send('/rest/v1/users/settings', {
      method: 'POST',
      body: 'bio=hello',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect((await res.json()).errors[0].code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(await storedRow((await person()).email)).toBeUndefined();
  });

  it('needs a session, whatever the body', async () => {
    t = await createTestApp();
    const b = browserSession(t);
    for (const body of [{ bio: 'hello' }, { notify_trade_messages_interval: 'x' }]) {
      const res = await b.post('/rest/v1/users/settings', body);
      expect(res.status).toBe(401);
      expect((await res.json()).errors[0].code).toBe('UNAUTHENTICATED');
    }
  });

  it('needs the CSRF token and saves nothing without it', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const res = await withoutCsrfHeader(b, '/rest/v1/users/settings', { bio: 'forged' });
    expect(res.status).toBe(403);
    expect((await res.json()).errors[0].code).toBe('CSRF_TOKEN_MISMATCH');
    expect(await storedRow((await person()).email)).toBeUndefined();
  });

  it("never shows one person's settings to another", async () => {
    t = await createTestApp();
    const buyer = await signedIn((await person()).email, '198.51.100.20');
    const vendor = await signedIn((await createUser(t)).email, '198.51.100.21');
    await buyer.post('/rest/v1/users/settings', {
      bio: 'Buyer bio',
      notify_trade_messages_interval: 60,
      soundNotifications: false,
    });
    expect(await settingsOf(vendor)).toEqual(DEFAULTS);
    expect((await (await vendor.get('/rest/v1/users/current_user')).json()).data.isSoundEnabled).toBe(true);
    await vendor.post('/rest/v1/users/settings', { bio: 'Vendor bio' });
    expect((await settingsOf(buyer)).bio).toBe('Buyer bio');
    expect((await settingsOf(vendor)).bio).toBe('Vendor bio');
  });
});

describe('/rest/v1/cookie-policy signed in', () => {
  const ALL_ON = {
    login: true,
    newsletter: true,
    survey: true,
    site: true,
    account: true,
    orderProcessing: true,
    forms: true,
    thirdParty: true,
  };
  const cookieSettingsOf = async (b: Browser) => (await (await b.get('/rest/v1/cookie-policy')).json()).data.settings;

  it('stores the choice with the account and sets the cookie too', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const res = await b.post('/rest/v1/cookie-policy', { settings: { newsletter: false, thirdParty: false } });
    expect(res.status).toBe(200);
    expect((await res.json()).data.settings).toEqual({ ...ALL_ON, newsletter: false, thirdParty: false });
    expect(res.headers.getSetCookie().find((c) => c.startsWith('cookie_settings='))).toMatch(
      /^cookie_settings=10111110;/,
    );
    expect(await storedRow((await person()).email)).toMatchObject({ cookie_settings: '10111110' });
  });

  it('follows the person to another browser, and the stored choice wins over a cookie', async () => {
    t = await createTestApp();
    await (await signedIn()).post('/rest/v1/cookie-policy', { settings: { survey: false } });
    const other = await signedIn((await person()).email, '198.51.100.30');
    expect(await cookieSettingsOf(other)).toEqual({ ...ALL_ON, survey: false });
    other.jar.set('cookie_settings', '00000000');
    expect(await cookieSettingsOf(other)).toEqual({ ...ALL_ON, survey: false });
    // A change merges into the stored choice, not into this browser's cookie.
    await other.post('/rest/v1/cookie-policy', { settings: { forms: false } });
    expect(await cookieSettingsOf(other)).toEqual({ ...ALL_ON, survey: false, forms: false });
  });

  it('falls back to the cookie, then to the defaults, until a choice is stored', async () => {
    t = await createTestApp();
    const b = await signedIn();
    expect(await cookieSettingsOf(b)).toEqual(ALL_ON);
    b.jar.set('cookie_settings', '01111111');
    expect(await cookieSettingsOf(b)).toEqual({ ...ALL_ON, login: false });
    // The first signed-in save starts from what the banner had chosen in this browser.
    await b.post('/rest/v1/cookie-policy', { settings: { site: false } });
    expect(await storedRow((await person()).email)).toMatchObject({ cookie_settings: '01101111' });
  });

  it("keeps one person's choice from another, and a visitor's choice out of the database", async () => {
    t = await createTestApp();
    await (await signedIn((await person()).email)).post('/rest/v1/cookie-policy', { settings: { login: false } });
    const vendor = await signedIn((await createUser(t)).email, '198.51.100.31');
    expect(await cookieSettingsOf(vendor)).toEqual(ALL_ON);
    const visitor = browserSession(t);
    expect((await visitor.post('/rest/v1/cookie-policy', { settings: { login: false } })).status).toBe(200);
    expect(await cookieSettingsOf(visitor)).toEqual({ ...ALL_ON, login: false });
    expect(await t.db.sql.get('SELECT count(*) AS n FROM user_settings')).toEqual({ n: 1 });
  });

  it('needs the CSRF token signed in as well', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const res = await withoutCsrfHeader(b, '/rest/v1/cookie-policy', { settings: { login: false } });
    expect(res.status).toBe(403);
    expect(await storedRow((await person()).email)).toBeUndefined();
  });
});
