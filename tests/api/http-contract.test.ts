import { afterAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER } from '../../server/http/csrf.ts';
import { createTestApp, TEST_ORIGIN } from '../support/test-app.ts';

// Conventions every endpoint shares (ARCHITECTURE.md, spec sections 7 and 8).

const t = await createTestApp();
afterAll(() => t.close());

const TOKEN = 'B'.repeat(43);

describe('error envelope', () => {
  it('answers unknown endpoints with a JSON 404', async () => {
    const res = await t.send('/rest/v1/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({
      errors: [{ code: 'NOT_FOUND', message: 'No endpoint GET /rest/v1/no-such-thing.' }],
    });
  });

  it('answers a malformed JSON body with 400, never 500', async () => {
    const res = await t.app.request(`${TEST_ORIGIN}/rest/v1/cookie-policy`, {
      method: 'POST',
      headers: { cookie: `${CSRF_COOKIE}=${TOKEN}`, [CSRF_HEADER]: TOKEN, 'content-type': 'application/json' },
      body: '{"settings": ',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].code).toBe('ERROR_INPUT_VALIDATION');
  });

  it('GET /healthz reports ok', async () => {
    const res = await t.send('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { status: 'ok' } });
  });

  it('marks API answers uncacheable and sets security headers', async () => {
    const res = await t.send('/rest/v1/timezones');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });
});

describe('CSRF', () => {
  it('issues a readable XSRF-TOKEN cookie to a client without one', async () => {
    const res = await t.app.request(`${TEST_ORIGIN}/rest/v1/timezones`);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^XSRF-TOKEN=[A-Za-z0-9_-]{43}; Path=\/; SameSite=Lax$/);
    expect(cookie).not.toContain('HttpOnly');
  });

  it('does not reissue a token the client already holds', async () => {
    const res = await t.app.request(`${TEST_ORIGIN}/rest/v1/timezones`, {
      headers: { cookie: `${CSRF_COOKIE}=${TOKEN}` },
    });
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  const post = (headers: Record<string, string>) =>
    t.app.request(`${TEST_ORIGIN}/rest/v1/cookie-policy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ settings: { survey: false } }),
    });

  it.each([
    ['no cookie and no header', {}],
    ['a cookie but no header', { cookie: `${CSRF_COOKIE}=${TOKEN}` }],
    ['a header that does not match', { cookie: `${CSRF_COOKIE}=${TOKEN}`, [CSRF_HEADER]: 'C'.repeat(43) }],
    [
      'a matching token from another origin',
      { cookie: `${CSRF_COOKIE}=${TOKEN}`, [CSRF_HEADER]: TOKEN, origin: 'https://evil.example' },
    ],
    [
      'a matching token sent cross-site',
      { cookie: `${CSRF_COOKIE}=${TOKEN}`, [CSRF_HEADER]: TOKEN, 'sec-fetch-site': 'cross-site' },
    ],
  ])('refuses a POST with %s: 403 CSRF_TOKEN_MISMATCH and nothing changes', async (_label, headers) => {
    const res = await post(headers);
    expect(res.status).toBe(403);
    const body = await res.json();
    expect(body.errors[0]).toMatchObject({ code: 'CSRF_TOKEN_MISMATCH', field: CSRF_HEADER });
    expect(res.headers.get('set-cookie') ?? '').not.toContain('cookie_settings');
  });

  it('accepts a POST from our own page', async () => {
    const res = await post({
      cookie: `${CSRF_COOKIE}=${TOKEN}`,
      [CSRF_HEADER]: TOKEN,
      origin: TEST_ORIGIN,
      'sec-fetch-site': 'same-origin',
    });
    expect(res.status).toBe(200);
  });
});

describe('/rest/v1/cookie-policy', () => {
  it('answers all eight categories on by default', async () => {
    const body = await (await t.send('/rest/v1/cookie-policy')).json();
    expect(body.data.settings).toEqual({
      login: true,
      newsletter: true,
      survey: true,
      site: true,
      account: true,
      orderProcessing: true,
      forms: true,
      thirdParty: true,
    });
  });

  it('stores a change in a one-year cookie at path / and reads it back', async () => {
    const res = await t.send('/rest/v1/cookie-policy', {
      method: 'POST',
      json: { settings: { newsletter: false, thirdParty: false } },
    });
    expect(res.status).toBe(200);
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('cookie_settings='));
    expect(setCookie).toBe('cookie_settings=10111110; Path=/; Max-Age=31536000; SameSite=Lax');
    const cookie = `${CSRF_COOKIE}=${'A'.repeat(43)}; cookie_settings=10111110`;
    const read = await (await t.send('/rest/v1/cookie-policy', { headers: { cookie } })).json();
    expect(read.data.settings).toMatchObject({ newsletter: false, thirdParty: false, login: true });
  });

  it.each([
    [{ settings: { survey: 'no' } }, 'settings.survey'],
    [{ settings: { tracking: true } }, 'settings.tracking'],
    [{}, 'settings'],
  ])('rejects %j with a field error and sets no cookie', async (json, field) => {
    const res = await t.send('/rest/v1/cookie-policy', { method: 'POST', json });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.errors[0].code).toBe('ERROR_INPUT_VALIDATION');
    expect(body.errors[0].details.map((d: { field: string }) => d.field)).toContain(field);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('cookie_settings='))).toBe(false);
  });
});
