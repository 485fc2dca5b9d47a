import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { browserSession, STRONG_PASSWORD } from '../support/browser-session.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';

// Referral links at registration (issue 20, first part): `referral_code` binds the new person to
// the code's owner (tier 1), whose own referrer is tier 2. Refused: a code nobody has, and a code
// used from where its owner signs in (the same address, or the same browser on the same network).

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t?.close());

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

async function register(email: string, code: string | undefined, ip: string, userAgent = FIREFOX) {
  const b = browserSession(t, ip, { 'user-agent': userAgent });
  return b.post('/rest/v1/auth/register', { email, password: STRONG_PASSWORD, referral_code: code });
}

const referrerOf = async (email: string) =>
  (
    await t.db.sql.get<{ referrer: string | null }>(
      `SELECT r.email AS referrer FROM users u LEFT JOIN users r ON r.id = u.referred_by_id WHERE u.email = ?`,
      [email],
    )
  )?.referrer ?? null;

const codeOf = async (email: string) =>
  (await t.db.sql.get<{ code: string }>('SELECT referral_code AS code FROM users WHERE email = ?', [email]))?.code ??
  '';

describe('registration with a referral code', () => {
  it('binds the new person to the code’s owner, and theirs to the one before: two tiers', async () => {
    const ada = await createUser(t, { email: 'ada@example.org' });
    await ada.signIn('198.51.100.20');
    expect((await register('bea@example.org', await codeOf('ada@example.org'), '203.0.113.10')).status).toBe(201);
    expect(await referrerOf('bea@example.org')).toBe('ada@example.org');
    // The referrer hears of it.
    await t.services.notificationsSettled();
    const inbox = (await (await (await ada.session()).get('/rest/v1/notifications')).json()).data;
    expect(inbox).toEqual([
      expect.objectContaining({
        type: 'referral_joined',
        link: '/affiliates',
        message: expect.stringMatching(/signed up with your referral link$/),
      }),
    ]);
    // Codes are read case-blind, as people copy them.
    const beaCode = (await codeOf('bea@example.org')).toUpperCase();
    expect((await register('cem@example.org', beaCode, '192.0.2.30')).status).toBe(201);
    expect(await referrerOf('cem@example.org')).toBe('bea@example.org');
    expect(await referrerOf('bea@example.org')).toBe('ada@example.org');
    // Without a code nobody referred the person.
    expect((await register('dan@example.org', undefined, '192.0.2.40')).status).toBe(201);
    expect(await referrerOf('dan@example.org')).toBeNull();
  });

  it('refuses a code nobody has, naming the field, and opens no account', async () => {
    const res = await register('eve@example.org', 'ffffffffff', '203.0.113.10');
    expect(res.status).toBe(400);
    const error = (await res.json()).errors[0];
    expect(error).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'referral_code' });
    expect(error.details[0].key).toBe('referral_unknown');
    expect(await t.db.sql.get('SELECT id FROM users WHERE email = ?', ['eve@example.org'])).toBeUndefined();
  });

  it('refuses a code used from where its owner signs in: one address, or one browser on one network', async () => {
    const ada = await createUser(t, { email: 'ada@example.org' });
    await ada.signIn('198.51.100.20');
    const code = await codeOf('ada@example.org');
    const sameAddress = await register('fay@example.org', code, '198.51.100.20', 'Another browser/1.0');
    expect(sameAddress.status).toBe(400);
    expect((await sameAddress.json()).errors[0].details[0].key).toBe('referral_self');
    // The test session signed in with the default test user agent (browser-session.ts): none here,
    // so the same network counts only with the same browser.
    const sameBrowserNearby = await register('gus@example.org', code, '198.51.100.21', '');
    expect((await sameBrowserNearby.json()).errors?.[0]?.details?.[0]?.key).toBe('referral_self');
    expect(
      await t.db.sql.get('SELECT id FROM users WHERE email IN (?, ?)', ['fay@example.org', 'gus@example.org']),
    ).toBeUndefined();
    // Someone else on the same network with their own browser is someone new.
    expect((await register('hal@example.org', code, '198.51.100.22')).status).toBe(201);
    expect(await referrerOf('hal@example.org')).toBe('ada@example.org');
  });
});
