import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { fiatCurrencies, phones, users } from '../../db/schema/index.ts';
import { signedInSession } from '../support/browser-session.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

// The session read every signed-in request makes is planned once on SQLite (db/plan-once.ts,
// decision 145): the same prepared statement answers one session after another, each with its
// own person, and a token that names no session finds nobody. The current user's verification
// flags take the user, phone and currency from that read (not read again): they must agree with
// the verification page, which reads them itself.

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

  it('gives the verification flags from the session read, as the verification page reads them', async () => {
    t = await createTestApp();
    const buyer = await signedInSession(t, 'buyer@example.com');
    const flags = async () => {
      const me = (await (await buyer.get('/rest/v1/users/me')).json()).data;
      const page = (await (await buyer.get('/rest/v1/verification')).json()).data;
      expect(me.kycLevelCheck).toEqual({
        level: page.level,
        unusedTradingVolumeInFiatCurrency: page.allowance.unused,
      });
      expect(me.isPhoneVerified).toBe(page.steps.phone);
      return { level: page.level, currency: page.allowance.currency };
    };
    expect(await flags()).toEqual({ level: 1, currency: 'USD' });
    // A phone verified and a currency chosen while signed in: the next request's session read has them.
    const userId = (await t.db.get(t.db.orm.select().from(users).where(eq(users.email, 'buyer@example.com'))))?.id;
    const eur = await t.db.get(t.db.orm.select().from(fiatCurrencies).where(eq(fiatCurrencies.code, 'EUR')));
    if (userId === undefined || !eur) throw new Error('the demo buyer and EUR are seeded');
    await t.db.run(
      t.db.orm.insert(phones).values({ userId, number: '+12025550142', verifiedAt: t.clock.now, codesSentAt: [] }),
    );
    await t.db.run(t.db.orm.update(users).set({ currencyId: eur.id }).where(eq(users.id, userId)));
    expect(await flags()).toEqual({ level: 2, currency: 'EUR' });
  });
});
