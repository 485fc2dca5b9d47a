import { afterEach, describe, expect, it, vi } from 'vitest';
import { CSRF_HEADER } from '../../server/http/csrf.ts';
import { REVIEW_TOKEN_TTL_MS } from '../../server/services/devices/devices.ts';
import { browserSession, STRONG_PASSWORD } from '../support/browser-session.ts';
import { createTestApp, TEST_NOW, type TestApp } from '../support/test-app.ts';

let t: TestApp;
afterEach(() => t?.close());

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.86 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const EMAIL = 'ada@example.org';
const LINK = /http:\/\/localhost\/review-device\?token=([0-9a-f]{64})/;

/** A browser session that sends its own user agent. */
const browser = (userAgent: string, ip = '198.51.100.20') => browserSession(t, ip, { 'user-agent': userAgent });

async function signUp() {
  const b = browser(CHROME);
  expect((await b.post('/rest/v1/auth/register', { email: EMAIL, password: STRONG_PASSWORD })).status).toBe(201);
  return b;
}

async function signIn(b: ReturnType<typeof browser>) {
  const res = await b.post('/rest/v1/auth/login', { email: EMAIL, password: STRONG_PASSWORD });
  expect(res.status).toBe(200);
  return b;
}

const reviewMails = () => t.sent.filter((m) => LINK.test(m.text));

/** Signs in from Firefox (a new device) and answers the token from the mail. */
async function newDevice(ip = '198.51.100.20') {
  const b = await signIn(browser(FIREFOX, ip));
  const token = LINK.exec(reviewMails().at(-1)?.text ?? '')?.[1];
  expect(token).toBeDefined();
  return { b, token: token as string };
}

const review = (token: string, isConfirmed: boolean) =>
  t.send('/rest/v1/castle/review-device', { method: 'POST', json: { isConfirmed, deviceToken: token } });

