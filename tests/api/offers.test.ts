import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../server/services/context.ts';
import { type browserSession, signedInSession } from '../support/browser-session.ts';
import { fundPeople } from '../support/offer-funds.ts';
import { createTestApp, TEST_NOW, type TestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';

// Offers over the API: the vendor's calls, the listing search with every parameter, and the start
// gate of one offer. The demo offers are switched off first, so each test sees only its own.

let t: TestApp;
afterEach(() => t?.close());

type Browser = ReturnType<typeof browserSession>;

/** Writes behind the services' back, then drops the cached searches as a moderation tool would. */
const sql = async (statement: string, ...params: unknown[]) => {
  await t.db.sql.run(statement, params);
  await t.services.offers.invalidateSearches(systemContext('test'));
};
const offerCount = async () => (await t.db.sql.get<{ n: number }>('SELECT count(*) AS n FROM offers'))?.n;

const signedIn = (email: string, ip?: string) => signedInSession(t, email, ip);

/** A valid offer body; `overrides` replace fields. The vendor sells bitcoin for US dollars by bank transfer. */
const offerBody = (overrides: Record<string, unknown> = {}) => ({
  type: 'sell',
  crypto_currency_code: 'BTC',
  currency: 'USD',
  payment_method: 'bank-transfer',
  price_type: 'margin',
  margin: '2.5',
  fiat_min: '50',
  fiat_max: '1000',
  payment_window: 60,
  terms: 'Send from an account in your own name.',
  trade_instructions: 'IBAN follows in the chat.',
  tags: ['receipt-required'],
  ...overrides,
});

/** Publishes an offer; its owner's wallets are funded first unless `unfunded` (decision 121). */
async function createOffer(b: Browser, overrides: Record<string, unknown> = {}, { unfunded = false } = {}) {
  if (!unfunded) {
    const me = (await (await b.get('/rest/v1/users/me')).json()).data as { id: string };
    await fundPeople({ db: t.db, ledger: t.services.ledger }, 'public_id = ?', [me.id]);
  }
  const res = await b.post('/rest/v1/offers', offerBody(overrides));
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return (await res.json()).data as { hash: string; fiatPricePerCrypto: number } & Record<string, unknown>;
}

const search = async (b: Browser | typeof t, query: string) => {
  const res = await ('jar' in b ? b.get(`/rest/v1/offers?${query}`) : t.send(`/rest/v1/offers?${query}`));
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
  return (await res.json()) as {
    data: { hash: string; fiatPricePerCrypto: number; isFeatured: boolean; score: number }[];
    meta: Record<string, unknown>;
  };
};

beforeEach(async () => {
  t = await createTestApp();
  await sql(`UPDATE offers SET status = 'paused'`);
  await sql('UPDATE users SET last_seen_at = ?', TEST_NOW);
});

describe('POST /rest/v1/offers', () => {
  it('publishes a vendor offer priced at the market plus its margin', async () => {
    // The seeded vendor: the answer names its owner `vendor`.
    const vendor = await signedIn('vendor@example.com');
    const offer = await createOffer(vendor);
    // The test feed stands at 90,000 USD per bitcoin: +2.5 % is 92,250.00.
    expect(offer).toMatchObject({
      hash: expect.stringMatching(/^[0-9A-Za-z]{11}$/),
      url: `/offers/${offer.hash}`,
      type: 'sell',
      offerType: 'sell',
      cryptoCurrency: 'BTC',
      fiatCurrency: 'USD',
      fiatLimitMin: 50,
      fiatLimitMax: 1000,
      margin: 2.5,
      priceType: 'margin',
      fiatPricePerCrypto: 92_250,
      fiatPricePerBtc: 92_250,
      fiatUSDPricePerBtc: 92_250,
      paymentMethod: 'Bank transfer',
      paymentMethodSlug: 'bank-transfer',
      paymentGroup: 'bank-transfers',
      paymentWindowTime: 60,
      paxfulFee: 1,
      offerTerms: 'Send from an account in your own name.',
      tags: ['receipt-required'],
      isGiftCard: false,
      owner: { username: 'vendor', isDeferredEscrow: false },
      bond: { isRequired: false },
      status: 'active',
      isPubliclyVisible: true,
    });
    // The trade instructions are for the trade partner once a trade starts, and for the owner.
    expect(offer.tradeInstructions).toBe('IBAN follows in the chat.');
    const buyer = await (await createUser(t)).signIn();
    expect(await (await buyer.get(`/rest/v1/offers/${offer.hash}`)).text()).not.toContain('IBAN');
    expect(await (await t.send('/rest/v1/offers?type=buy')).text()).not.toContain('IBAN');
    expect(await (await buyer.get('/rest/v1/users/vendor/offers')).text()).not.toContain('IBAN');
    expect((await (await vendor.get(`/rest/v1/offers/${offer.hash}`)).json()).data.tradeInstructions).toBe(
      'IBAN follows in the chat.',
    );
  });

  it('prices in the currency of the offer, at its decimals, and keeps a fixed price fixed', async () => {
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    const euro = await createOffer(vendor, { currency: 'EUR', payment_method: 'sepa', margin: '-1.25' });
    // 90,000 USD × 0.86 EUR/USD = 77,400 EUR per bitcoin, 1.25 % below: 76,432.50.
    expect(euro).toMatchObject({ fiatCurrency: 'EUR', fiatPricePerCrypto: 76_432.5, margin: -1.25 });
    const fixed = await createOffer(vendor, { price_type: 'fixed', fixed_price: '99000', margin: undefined });
    expect(fixed).toMatchObject({ priceType: 'fixed', fiatPricePerCrypto: 99_000, margin: 10 });
    const yen = await createOffer(vendor, {
      currency: 'JPY',
      payment_method: 'bank-transfer',
      fiat_min: '5000',
      fiat_max: '90000',
    });
    expect(yen).toMatchObject({ fiatLimitMin: 5000, fiatLimitMax: 90_000 });
    expect(Number.isInteger(yen.fiatPricePerCrypto)).toBe(true);
  });

  it.each([
    [{ currency: 'XXQ' }, 'currency'],
    [{ payment_method: 'carrier-pigeon' }, 'payment_method'],
    [{ margin: '151' }, 'margin'],
    [{ margin: '-50.01' }, 'margin'],
    [{ margin: '2.555' }, 'margin'],
    [{ margin: 'lots' }, 'margin'],
    [{ fiat_min: '500', fiat_max: '100' }, 'fiat_max'],
    [{ fiat_min: '0' }, 'fiat_min'],
    [{ fiat_min: '10.555' }, 'fiat_min'],
    [{ currency: 'JPY', fiat_min: '10.5' }, 'fiat_min'],
    [{ terms: 'x'.repeat(3001) }, 'terms'],
    [{ payment_method_label: 'x'.repeat(41) }, 'payment_method_label'],
    [{ payment_window: 17 }, 'payment_window'],
    [{ predefined_amounts: ['20'] }, 'predefined_amounts.0'],
    [{ predefined_amounts: Array.from({ length: 11 }, (_, i) => String(100 + i)) }, 'predefined_amounts'],
    [{ tags: ['free-money'] }, 'tags'],
    [{ tags: ['instant', 'cash-only', 'receipt-required', 'online-payments'] }, 'tags'],
    [{ allowed_countries: ['ZZ'] }, 'allowed_countries'],
    [{ allowed_countries: ['DE'], blocked_countries: ['de'] }, 'blocked_countries'],
    [{ require_min_past_trades: 1001 }, 'require_min_past_trades'],
    [{ new_buyer_max_fiat: '10' }, 'new_buyer_max_fiat'],
    [{ price_type: 'fixed', fixed_price: undefined }, 'fixed_price'],
    [{ payment_method: 'cash-in-person' }, 'location_id'],
    [{ type: 'swap' }, 'type'],
    [{ crypto_currency_code: 'ETH' }, 'crypto_currency_code'],
    [{ fiat_min: 50 }, 'fiat_min'],
  ])('refuses %o with a field error on %s and saves nothing', async (overrides, field) => {
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    const before = await offerCount();
    const res = await vendor.post('/rest/v1/offers', offerBody(overrides));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.errors[0].code).toBe('ERROR_INPUT_VALIDATION');
    expect(body.errors[0].details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await offerCount()).toBe(before);
  });

  it('reports every problem at once', async () => {
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    const res = await vendor.post(
      '/rest/v1/offers',
      offerBody({ margin: '900', fiat_min: '0', terms: 'x'.repeat(4000) }),
    );
    const fields = (await res.json()).errors[0].details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['margin', 'fiat_min', 'terms']));
  });

  it('takes cash in person with a place to meet, and finds it near that place', async () => {
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    const lagos = (await t.db.sql.get<{ id: number }>(`SELECT id FROM locations WHERE city_name = 'Lagos'`)) as {
      id: number;
    };
    const offer = await createOffer(vendor, {
      payment_method: 'cash-in-person',
      currency: 'NGN',
      fiat_min: '50000',
      fiat_max: '900000',
      location_id: lagos.id,
    });
    expect(offer).toMatchObject({ isCashInPerson: true, location: { cityName: 'Lagos', countryIso: 'NG' } });
    expect((await search(t, `currency=NGN&location_id=${lagos.id}`)).data.map((o) => o.hash)).toEqual([offer.hash]);
    const far = (await t.db.sql.get<{ id: number }>(`SELECT id FROM locations WHERE city_name = 'Nairobi'`)) as {
      id: number;
    };
    expect((await search(t, `currency=NGN&location_id=${far.id}`)).data).toEqual([]);
  });

  it('is for vendors only', async () => {
    const buyer = await (await createUser(t)).signIn();
    const res = await buyer.post('/rest/v1/offers', offerBody());
    expect(res.status).toBe(403);
    expect((await res.json()).errors[0]).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('vendor terms'),
    });
  });

  it('needs a session and the CSRF token', async () => {
    expect((await t.send('/rest/v1/offers', { method: 'POST', json: offerBody() })).status).toBe(401);
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    const res = await t.send('/rest/v1/offers', {
      method: 'POST',
      json: offerBody(),
      headers: { cookie: `session=${vendor.jar.get('session')}`, 'x-csrf-token': 'wrong' },
    });
    expect(res.status).toBe(403);
    expect(await offerCount()).toBe(640);
  });
});

