import { afterEach, describe, expect, it } from 'vitest';
import { browserSession, signedInSession } from '../support/browser-session.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';

let t: TestApp;
afterEach(() => t?.close());

/** Some signed-in person, a fresh one unless named. */
const signedIn = async (email?: string) => signedInSession(t, email ?? (await createUser(t)).email);

describe('GET /rest/v1/users/me and /current_user', () => {
  it('answers the current-user shape of spec section 3', async () => {
    t = await createTestApp();
    // The seeded vendor: the answer carries its username and address.
    const b = await signedIn('vendor@example.com');
    for (const path of ['/rest/v1/users/me', '/rest/v1/users/current_user']) {
      const { data } = await (await b.get(path)).json();
      expect(data).toMatchObject({
        isLogged: true,
        username: 'vendor',
        email: 'vendor@example.com',
        isVendor: true,
        isEmailVerified: true,
        isBanned: false,
        isSuspended: false,
        twoFactor: { login: false, sendout: false, release: false },
        wallet: { isAllowedSendout: true, isKYCRequired: false },
        kycLevelCheck: { level: 1 },
      });
      expect(data.referralCode).toMatch(/^[0-9a-f]{10}$/);
      expect(data).not.toHaveProperty('passwordHash');
      expect(JSON.stringify(data)).not.toContain('$argon2');
    }
  });

  it('answers 401 to /me and isLogged false to /current_user for a visitor', async () => {
    t = await createTestApp();
    const b = browserSession(t);
    const me = await b.get('/rest/v1/users/me');
    expect(me.status).toBe(401);
    expect((await me.json()).errors[0].code).toBe('UNAUTHENTICATED');
    // A visitor is somewhere too: the test address places nowhere, so DEFAULT_COUNTRY (US).
    const { data } = await (await b.get('/rest/v1/users/current_user')).json();
    expect(data).toMatchObject({ isLogged: false, visitorCountryISO: 'US', currency: 'USD', locationCurrency: 'USD' });
    expect(data.country).toMatchObject({ iso: 'US', name: 'United States', currency: 'USD' });
    expect(Object.keys(data).sort()).toEqual([
      'country',
      'currency',
      'isLogged',
      'locationCurrency',
      'visitorCountryISO',
    ]);
  });
});

describe('POST /rest/v1/users/set-username', () => {
  it('changes the username once', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const res = await b.post('/rest/v1/users/set-username', { username: 'SatoshiFan21' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { username: 'SatoshiFan21', isUsernameChanged: true } });
    const me = (await (await b.get('/rest/v1/users/me')).json()).data;
    expect(me).toMatchObject({ username: 'SatoshiFan21', isUsernameChanged: true });
    const second = await b.post('/rest/v1/users/set-username', { username: 'Another1' });
    expect(second.status).toBe(409);
    expect((await second.json()).errors[0]).toMatchObject({ code: 'USERNAME_ALREADY_CHANGED', field: 'username' });
  });

  it.each([['with space'], ['dash-ed'], ['ab'], ['a'.repeat(21)], ['émile1'], ['']])(
    'refuses %j: letters and digits only, 3 to 20',
    async (username) => {
      t = await createTestApp();
      const b = await signedIn();
      const res = await b.post('/rest/v1/users/set-username', { username });
      expect(res.status).toBe(400);
      expect((await res.json()).errors[0]).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'username' });
    },
  );

  it('refuses a name someone has, whatever its case, and keeps the one change', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const taken = await b.post('/rest/v1/users/set-username', { username: 'VENDOR' });
    expect(taken.status).toBe(400);
    expect((await b.post('/rest/v1/users/set-username', { username: 'FreeName1' })).status).toBe(200);
  });

  it('needs a session and the CSRF token', async () => {
    t = await createTestApp();
    expect((await browserSession(t).post('/rest/v1/users/set-username', { username: 'Name1' })).status).toBe(401);
    const b = await signedIn();
    const noToken = await b.send('/rest/v1/users/set-username', {
      method: 'POST',
      json: { username: 'Name1' },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(noToken.status).toBe(403);
  });
});
