import { afterEach, describe, expect, it } from 'vitest';
import { signedInSession } from '../support/browser-session.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

// The session read every signed-in request makes is planned once on SQLite (db/plan-once.ts,
// decision 145): the same prepared statement answers one session after another, each with its
// own person, and a token that names no session finds nobody.

let t: TestApp;
afterEach(() => t?.close());

describe('the session read, one statement for every session', () => {
  it('answers each person from their own session, in turns on the same statement', async () => {
    t = await createTestApp();
    const buyer = await signedInSession(t, 'buyer@example.com');
    const vendor = await signedInSession(t, 'vendor@example.com');
    for (const [browser, username] of [
      [buyer, 'buyer'],
      [vendor, 'vendor'],
      [buyer, 'buyer'],
      [vendor, 'vendor'],
    ] as const) {
      const res = await browser.get('/rest/v1/users/me');
      expect(res.status).toBe(200);
      expect((await res.json()).data).toMatchObject({ isLogged: true, username });
    }
  });

  it('finds nobody for a well-formed token that names no session, after reading one that does', async () => {
    t = await createTestApp();
    const buyer = await signedInSession(t, 'buyer@example.com');
    expect((await buyer.get('/rest/v1/users/me')).status).toBe(200);
    buyer.jar.set('session', 'x'.repeat(43));
    const res = await buyer.get('/rest/v1/users/me');
    expect(res.status).toBe(401);
    expect((await res.json()).errors[0].code).toBe('UNAUTHENTICATED');
  });
});