describe('device review at sign-in', () => {
  it('trusts the first device and a known one without mail', async () => {
    t = await createTestApp();
    await signUp();
    await signIn(browser(CHROME));
    // Another address in the same /24 is the same device.
    await signIn(browser(CHROME, '198.51.100.77'));
    expect(reviewMails()).toHaveLength(0);
    expect(t.sent).toHaveLength(1); // only the e-mail confirmation of the sign-up
  });

  it('mails a review link for a new device, once while it is pending, and shows its facts', async () => {
    t = await createTestApp();
    await signUp();
    const { token } = await newDevice();
    expect(reviewMails()).toHaveLength(1);
    expect(reviewMails()[0]?.to).toBe(EMAIL);
    expect(reviewMails()[0]?.text).toContain('Firefox 133.0 on Linux');

    await signIn(browser(FIREFOX));
    expect(reviewMails()).toHaveLength(1);

    const res = await t.send(`/rest/v1/castle/review-device/${token}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: {
        device: {
          browser: 'Firefox',
          version: '133.0',
          os: 'Linux',
          ip: '198.51.100.20',
          city: null,
          country: null,
          date: new Date(TEST_NOW).toISOString(),
        },
      },
    });
    // Only the hash is stored.
    const row = (await t.db.sql.get<{ review_token_hash: string }>(
      'SELECT review_token_hash FROM devices WHERE status = ?',
      ['pending'],
    )) as { review_token_hash: string };
    expect(row.review_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.review_token_hash).not.toBe(token);
  });
});

describe('city and country of a new device', () => {
  // From DB-IP City Lite in node_modules (server/services/devices/geolocation.ts). Countries were
  // read from the database; cities change between its monthly releases, so only their presence
  // is asserted.
  const stored = () =>
    t.db.sql.all<{ status: string; city: string | null; country: string | null }>(
      'SELECT status, city, country FROM devices ORDER BY id',
    );

  it('are looked up for a public address, shown in the review and named in the mail', async () => {
    t = await createTestApp();
    await signUp();
    const { token } = await newDevice('8.8.8.8');
    const res = await t.send(`/rest/v1/castle/review-device/${token}`);
    expect(res.status).toBe(200);
    const { device } = (await res.json()).data;
    expect(device).toMatchObject({ ip: '8.8.8.8', country: 'United States' });
    expect(device.city).toEqual(expect.stringMatching(/\S/));
    // The row keeps the ISO code; the API names it.
    expect((await stored()).at(-1)).toMatchObject({ status: 'pending', country: 'US', city: device.city });
    const mail = reviewMails()[0]?.text ?? '';
    expect(mail).toContain(`address 8.8.8.8 (${device.city}, United States).`);
    expect(mail).toContain('IP Geolocation by DB-IP, https://db-ip.com');
  });

  it("name the country in the request's language; the mail stays English", async () => {
    t = await createTestApp();
    await signUp();
    const { token } = await newDevice('8.8.8.8');
    const named = async (query: string, headers: Record<string, string> = {}) =>
      (await (await t.send(`/rest/v1/castle/review-device/${token}${query}`, { headers })).json()).data.device.country;
    expect(await named('?locale=de')).toBe('Vereinigte Staaten');
    expect(await named('?locale=fr')).toBe('États-Unis');
    expect(await named('', { 'accept-language': 'es-MX,es;q=0.9' })).toBe('Estados Unidos');
    expect(await named('?locale=en')).toBe('United States');
    expect(await named('?locale=xx')).toBe('United States');
    expect(reviewMails()[0]?.text).toContain(', United States).');
  });

  it('unwrap an IPv4 client of a dual-stack socket', async () => {
    t = await createTestApp();
    await signUp();
    const { token } = await newDevice('::ffff:1.1.1.1');
    const { device } = (await (await t.send(`/rest/v1/castle/review-device/${token}`)).json()).data;
    expect(device).toMatchObject({ ip: '::ffff:1.1.1.1', country: 'Australia' });
    expect(device.city).toEqual(expect.stringMatching(/\S/));
  });

  it("are filled for an account's first device too, just after the commit", async () => {
    t = await createTestApp();
    const b = browser(CHROME, '1.1.1.1');
    expect((await b.post('/rest/v1/auth/register', { email: EMAIL, password: STRONG_PASSWORD })).status).toBe(201);
    // The first lookup may still be reading its ~63 MB file.
    await vi.waitFor(
      async () => expect(await stored()).toEqual([{ status: 'confirmed', city: expect.any(String), country: 'AU' }]),
      { timeout: 5000 },
    );
  });

  it('stay null for a private address, and with GEOIP=off', async () => {
    t = await createTestApp();
    await signUp();
    const { token } = await newDevice('10.1.2.3');
    const { device } = (await (await t.send(`/rest/v1/castle/review-device/${token}`)).json()).data;
    expect(device).toMatchObject({ ip: '10.1.2.3', city: null, country: null });
    expect(reviewMails()[0]?.text).toContain('address 10.1.2.3.');
    expect(reviewMails()[0]?.text).not.toContain('DB-IP');
    t.close();

    t = await createTestApp({ config: { GEOIP: 'off' } });
    await signUp();
    const off = await newDevice('8.8.8.8');
    const answer = (await (await t.send(`/rest/v1/castle/review-device/${off.token}`)).json()).data;
    expect(answer.device).toMatchObject({ ip: '8.8.8.8', city: null, country: null });
    expect((await stored()).every((row) => row.city === null && row.country === null)).toBe(true);
  });
});

describe('POST /rest/v1/castle/review-device', () => {
  it('confirms a device once; it is then known', async () => {
    t = await createTestApp();
    await signUp();
    const { b, token } = await newDevice();
    const res = await review(token, true);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { redirectTo: '/approved-device' } });

    expect((await t.send(`/rest/v1/castle/review-device/${token}`)).status).toBe(404);
    expect((await review(token, false)).status).toBe(404);
    // The confirmed device keeps its session and signs in again without mail.
    expect((await b.get('/rest/v1/users/me')).status).toBe(200);
    await signIn(browser(FIREFOX));
    expect(reviewMails()).toHaveLength(1);
  });

  it('ends every session of a reported device and only those', async () => {
    t = await createTestApp();
    const chrome = await signUp();
    const { b: firefox, token } = await newDevice();
    // The same device from another address of its network, and Firefox from another network.
    const sameNetwork = await signIn(browser(FIREFOX, '198.51.100.99'));
    const elsewhere = await signIn(browser(FIREFOX, '192.0.2.5'));

    const res = await review(token, false);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { redirectTo: '/reported-device' } });

    expect((await firefox.get('/rest/v1/users/me')).status).toBe(401);
    expect((await sameNetwork.get('/rest/v1/users/me')).status).toBe(401);
    expect((await elsewhere.get('/rest/v1/users/me')).status).toBe(200);
    expect((await chrome.get('/rest/v1/users/me')).status).toBe(200);
    expect((await t.send(`/rest/v1/castle/review-device/${token}`)).status).toBe(404);
  });

  it('refuses a link older than 7 days, and a later sign-in asks again', async () => {
    t = await createTestApp();
    await signUp();
    const { token } = await newDevice();
    t.clock.now += REVIEW_TOKEN_TTL_MS + 1;
    expect((await t.send(`/rest/v1/castle/review-device/${token}`)).status).toBe(404);
    expect((await review(token, true)).status).toBe(404);

    const again = await newDevice();
    expect(again.token).not.toBe(token);
    expect(reviewMails()).toHaveLength(2);
  });

  it('answers 404 for an unknown token and 400 for a malformed body', async () => {
    t = await createTestApp();
    expect((await t.send('/rest/v1/castle/review-device/not-a-token')).status).toBe(404);
    expect((await t.send(`/rest/v1/castle/review-device/${'a'.repeat(64)}`)).status).toBe(404);
    expect((await review('a'.repeat(64), true)).status).toBe(404);
    const bad = await t.send('/rest/v1/castle/review-device', {
      method: 'POST',
      json: { isConfirmed: 'yes', deviceToken: 'a'.repeat(64) },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0]).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'isConfirmed' });
  });

  it('needs the CSRF token', async () => {
    t = await createTestApp();
    await signUp();
    const { token } = await newDevice();
    const res = await t.send('/rest/v1/castle/review-device', {
      method: 'POST',
      headers: { [CSRF_HEADER]: '' },
      json: { isConfirmed: false, deviceToken: token },
    });
    expect(res.status).toBe(403);
    expect((await t.send(`/rest/v1/castle/review-device/${token}`)).status).toBe(200);
  });
});