describe('the vendor changes their offers', () => {
  it('replaces an offer, switches it off and on, and deletes it', async () => {
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    const offer = await createOffer(vendor);

    const put = await vendor.send(`/rest/v1/offers/${offer.hash}`, {
      method: 'PUT',
      json: offerBody({ margin: '5', fiat_max: '2000' }),
    });
    expect(put.status).toBe(200);
    expect((await put.json()).data).toMatchObject({ margin: 5, fiatLimitMax: 2000, fiatPricePerCrypto: 94_500 });

    const off = await vendor.post(`/rest/v1/offers/${offer.hash}/toggle`);
    expect((await off.json()).data.status).toBe('paused');
    expect((await search(t, 'type=buy')).data).toEqual([]);
    // A paused offer is its owner's to see, nobody else's.
    expect((await vendor.get(`/rest/v1/offers/${offer.hash}`)).status).toBe(200);
    expect((await t.send(`/rest/v1/offers/${offer.hash}`)).status).toBe(404);

    const on = await vendor.post(`/rest/v1/offers/${offer.hash}/toggle`, { active: true });
    expect((await on.json()).data.status).toBe('active');
    const stillOn = await vendor.post(`/rest/v1/offers/${offer.hash}/toggle`, { active: true });
    expect((await stillOn.json()).data.status).toBe('active');

    const bad = await vendor.post(`/rest/v1/offers/${offer.hash}/toggle`, { active: 'yes' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0].field).toBe('active');

    const del = await vendor.send(`/rest/v1/offers/${offer.hash}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect((await vendor.get(`/rest/v1/offers/${offer.hash}`)).status).toBe(404);
    expect((await vendor.send(`/rest/v1/offers/${offer.hash}`, { method: 'DELETE' })).status).toBe(404);
  });

  it("never touches another vendor's offer", async () => {
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    const offer = await createOffer(vendor);
    const other = await signedIn('swiftsats@vendors.example.com');
    for (const res of [
      await other.send(`/rest/v1/offers/${offer.hash}`, { method: 'PUT', json: offerBody({ margin: '40' }) }),
      await other.post(`/rest/v1/offers/${offer.hash}/toggle`),
      await other.send(`/rest/v1/offers/${offer.hash}`, { method: 'DELETE' }),
    ]) {
      expect(res.status).toBe(404);
    }
    expect((await search(t, 'type=buy')).data).toMatchObject([{ hash: offer.hash, fiatPricePerCrypto: 92_250 }]);
  });

  it('cannot switch on an offer a moderator stopped', async () => {
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    const offer = await createOffer(vendor);
    await sql(`UPDATE offers SET status = 'blocked' WHERE hash = ?`, offer.hash);
    const res = await vendor.post(`/rest/v1/offers/${offer.hash}/toggle`, { active: true });
    expect(res.status).toBe(403);
    expect((await vendor.get(`/rest/v1/offers/${offer.hash}`)).status).toBe(200);
  });

  it('lists a vendor offers: public ones to others, all but deleted to the owner', async () => {
    // The seeded vendor, whose profile is /users/vendor.
    const vendor = await signedIn('vendor@example.com');
    const a = await createOffer(vendor);
    const b = await createOffer(vendor, { is_publicly_visible: false });
    const c = await createOffer(vendor);
    await vendor.post(`/rest/v1/offers/${c.hash}/toggle`);
    const own = (await (await vendor.get('/rest/v1/users/vendor/offers')).json()).data.map(
      (o: { hash: string }) => o.hash,
    );
    expect(own).toEqual(expect.arrayContaining([a.hash, b.hash, c.hash]));
    const seen = (await (await t.send('/rest/v1/users/VENDOR/offers')).json()).data.map(
      (o: { hash: string }) => o.hash,
    );
    expect(seen).toEqual([a.hash]);
    expect((await t.send('/rest/v1/users/nobody42/offers')).status).toBe(404);
    expect((await t.send('/rest/v1/users/not-a-name!/offers')).status).toBe(400);
  });
});

describe('GET /rest/v1/offers', () => {
  it('lists sell offers to buyers cheapest first and buy offers to sellers dearest first, featured on top', async () => {
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    const cheap = await createOffer(vendor, { margin: '1' });
    const dear = await createOffer(vendor, { margin: '8' });
    const featured = await createOffer(vendor, { margin: '20' });
    await sql('UPDATE offers SET is_featured = 1 WHERE hash = ?', featured.hash);
    const bidLow = await createOffer(vendor, { type: 'buy', margin: '-3' });
    const bidHigh = await createOffer(vendor, { type: 'buy', margin: '-1' });

    const buying = await search(t, 'type=buy&currency=USD');
    expect(buying.data.map((o) => o.hash)).toEqual([featured.hash, cheap.hash, dear.hash]);
    expect(buying.meta).toMatchObject({
      featuredOffersCount: 1,
      otherOffersCount: 2,
      page: 1,
      pageSize: 50,
      relaxed: [],
    });
    const selling = await search(t, 'type=sell&currency=usd');
    expect(selling.data.map((o) => o.hash)).toEqual([bidHigh.hash, bidLow.hash]);
  });

  it('sorts a fixed price among margins by where it stands against the market', async () => {
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    const plus3 = await createOffer(vendor, { margin: '3' });
    const fixed = await createOffer(vendor, { price_type: 'fixed', fixed_price: '91800', margin: undefined }); // +2 %
    const plus1 = await createOffer(vendor, { margin: '1' });
    expect((await search(t, 'type=buy')).data.map((o) => o.hash)).toEqual([plus1.hash, fixed.hash, plus3.hash]);
  });

  it('filters by currency, payment method, group, amount and crypto', async () => {
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    const usdBank = await createOffer(vendor, { fiat_min: '100', fiat_max: '500' });
    const eurSepa = await createOffer(vendor, { currency: 'EUR', payment_method: 'sepa' });
    const usdPaypal = await createOffer(vendor, { payment_method: 'paypal' });
    const tether = await createOffer(vendor, { crypto_currency_code: 'USDT', margin: '0.5' });
    const hashes = async (query: string) => (await search(t, query)).data.map((o) => o.hash).sort();

    expect(await hashes('type=buy&currency=EUR')).toEqual([eurSepa.hash]);
    expect(await hashes('type=buy&payment-method=paypal')).toEqual([usdPaypal.hash]);
    expect(await hashes('type=buy&group=bank-transfers')).toEqual([usdBank.hash, eurSepa.hash].sort());
    expect(await hashes('type=buy&currency=USD&fiat-min=600')).toEqual([usdPaypal.hash]);
    expect(await hashes('type=buy&currency=USD&fiat-min=100')).toEqual([usdBank.hash, usdPaypal.hash].sort());
    expect(await hashes('type=buy&crypto_currency_id=2')).toEqual([tether.hash]);
    // One tether at 1 USD, 0.5 % over.
    expect((await search(t, 'type=buy&crypto_currency_id=2')).data[0]?.fiatPricePerCrypto).toBe(1.01);
  });

  it('leaves out offers a visitor cannot trade: offline owners, blocked people, other countries, hidden ones', async () => {
    const vendorUser = await createUser(t, { vendor: true });
    const vendor = await vendorUser.signIn();
    const open = await createOffer(vendor);
    const germansOnly = await createOffer(vendor, { allowed_countries: ['DE'] });
    const notFrance = await createOffer(vendor, { blocked_countries: ['FR'] });
    await createOffer(vendor, { is_publicly_visible: false });
    const hashes = async (b: Browser | typeof t, query: string) =>
      (await search(b, query)).data.map((o) => o.hash).sort();

    // A visitor from localhost is in DEFAULT_COUNTRY (US); one who picks "worldwide" sees every country's.
    expect(await hashes(t, 'type=buy')).toEqual([open.hash, notFrance.hash].sort());
    expect(await hashes(t, 'type=buy&visitor_country_has_changed=1')).toEqual(
      [open.hash, germansOnly.hash, notFrance.hash].sort(),
    );
    expect(await hashes(t, 'type=buy&visitor_country_iso=fr')).toEqual(
      [open.hash, germansOnly.hash].sort().filter((h) => h !== germansOnly.hash),
    );
    expect(await hashes(t, 'type=buy&visitor_country_iso=DE')).toEqual(
      [open.hash, germansOnly.hash, notFrance.hash].sort(),
    );

    // The buyer blocked the vendor: none of the vendor's offers for the buyer.
    const buyerUser = await createUser(t);
    const buyer = await buyerUser.signIn();
    await sql(
      `INSERT INTO user_trust (user_id, other_id, kind, created_at) VALUES (?, ?, 'blocked', ?)`,
      buyerUser.id,
      vendorUser.id,
      TEST_NOW,
    );
    expect(await hashes(buyer, 'type=buy')).toEqual([]);

    // Not seen for more than three days: offline.
    await sql(`UPDATE users SET last_seen_at = ? WHERE id = ?`, TEST_NOW - 4 * 86_400_000, vendorUser.id);
    expect(await hashes(t, 'type=buy')).toEqual([]);
  });

  it('ranks owners seen in the last two hours first and scores each offer by last seen', async () => {
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    const other = await signedIn('swiftsats@vendors.example.com');
    const staleButCheap = await createOffer(other, { margin: '0' });
    const freshButDear = await createOffer(vendor, { margin: '9' });
    await sql(
      `UPDATE users SET last_seen_at = ? WHERE email = 'swiftsats@vendors.example.com'`,
      TEST_NOW - 5 * 3600_000,
    );
    const found = await search(t, 'type=buy');
    expect(found.data.map((o) => [o.hash, o.score])).toEqual([
      [freshButDear.hash, 0],
      [staleButCheap.hash, 5 * 3600],
    ]);
    expect(found.meta.lastSeenBreakpoint).toBe(7200);
  });

  it('serves a repeated search from its cache until an offer changes', async () => {
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    const first = await createOffer(vendor);
    expect((await search(t, 'type=buy')).data.map((o) => o.hash)).toEqual([first.hash]);
    // Behind the service's back: the cached answer stands for the rest of the 10-second bucket.
    await t.db.sql.run(`UPDATE offers SET status = 'paused' WHERE hash = ?`, [first.hash]);
    expect((await search(t, 'type=buy')).data.map((o) => o.hash)).toEqual([first.hash]);
    t.clock.now += 10_000;
    expect((await search(t, 'type=buy')).data).toEqual([]);
    // Through the service: at once.
    const second = await createOffer(vendor);
    expect((await search(t, 'type=buy')).data.map((o) => o.hash)).toEqual([second.hash]);
  });

  it('pages by 50', async () => {
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    for (let i = 0; i < 53; i++) await createOffer(vendor, { margin: String(i / 10) });
    const first = await search(t, 'type=buy');
    const second = await search(t, 'type=buy&page=2');
    expect(first.data).toHaveLength(50);
    expect(second.data).toHaveLength(3);
    expect(second.meta).toMatchObject({ page: 2, otherOffersCount: 53 });
    expect(new Set([...first.data, ...second.data].map((o) => o.hash)).size).toBe(53);
  });

  it('relaxes amount, then currency, then payment method when asked and nothing matches', async () => {
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    const offer = await createOffer(vendor, {
      currency: 'EUR',
      payment_method: 'sepa',
      fiat_min: '10',
      fiat_max: '100',
    });
    const relaxed = async (query: string) => (await search(t, `type=buy&relax=1&${query}`)).meta.relaxed;
    expect(await relaxed('currency=EUR&fiat-min=50')).toEqual([]);
    expect(await relaxed('currency=EUR&fiat-min=5000')).toEqual(['amount']);
    expect(await relaxed('currency=USD&payment-method=sepa')).toEqual(['currency']);
    expect(await relaxed('currency=GBP&payment-method=paypal&fiat-min=1')).toEqual([
      'amount',
      'currency',
      'payment_method',
    ]);
    const found = await search(t, 'type=buy&relax=1&currency=GBP&payment-method=paypal');
    expect(found.data.map((o) => o.hash)).toEqual([offer.hash]);
    // Without relax=1 an empty search stays empty.
    expect((await search(t, 'type=buy&currency=GBP')).data).toEqual([]);
  });

  it("shows a visitor's own currency when the listing is localized", async () => {
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    const euro = await createOffer(vendor, { currency: 'EUR', payment_method: 'sepa' });
    await createOffer(vendor);
    const found = await search(t, 'type=buy&visitor_country_iso=DE&is_payment_localized=1');
    expect(found.data.map((o) => o.hash)).toEqual([euro.hash]);
    expect(found.meta.currency).toBe('EUR');
  });

  it.each([
    ['type=rent', 'type'],
    ['currency=EURO', 'currency'],
    ['currency=XXQ', 'currency'],
    ['payment-method=carrier-pigeon', 'payment-method'],
    ['payment-method=Bank_Transfer', 'payment-method'],
    ['group=snail-mail', 'group'],
    ['fiat-min=-1', 'fiat-min'],
    ['fiat-min=0', 'fiat-min'],
    ['currency=USD&fiat-min=1.234', 'fiat-min'],
    ['visitor_country_iso=XX', 'visitor_country_iso'],
    ['visitor_country_iso=DEU', 'visitor_country_iso'],
    ['location_id=99999999', 'location_id'],
    ['crypto_currency_id=3', 'crypto_currency_id'],
    ['page=0', 'page'],
    ['is_payment_localized=yes', 'is_payment_localized'],
  ])('answers %s with 400 on %s', async (query, field) => {
    const res = await t.send(`/rest/v1/offers?${query}`);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.errors[0]).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field });
  });
});

describe('GET /rest/v1/offers/{hash}: the start gate', () => {
  const gate = async (b: Browser | typeof t, hash: string, query = '') => {
    const res = await ('jar' in b
      ? b.get(`/rest/v1/offers/${hash}${query}`)
      : t.send(`/rest/v1/offers/${hash}${query}`));
    expect(res.status).toBe(200);
    const meta = (await res.json()).meta as {
      canStartTrade: boolean;
      blocks: { code: string; message: string }[];
      step: string;
    };
    return { ...meta, codes: meta.blocks.map((b) => b.code) };
  };

  it('lets a verified buyer start, and tells a visitor to sign in', async () => {
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    const offer = await createOffer(vendor, { is_skip_warnings: true });
    const buyer = await (await createUser(t)).signIn();
    expect(await gate(buyer, offer.hash)).toMatchObject({ canStartTrade: true, codes: [], step: 'start' });
    expect(await gate(t, offer.hash)).toMatchObject({ canStartTrade: false, codes: ['sign_in_required'] });
    expect(await gate(vendor, offer.hash)).toMatchObject({ codes: ['own_offer'], isOwner: true });
  });

  it('names every reason of spec section 5, in its order', async () => {
    const vendorUser = await createUser(t, { vendor: true });
    const vendor = await vendorUser.signIn();
    const offer = await createOffer(vendor, {
      type: 'buy',
      allowed_countries: ['DE'],
      require_offer_currency_match_buyer_country: true,
      require_min_past_trades: 5,
      show_only_trusted_user: true,
    });
    const buyerUser = await createUser(t);
    const buyer = await buyerUser.signIn();
    await sql(
      `UPDATE users SET is_email_verified = 0, country_id = (SELECT id FROM countries WHERE iso = 'KE') WHERE id = ?`,
      buyerUser.id,
    );
    await sql(
      `INSERT INTO user_trust (user_id, other_id, kind, created_at) VALUES (?, ?, 'blocked', ?)`,
      buyerUser.id,
      vendorUser.id,
      TEST_NOW,
    );
    await sql(`UPDATE users SET last_seen_at = ? WHERE id = ?`, TEST_NOW - 4 * 86_400_000, vendorUser.id);

    const result = await gate(buyer, offer.hash);
    expect(result.codes).toEqual([
      'email_not_verified',
      'country_not_allowed',
      'gray_country_id_required',
      'currency_country_mismatch',
      'min_past_trades',
      'trusted_only',
      'owner_offline',
      'opponent_blocked',
    ]);
    expect(result.blocks.find((b) => b.code === 'min_past_trades')?.message).toBe(
      'This offer needs 5 completed trades; you have 0.',
    );
  });

  it('refuses people whose request comes from a barred country, whatever their settings say', async () => {
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    const notGermany = await createOffer(vendor, { blocked_countries: ['DE'] });
    const buyerUser = await createUser(t);
    await sql(`UPDATE users SET country_id = (SELECT id FROM countries WHERE iso = 'US') WHERE id = ?`, buyerUser.id);
    // 85.214.132.117 is in Berlin for DB-IP; the test's default address places nowhere (DEFAULT_COUNTRY US).
    const inBerlin = await buyerUser.signIn('85.214.132.117');
    const refused = await gate(inBerlin, notGermany.hash);
    expect(refused.codes).toEqual(['country_not_allowed']);
    expect(refused.blocks[0]?.message).toBe('This offer is not available in your country.');
    const start = await inBerlin.post('/rest/v1/trade', {
      offer_hash: notGermany.hash,
      amount_fiat: '100',
      amount_btc: (100 / notGermany.fiatPricePerCrypto).toFixed(8),
      gold_terms: 0,
      original_data: notGermany.originalData,
    });
    expect(start.status).toBe(403);
    expect((await start.json()).errors[0].message).toBe('This offer is not available in your country.');
    expect((await gate(await buyerUser.signIn(), notGermany.hash)).codes).toEqual([]);
  });

  it('admits the people the vendor trusts and those whose country uses the currency', async () => {
    const vendorUser = await createUser(t, { vendor: true });
    const vendor = await vendorUser.signIn();
    const offer = await createOffer(vendor, {
      currency: 'EUR',
      payment_method: 'sepa',
      show_only_trusted_user: true,
      require_offer_currency_match_buyer_country: true,
      is_skip_warnings: true,
    });
    const buyerUser = await createUser(t);
    const buyer = await buyerUser.signIn();
    expect((await gate(buyer, offer.hash)).codes).toEqual(['currency_country_mismatch', 'trusted_only']);
    expect((await gate(buyer, offer.hash, '?visitor_country_iso=DE')).codes).toEqual(['trusted_only']);
    await sql(
      `INSERT INTO user_trust (user_id, other_id, kind, created_at) VALUES (?, ?, 'trusted', ?)`,
      vendorUser.id,
      buyerUser.id,
      TEST_NOW,
    );
    expect((await gate(buyer, offer.hash, '?visitor_country_iso=DE')).codes).toEqual([]);
  });

  it('chooses the first step of the decision order of spec section 4', async () => {
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    const buyer = await (await createUser(t)).signIn();
    const stepOf = async (overrides: Record<string, unknown>) =>
      (await gate(buyer, (await createOffer(vendor, overrides)).hash)).step;
    expect(await stepOf({ payment_method: 'amazon-gift-card', is_gold: true })).toBe('choose_gift_cards');
    expect(await stepOf({ is_gold: true })).toBe('payment_terms_warning');
    expect(await stepOf({ type: 'buy', require_verified_id: true, payment_method: 'paypal' })).toBe('ofac_warning');
    expect(await stepOf({})).toBe('sell_offer_warning');
    expect(await stepOf({ is_skip_warnings: true })).toBe('start');
    expect(await stepOf({ type: 'buy', payment_method: 'paypal' })).toBe('chargeback_warning');
    expect(await stepOf({ type: 'buy' })).toBe('start');
  });

  it('caps a new trader at the offer limit for new partners', async () => {
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    const offer = await createOffer(vendor, { new_buyer_max_fiat: '200', is_skip_warnings: true });
    const buyerUser = await createUser(t);
    const buyer = await buyerUser.signIn();
    const read = async () => (await (await buyer.get(`/rest/v1/offers/${offer.hash}`)).json()).meta.limits;
    expect(await read()).toEqual({ min: 50, max: 200, cappedBy: 'new_partner' });
    await sql('UPDATE users SET completed_trades = 3 WHERE id = ?', buyerUser.id);
    expect(await read()).toEqual({ min: 50, max: 1000 });
  });

  it('answers in the reader language where a translation exists, and 404 for unknown offers', async () => {
    expect((await t.send('/rest/v1/offers/AAAAAAAAAAA')).status).toBe(404);
    expect((await t.send('/rest/v1/offers/bad!hash')).status).toBe(400);
  });
});
