import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { tradeFixtures } from '../support/trade-fixtures.ts';

// The payer name (spec sections 5 and 7; decision 112): a sell offer tagged "no third parties"
// takes payment only from the buyer's own account, so the buyer names the account's holder at the
// start, and the seller sees it beside the buyer's verified name, the one given for the identity
// document and approved by a moderator.

let t: TestApp;
let f: ReturnType<typeof tradeFixtures>;
beforeEach(async () => {
  t = await createTestApp();
  f = tradeFixtures(t);
});
afterEach(() => t?.close());

const OWN_ACCOUNT_ONLY = { tags: ['no-third-parties'] };

async function readTrade(b: Awaited<ReturnType<typeof f.signedIn>>, hash: string) {
  return (await (await b.get(`/rest/v1/trade/${hash}`)).json()).data;
}

describe('an offer that takes payment only from the buyer’s own account', () => {
  it('asks for the payer name on sell offers only', async () => {
    const { vendor } = await f.openMarket(10_000_000);
    const sell = await f.createOffer(vendor, OWN_ACCOUNT_ONLY);
    const buy = await f.createOffer(vendor, { type: 'buy', ...OWN_ACCOUNT_ONLY });
    const plain = await f.createOffer(vendor);
    const read = async (hash: string) => (await (await vendor.get(`/rest/v1/offers/${hash}`)).json()).data;
    expect((await read(sell.hash)).requirePayerName).toBe(true);
    expect((await read(buy.hash)).requirePayerName).toBe(false);
    expect((await read(plain.hash)).requirePayerName).toBe(false);
  });

  it('refuses a start without a name, or with one that is not a name, and starts nothing', async () => {
    const { vendor, buyer } = await f.openMarket(10_000_000);
    const offer = await f.createOffer(vendor, OWN_ACCOUNT_ONLY);
    for (const [payer, key] of [
      [undefined, 'payer_name_required'],
      ['   ', 'payer_name_required'],
      ['12345', 'payer_name_invalid'],
    ] as const) {
      const res = await buyer.post('/rest/v1/trade', f.startBody(offer, '100', { payer_name: payer }));
      expect(res.status).toBe(400);
      const error = (await res.json()).errors[0];
      expect(error).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'payer_name' });
      expect(error.details[0].key).toBe(key);
    }
    expect((await t.db.sql.get<{ n: number }>('SELECT count(*) AS n FROM trades'))?.n).toBe(0);
  });

  it('shows the seller the payer name beside the buyer’s verified name, and the buyer neither', async () => {
    const { vendor, buyer } = await f.openMarket(10_000_000);
    const offer = await f.createOffer(vendor, OWN_ACCOUNT_ONLY);
    const start = await buyer.post(
      '/rest/v1/trade',
      f.startBody(offer, '100', { payer_name: '  erika   MUSTERMANN ' }),
    );
    expect(start.status, await start.clone().text()).toBe(201);
    const { id } = (await start.json()).data;

    // Not verified yet: the seller is told to compare with the payment itself.
    expect((await readTrade(vendor, id)).payerCheck).toEqual({
      payerName: 'erika MUSTERMANN',
      verifiedName: null,
      matches: null,
    });
    expect((await readTrade(buyer, id)).payerCheck).toBeNull();
    expect((await readTrade(buyer, id)).payerName).toBe('erika MUSTERMANN');

    const buyerId = await f.userId('buyer@example.com');
    await f.sql(
      `UPDATE users SET full_name = 'Erika Anna Mustermann', id_verified_at = ? WHERE id = ?`,
      t.clock.now,
      buyerId,
    );
    expect((await readTrade(vendor, id)).payerCheck).toEqual({
      payerName: 'erika MUSTERMANN',
      verifiedName: 'Erika Anna Mustermann',
      matches: true,
    });
    await f.sql(`UPDATE users SET full_name = 'Max Mustermann' WHERE id = ?`, buyerId);
    expect((await readTrade(vendor, id)).payerCheck.matches).toBe(false);
    // A name given but not yet approved is no verified name.
    await f.sql(`UPDATE users SET id_verified_at = NULL WHERE id = ?`, buyerId);
    expect((await readTrade(vendor, id)).payerCheck.verifiedName).toBeNull();
  });

  it('keeps no payer name where the offer asks for none', async () => {
    const { vendor, buyer } = await f.openMarket(10_000_000);
    const offer = await f.createOffer(vendor);
    const start = await buyer.post('/rest/v1/trade', f.startBody(offer, '100', { payer_name: 'Erika Mustermann' }));
    expect(start.status).toBe(201);
    const trade = await readTrade(vendor, (await start.json()).data.id);
    expect(trade).toMatchObject({ payerName: null, payerCheck: null });
  });
});

describe('the name on the identity document', () => {
  it('comes with the identity sent to review and becomes the current user’s full name', async () => {
    const { buyer } = await f.openMarket(1);
    const submit = (body: Record<string, unknown>) => buyer.post('/rest/v1/verification/submit', body);
    // Nothing uploaded: the documents are asked for first; the address needs no name.
    expect((await (await submit({ check: 'identity' })).json()).errors[0].field).toBe('check');
    expect((await (await submit({ check: 'address' })).json()).errors[0].field).toBe('check');
    const buyerId = await f.userId('buyer@example.com');
    const at = t.clock.now;
    for (const kind of ['id_front', 'selfie']) {
      await f.sql(
        `INSERT INTO verification_documents (public_id, user_id, kind, status, storage_name, content_type, size_bytes, created_at)
         VALUES (?, ?, ?, 'uploaded', ?, 'image/jpeg', 100, ?)`,
        `vdoc_${kind}`,
        buyerId,
        kind,
        `${kind}.jpg`,
        at,
      );
    }
    // Then the name that goes with them.
    const missing = await submit({ check: 'identity' });
    expect(missing.status).toBe(400);
    expect((await missing.json()).errors[0]).toMatchObject({ field: 'full_name' });
    const invalid = await submit({ check: 'identity', full_name: 'X' });
    expect((await invalid.json()).errors[0].details[0].key).toBe('verification_name_invalid');
    const sent = await submit({ check: 'identity', full_name: ' Erika  Mustermann ' });
    expect(sent.status, await sent.clone().text()).toBe(200);
    const me = (await (await buyer.get('/rest/v1/users/me')).json()).data;
    expect(me).toMatchObject({ userFullName: 'Erika Mustermann', isIdVerified: false });
  });
});
